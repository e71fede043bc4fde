/* SPDX-License-Identifier: MIT */
/*
 * globals.c - bench workload: 4 threads (or argv[2]) calling small
 * global functions, each from two places, as a library's API is
 * called: -pg cannot count these at their call sites (another unit may
 * call them too), so every call takes the entry's arc cache.  Prints
 * the exact number of calls each function must get, as threads.c does.
 * Usage: globals [PERCENT [NTHREADS]]
 */
#include <stdio.h>

#include "workers.h"

#define NOINLINE __attribute__((noinline, noclone))

unsigned long g_inc(unsigned long a);
unsigned long g_dbl(unsigned long a);
unsigned long g_hash(unsigned long a);
unsigned long g_step(unsigned long a);
unsigned long g_mix(unsigned long a);
void *g_worker(void *arg);

NOINLINE unsigned long g_inc(unsigned long a) { return a + 1; }
NOINLINE unsigned long g_dbl(unsigned long a) { return a * 2 + 1; }
NOINLINE unsigned long g_hash(unsigned long a) { return a * 0x9e3779b97f4a7c15ul >> 3; }

NOINLINE unsigned long
g_step(unsigned long a)
{
	unsigned long r = g_hash(g_inc(a)) ^ g_dbl(a);

	__asm__ volatile("");
	return r;
}

NOINLINE unsigned long
g_mix(unsigned long a)
{
	unsigned long r = g_inc(g_hash(a)) + g_dbl(a);

	__asm__ volatile("");
	return r;
}

NOINLINE void *
g_worker(void *arg)
{
	unsigned long acc = (unsigned long)arg, i;

	for (i = 0; i < iters; i++)
		acc = g_step(acc) ^ g_mix(acc);
	return (void *)acc;
}

int
main(int argc, char **argv)
{
	unsigned long n, acc;

	acc = workers_run(argc, argv, 50000000ul, g_worker, &n);
	if (n == 0)
		return 2;
	printf("globals %lu %lu\n", n, acc);
	/* Exact expected counts, for the bench's exactness check. */
	fprintf(stderr, "expect g_step %lu\nexpect g_mix %lu\n"
	    "expect g_inc %lu\nexpect g_dbl %lu\nexpect g_hash %lu\n"
	    "expect g_worker %lu\n", n * iters, n * iters, 2 * n * iters,
	    2 * n * iters, 2 * n * iters, n);
	return 0;
}
