/*
 * 143-stacks: main -> outer -> middle -> hot, and outer -> hot, where
 * hot, a leaf that needs no stack, has all the time: two thirds of it
 * under middle, a third called from outer directly.  argv[1] "thread":
 * the same in a thread that blocks every signal (the perf sampler still
 * takes its stacks); "cycle": main -> even -> odd -> even ... -> leaf,
 * each odd also calling leaf, all the time in leaf, even and odd a cycle.
 * argv[2]: the rounds (the time).
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

void odd(int);

__attribute__((noinline, noclone)) void
leaf(long n)
{
	for (long i = 0; i < n; i++)
		sink += i ^ n;
}

__attribute__((noinline, noclone)) void
even(int d)
{
	if (d == 0)
		leaf(300000);
	else
		odd(d - 1);
	sink++;
}

__attribute__((noinline, noclone)) void
odd(int d)
{
	leaf(100000);
	even(d - 1);
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
	} else if (argc > 1 && strcmp(argv[1], "cycle") == 0) {
		for (long i = 0; i < rounds; i++)
			even(6);
	} else
		worker(NULL);
	printf("%lu\n", sink);
	return 0;
}
