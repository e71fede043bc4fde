/* SPDX-License-Identifier: MIT */
/*
 * threads.c - bench workload: 4 threads (or argv[2]) calling small
 * functions; prints the exact number of calls each function must get,
 * so the bench can check that the profile is exact.
 * Usage: threads [PERCENT [NTHREADS]]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static unsigned long iters;

NOINLINE static unsigned long t_inc(unsigned long a) { return a + 1; }
NOINLINE static unsigned long t_dbl(unsigned long a) { return a * 2 + 1; }
NOINLINE static unsigned long t_hash(unsigned long a) { return a * 0x9e3779b97f4a7c15ul >> 3; }

NOINLINE static unsigned long
t_step(unsigned long a)
{
	unsigned long r = t_hash(t_inc(a)) ^ t_dbl(a);

	__asm__ volatile("");
	return r;
}

NOINLINE static void *
worker(void *arg)
{
	unsigned long acc = (unsigned long)arg, i;

	for (i = 0; i < iters; i++)
		acc = t_step(acc);
	return (void *)acc;
}

int
main(int argc, char **argv)
{
	unsigned long pct = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 4, i;
	unsigned long acc = 0;
	pthread_t tid[64];
	void *r;

	if (n < 1 || n > 64)
		return 2;
	iters = 200000000ul * pct / 100 / n;
	for (i = 0; i < n; i++)
		pthread_create(&tid[i], NULL, worker, (void *)i);
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], &r);
		acc ^= (unsigned long)r;
	}
	printf("threads %lu %lu\n", n, acc);
	/* Exact expected counts, for the bench's exactness check. */
	fprintf(stderr, "expect t_step %lu\nexpect t_inc %lu\nexpect t_dbl %lu\n"
	    "expect t_hash %lu\nexpect worker %lu\n", n * iters, n * iters,
	    n * iters, n * iters, n);
	return 0;
}
