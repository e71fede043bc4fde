/*
 * 143-stacks: main -> outer -> middle -> hot, and outer -> hot, where
 * hot, a leaf that needs no stack, has all the time: two thirds of it
 * under middle, a third called from outer directly.  argv[1] "thread":
 * the same in a thread that blocks every signal (the perf sampler still
 * takes its stacks).  argv[2]: the rounds (the time).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) void
hot(long n)
{
	for (long i = 0; i < n; i++)
		sink += i * i;
}

__attribute__((noinline, noclone)) void
middle(long n)
{
	hot(n);
	sink++;
}

__attribute__((noinline, noclone)) void
outer(long n)
{
	middle(n);
	hot(n / 2);
	sink++;
}

static long rounds;

__attribute__((noinline, noclone)) void *
worker(void *arg)
{
	for (long i = 0; i < rounds; i++)
		outer(1000000);
	return arg;
}

int
main(int argc, char **argv)
{
	sigset_t all, old;
	pthread_t t;

	rounds = argc > 2 ? atol(argv[2]) : 200;
	if (argc > 1 && strcmp(argv[1], "thread") == 0) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&t, NULL, worker, NULL) != 0)
			return 2;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_join(t, NULL);
	} else
		worker(NULL);
	printf("%lu\n", sink);
	return 0;
}
