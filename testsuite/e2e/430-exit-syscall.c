/*
 * 430-exit-syscall: main burns argv[1] seconds of CPU, then ends its
 * own thread with the exit system call (not exit_group, and past
 * glibc), as the last thread of the program's: the process ends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double
cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	double end = cpu() + (argc > 1 ? atof(argv[1]) : 0.2);
	unsigned long i;

	while (cpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
	printf("bye\n");
	fflush(stdout);
	syscall(SYS_exit, 0);
	return 1;
}
