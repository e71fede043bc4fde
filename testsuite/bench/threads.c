/* SPDX-License-Identifier: MIT */
/*
 * threads.c - bench workload: 4 threads (or argv[2]) calling small
 * functions; prints the exact number of calls each function must get,
 * so the bench can check that the profile is exact.
 * Usage: threads [PERCENT [NTHREADS]]
 */
#include <stdio.h>

#include "workers.h"

#define NOINLINE __attribute__((noinline, noclone))

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
	unsigned long n, acc;

	acc = workers_run(argc, argv, 200000000ul, worker, &n);
	if (n == 0)
		return 2;
	printf("threads %lu %lu\n", n, acc);
	/* Exact expected counts, for the bench's exactness check. */
	fprintf(stderr, "expect t_step %lu\nexpect t_inc %lu\nexpect t_dbl %lu\n"
	    "expect t_hash %lu\nexpect worker %lu\n", n * iters, n * iters,
	    n * iters, n * iters, n);
	return 0;
}
