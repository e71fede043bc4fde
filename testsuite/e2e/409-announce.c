/*
 * 409-announce: -pg arcs of global functions (entry hooks), counted
 * through the site their caller announces (hook ABI 5).  4 threads each
 * make M rounds (argv[1]); a round calls
 *   leaf from a and from b (twice), three sites in turn;
 *   dispatch (409-announce.lib.c, not instrumented), which tail-calls
 *	c1 or c2 in turn with worker's return address, and c1 directly:
 *	worker's site for dispatch holds c1's arc or c2's, never counted
 *	for the other;
 *   taken directly and through a pointer (no announcement).
 * Then main sorts with qsort twice, from two sites: cmp, called back by
 * libc right after main announced qsort, is credited to <external>,
 * never to main; and moncontrol(0) excludes a round of main's calls.
 * Prints the comparisons qsort made.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "mon.h"

#define NOINLINE __attribute__((noinline, noclone))
#define NOTAIL	__asm__ volatile("")

void	dispatch(int, long);

long m;
volatile long sink;
long ncmp;

NOINLINE void leaf(long i) { sink += i; NOTAIL; }
NOINLINE void a(long i) { leaf(i); NOTAIL; }
NOINLINE void b(long i) { leaf(i); leaf(i + 1); NOTAIL; }
NOINLINE void c1(long i) { sink ^= i; NOTAIL; }
NOINLINE void c2(long i) { sink -= i; NOTAIL; }
NOINLINE void taken(long i) { sink += 2 * i; NOTAIL; }
void (*volatile via)(long) = taken;

NOINLINE int
cmp(const void *x, const void *y)
{
	int p = *(const int *)x, q = *(const int *)y;

	ncmp++;
	return (p > q) - (p < q);
}

NOINLINE void *
worker(void *arg)
{
	long i;

	for (i = 0; i < m; i++) {
		a(i);
		b(i);
		dispatch(i & 1, i);
		c1(i);
		taken(i);
		via(i);
	}
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t[4];
	int v[100], i;

	m = argc > 1 ? atol(argv[1]) : 100000;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 100; i++)
		v[i] = (i * 37) % 101;
	qsort(v, 100, sizeof(v[0]), cmp);
	for (i = 0; i < 100; i++)
		v[i] = (i * 53) % 101;
	qsort(v, 100, sizeof(v[0]), cmp);
	NOTAIL;
	moncontrol(0);
	a(0);
	b(0);
	c1(0);
	taken(0);
	moncontrol(1);
	printf("%ld\n", ncmp);
	return 0;
}
