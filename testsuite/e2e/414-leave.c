/*
 * 414-leave: calls counted exactly where the calls of a straight run of
 * code do not all run (hook ABI 9 counted such runs at their start, and
 * counted calls that never ran): a call that longjmps out, one that
 * may exit, a moncontrol() between two calls, a tail call, a loop, a
 * recursion whose block calls three local functions, and a fault in the
 * first of three calls.  Prints the number of calls each function must
 * have.
 * Usage: 414-leave N		the counts, on stdout
 *	  414-leave crash	three calls, the first dies of SIGSEGV
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	moncontrol(int);	/* the runtime's (mon.h) */

#define NOINLINE __attribute__((__noinline__, __noclone__))

static jmp_buf env;
static volatile unsigned long sink;
static unsigned long n_fib, n_leaf, n_jumps, n_after, n_tail, n_off;

NOINLINE static unsigned long leaf(unsigned long a) { return a * 3 + 1; }
NOINLINE static unsigned long add(unsigned long a, unsigned long b) { return a + b; }

NOINLINE static unsigned long
fib(unsigned n)
{
	unsigned long r;

	n_fib++;
	if (n < 2) {
		n_leaf++;
		return leaf(n);
	}
	r = add(fib(n - 1), fib(n - 2));
	__asm__ volatile("");
	return r;
}

/* Returns or not: longjmps every third time. */
NOINLINE static void
jumper(unsigned long i)
{
	if (i % 3 == 0) {
		n_jumps++;
		longjmp(env, 1);
	}
}

NOINLINE static unsigned long after(unsigned long a) { n_after++; return a + 7; }
NOINLINE static unsigned long before(unsigned long a) { return a ^ 5; }

NOINLINE static void
jumps(unsigned long i)
{
	/* before returns; jumper may not: after is a group of its own. */
	sink += before(i);
	jumper(i);
	sink += after(i);
}

NOINLINE static unsigned long tailee(unsigned long a) { n_tail++; return a - 1; }

NOINLINE static unsigned long
tailer(unsigned long a)
{
	sink += before(a);
	return tailee(a + 1);
}

NOINLINE static unsigned long off_f(unsigned long a) { return a + 2; }
NOINLINE static unsigned long off_g(unsigned long a) { n_off++; return a + 3; }
NOINLINE static unsigned long off_h(unsigned long a) { return a + 4; }

NOINLINE static void
controlled(unsigned long i)
{
	sink += off_f(i);
	moncontrol(0);
	sink += off_g(i);
	moncontrol(1);
	sink += off_h(i);
}

/* crash: sink += at(NULL) faults; next and last never run. */
NOINLINE static unsigned long at(const unsigned long *p) { return *p + 1; }
NOINLINE static unsigned long next(unsigned long a) { return a * 5; }
NOINLINE static unsigned long last(unsigned long a) { return a + 9; }

NOINLINE static void
crash(const unsigned long *p)
{
	sink += at(p);
	sink += next(sink);
	sink += last(sink);
}

int
main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000, i;
	volatile unsigned long k;

	if (argc > 1 && strcmp(argv[1], "crash") == 0) {
		sink += next(1);
		crash((const unsigned long *)(sink & 0));
		return 0;
	}
	sink += fib(20);
	for (k = 0; k < n; k++)
		if (setjmp(env) == 0)
			jumps(k);
	for (i = 0; i < n; i++)
		sink += tailer(i);
	for (i = 0; i < n; i++)
		controlled(i);
	printf("fib %lu\nleaf %lu\nadd %lu\njumper %lu\nbefore %lu\n"
	    "after %lu\ntailer %lu\ntailee %lu\noff_f %lu\noff_g 0\n"
	    "off_h %lu\njumps %lu\ncontrolled %lu\n", n_fib, n_leaf,
	    n_fib - n_leaf, n, 2 * n, n_after, n, n_tail, n, n, n, n);
	fprintf(stderr, "jumps %lu off_g ran %lu\n", n_jumps, n_off);
	return 0;
}
