/*
 * 354-prof-pprof-inline: a hot loop in a header's static inline
 * function, hot(), inlined into step(), inlined into outer(): three
 * functions, two files, one symbol.  step() also calls tick(), a call
 * site in inlined code for -pg.
 */
#include "354-prof-pprof-inline.h"

static volatile unsigned long sink;

void __attribute__((noinline, noclone))
tick(void)
{
	asm volatile("");
}

static inline __attribute__((always_inline)) unsigned long
step(unsigned long x)
{
	tick();				/* step calls tick */
	return hot(x, 200000);		/* step calls hot */
}

void __attribute__((noinline, noclone))
outer(int reps)
{
	unsigned long x = 1;
	int k;

	for (k = 0; k < reps; k++)
		x = step(x);		/* outer calls step */
	sink = x;
}

int
main(int argc, char **argv)
{
	(void)argv;
	outer(argc * 400);
	return 0;
}
