/*
 * profdir.c - a forking program for `make bench`'s prof at scale: N
 * children, one after another, each calling a few functions for about
 * two milliseconds of CPU time (a handful of samples, with their
 * stacks) and exiting, so that PROFDIR holds N + 1 profiles of one
 * program, as a server's short connections leave them.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

static void __attribute__((__noinline__))
leaf(unsigned long i)
{
	sink += i * i;
}

static void __attribute__((__noinline__))
inner(unsigned long n)
{
	while (n-- > 0)
		leaf(n);
}

static void __attribute__((__noinline__))
child(int k)
{
	int i;

	for (i = 0; i < 40; i++)
		inner(10000 + (unsigned long)(k % 7) * 1000);
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, k, st;
	pid_t p;

	for (k = 0; k < n; k++) {
		if ((p = fork()) == -1)
			return 1;
		if (p == 0) {
			child(k);
			exit(0);
		}
		if (waitpid(p, &st, 0) != p || st != 0)
			return 1;
	}
	return 0;
}
