/*
 * fork.c - what a fork costs a small program (issue 36): argv[1] times
 * fork(), the child's _exit(0) and the parent's waitpid(), one after
 * another; prints per fork the wall time of the loop and the CPU time
 * (user + system) of the process and its children, in microseconds:
 * "wall cpu".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void __attribute__((__noinline__))
work(unsigned long n)
{
	while (n-- > 0)
		sink += n * n;
}

static double
cpu_us(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return (self.ru_utime.tv_sec + self.ru_stime.tv_sec +
	    kids.ru_utime.tv_sec + kids.ru_stime.tv_sec) * 1e6 +
	    self.ru_utime.tv_usec + self.ru_stime.tv_usec +
	    kids.ru_utime.tv_usec + kids.ru_stime.tv_usec;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000, i, st;
	struct timespec a, b;
	double c0, c1;
	pid_t p;

	work(1000);
	c0 = cpu_us();
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++) {
		if ((p = fork()) == 0)
			_exit(0);
		if (p < 0 || waitpid(p, &st, 0) != p)
			return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	c1 = cpu_us();
	printf("%.1f %.1f\n", ((b.tv_sec - a.tv_sec) * 1e9 +
	    (b.tv_nsec - a.tv_nsec)) / 1e3 / n, (c1 - c0) / n);
	return 0;
}
