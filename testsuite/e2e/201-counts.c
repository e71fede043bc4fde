/*
 * 201-counts: a fixed call graph gives the same exact counts at every -O
 * level, PIE or not, with LTO and -static: one count per out-of-line
 * entry, constructors, main, recursion and a nested function included.
 */
#include <stdio.h>

#define N	__attribute__((noinline, noclone))

static int init_seen;

N int
leaf(int x)
{
	asm volatile("");	/* keep it a real call */
	return x + 1;
}

N int
mid(int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += leaf(i);
	asm volatile("");	/* prevent tail call */
	return s;
}

N int
rec(int n)
{
	int r;

	if (n == 0)
		return 0;
	r = rec(n - 1);
	asm volatile("" : "+r"(r));	/* no tail-recursion elimination */
	return r + 1;
}

N int
outer(int n)
{
	N int inner(int x) { asm volatile(""); return x * 2; }
	int i, s = 0;

	for (i = 0; i < n; i++)
		s += inner(i);
	asm volatile("");
	return s;
}

__attribute__((constructor)) N static void
init(void)
{
	init_seen = 1;
	asm volatile("");
}

int
main(void)
{
	int i, s = 0;

	for (i = 0; i < 10; i++)
		s += mid(100);
	printf("%d %d %d %d\n", s, rec(10), outer(5), init_seen);
	return 0;
}
