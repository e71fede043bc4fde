/*
 * 142-sigdump-churn: -sigdump dumps while threads come and go.  main
 * starts T detached threads, a few at a time, each calling f K times;
 * a thread of its own sends the process SIGUSR1 every 3 ms, 20 times.
 * Many threads start and end while a dump is written.  Prints the
 * number of calls of f the dumps and the exit profile must sum to.
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define K	1000

__attribute__((noinline, noclone)) int
f(int x)
{
	__asm__ volatile("");
	return x + 1;
}

static volatile int done;

static void *
worker(void *arg)
{
	int i, s = 0;

	(void)arg;
	for (i = 0; i < K; i++)
		s += f(i);
	__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST);
	return (void *)(long)s;
}

static void *
dumper(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 20; i++) {
		usleep(3000);
		kill(getpid(), SIGUSR1);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	int i, n = argc > 1 ? atoi(argv[1]) : 2000;
	pthread_attr_t at;
	pthread_t d, t;

	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&d, NULL, dumper, NULL) != 0)
		return 2;
	for (i = 0; i < n; i++) {
		while (pthread_create(&t, &at, worker, NULL) != 0)
			usleep(100);
		if (i % 8 == 7)
			usleep(200);
	}
	pthread_join(d, NULL);
	while (__atomic_load_n(&done, __ATOMIC_SEQ_CST) != n)
		usleep(1000);
	printf("%d\n", n * K);
	return 0;
}
