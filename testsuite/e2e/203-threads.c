/*
 * 203-threads: NTHREADS threads each call work() NCALLS times, all at
 * once; the count must be exactly NTHREADS * NCALLS.
 */
#include <pthread.h>
#include <stdio.h>

#define NTHREADS	8
#define NCALLS		200000

static pthread_barrier_t start;

__attribute__((noinline, noclone)) long
work(long x)
{
	asm volatile("");
	return x + 1;
}

__attribute__((noinline, noclone)) void *
worker(void *arg)
{
	long i, s = 0;

	pthread_barrier_wait(&start);
	for (i = 0; i < NCALLS; i++)
		s += work(i);
	asm volatile("");
	return (void *)s;
}

int
main(void)
{
	pthread_t t[NTHREADS];
	int i;

	pthread_barrier_init(&start, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
