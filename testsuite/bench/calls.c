/* SPDX-License-Identifier: MIT */
/*
 * calls.c - bench workload: call-heavy, single thread.  A recursive fib
 * and small leaves, none inlined: the cost of the entry hook dominates.
 * Usage: calls [PERCENT]
 */
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile unsigned long sink;
static volatile unsigned depth = 30;

NOINLINE static unsigned long leaf_add(unsigned long a, unsigned long b) { return a + b; }
NOINLINE static unsigned long leaf_xor(unsigned long a, unsigned long b) { return a ^ b; }
NOINLINE static unsigned long leaf_mix(unsigned long a) { return a * 2654435761u >> 7; }
NOINLINE static unsigned long leaf_rot(unsigned long a) { return a << 5 | a >> 59; }

NOINLINE static unsigned long
fib(unsigned n)
{
	unsigned long r;

	if (n < 2)
		return leaf_mix(n);
	r = leaf_add(fib(n - 1), fib(n - 2));
	__asm__ volatile("");
	return r;
}

NOINLINE static unsigned long
mixer(unsigned long x, unsigned i)
{
	unsigned long r = leaf_xor(leaf_rot(x), i);

	__asm__ volatile("");
	return r;
}

int
main(int argc, char **argv)
{
	unsigned long pct = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long rounds = 40 * pct / 100, i, j, acc = 0;

	for (i = 0; i < rounds; i++) {
		acc += fib(depth);
		for (j = 0; j < 1000000; j++)
			acc = mixer(acc, j);
	}
	sink = acc;
	printf("calls %lu %lu\n", rounds, acc);
	return 0;
}
