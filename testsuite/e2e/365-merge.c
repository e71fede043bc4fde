/*
 * 365-merge: a process of known counts for PROFFLAGS -merge: with
 * argument k, f is called k times, g 2k times, libwork (libmrg.so)
 * k % 7 times, and each spins a little, so that samples and stacks are
 * taken.  With a second argument, it first waits until that file
 * exists, so that hundreds of them exit at one moment.  -DOTHER builds
 * another program of the same name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

long libwork(long);

static long __attribute__((noinline, noclone))
f(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i % 11;
	return s;
}

static long __attribute__((noinline, noclone))
g(long n)
{
#ifdef OTHER
	return n + 1;
#else
	return f(n) + 1;
#endif
}

int
main(int argc, char **argv)
{
	static const struct timespec nap = { 0, 1000000L };
	long k = argc > 1 ? atol(argv[1]) : 1, t = 0;

	while (argc > 2 && access(argv[2], F_OK) != 0)
		nanosleep(&nap, NULL);
	for (long i = 0; i < k; i++)
		t += f(20000 + (i & 1));	/* not hoisted: f is pure */
	for (long i = 0; i < 2 * k; i++)
		t += g(10000 + (i & 1));
	for (long i = 0; i < k % 7; i++)
		t += libwork(20000);
	printf("%ld\n", t & 1);
	return 0;
}
