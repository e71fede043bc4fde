/*
 * 160-objects: an executable whose time is split between its own main
 * loop, an instrumented shared object (libwork.so: work) and one built
 * without profiling (libplain.so: plain), about a third each.
 */
#include <stdio.h>

long work(long);
long plain(long);

static long __attribute__((noinline, noclone))
mine(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i % 11;
	return s;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? 60 : 40, t = 0;

	(void)argv;
	for (int i = 0; i < n; i++) {
		t += work(2000000);
		t += plain(2000000);
	}
	t += mine(n * 2000000);
	printf("%ld\n", t);
	return 0;
}
