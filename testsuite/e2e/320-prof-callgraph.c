/*
 * 320-prof-callgraph: a call graph whose counts can be read from the
 * source, for prof -G: main calls work 10 times (20 with an argument),
 * work calls leaf 100 times each, main calls leaf once, fib(10) calls
 * itself 176 times, qsort calls cmp from outside the executable.
 */
#include <stdlib.h>

static volatile long sink;

static void __attribute__((noinline, noclone))
leaf(int i)
{
	sink += i;
}

void __attribute__((noinline, noclone))
work(int n)
{
	int i;

	for (i = 0; i < n; i++)
		leaf(i);
}

static int __attribute__((noinline, noclone))
cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static long __attribute__((noinline, noclone))
fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int
main(int argc, char **argv)
{
	int k, v[4] = { 3, 1, 2, 0 };

	(void)argv;
	for (k = 0; k < 10 * argc; k++)
		work(100);
	leaf(0);
	qsort(v, 4, sizeof(v[0]), cmp);
	sink += fib(10);
	return 0;
}
