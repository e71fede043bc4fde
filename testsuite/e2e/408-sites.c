/*
 * 408-sites: -pg arcs of local functions.  4 threads each make M rounds
 * (argv[1]); a round calls
 *   leaf from two places in turn (a and b), 1 + 2 = 3 calls;
 *   hidden from seen and from shy (no_instrument_function: its calls of
 *	hidden are seen by hidden's entry alone), 1 + 1;
 *   taken directly and through a pointer (its address is taken), 1 + 1.
 * Between the threads, moncontrol(0) excludes main's call of a.
 */
#include <pthread.h>
#include <stdlib.h>

#include "mon.h"

#define NOINLINE __attribute__((noinline, noclone))

static long m;
static volatile long sink;

NOINLINE static void leaf(long i) { sink += i; __asm__ volatile(""); }
NOINLINE static void a(long i) { leaf(i); }
NOINLINE static void b(long i) { leaf(i); leaf(i + 1); }
NOINLINE static void hidden(long i) { sink ^= i; __asm__ volatile(""); }
NOINLINE static void seen(long i) { hidden(i); }
NOINLINE __attribute__((no_instrument_function)) static void
shy(long i) { hidden(i); }
NOINLINE static void taken(long i) { sink -= i; __asm__ volatile(""); }
static void (*volatile via)(long) = taken;

NOINLINE static void *
worker(void *arg)
{
	long i;

	for (i = 0; i < m; i++) {
		a(i);
		b(i);
		seen(i);
		shy(i);
		taken(i);
		via(i);
	}
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t[4];
	int i;

	m = argc > 1 ? atol(argv[1]) : 100000;
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	moncontrol(0);
	a(0);
	moncontrol(1);
	return 0;
}
