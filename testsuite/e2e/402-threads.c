/*
 * 402-threads: 4 threads each call work() M times (argv[1]): gprof must
 * show exactly 4 * M calls, all from worker.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long m;
static volatile long sink;

void __attribute__((noinline, noclone))
work(long i)
{
	sink += i;
	__asm__ volatile("");
}

void * __attribute__((noinline, noclone))
worker(void *arg)
{
	long i;

	for (i = 0; i < m; i++)
		work(i);
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t[4];
	int i;

	m = argc > 1 ? atol(argv[1]) : 1000000;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
