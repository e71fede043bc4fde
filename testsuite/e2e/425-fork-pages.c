/*
 * 425-fork-pages: a program of 9 MB of text (a never-called blob of
 * nops) whose parent runs parent_work for a while, then forks a child
 * that prints the page faults it took in fork (its fork handlers) and
 * its pid, runs child_work, and exits.  Built with -p.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

__asm__(".text\n.globl blob\n.type blob, @function\nblob:\n"
    ".fill 9000000, 1, 0x90\nret\n.size blob, .-blob\n");

static volatile unsigned long sink;

/* Spin for MS milliseconds of this process's CPU time, in the caller. */
#define SPIN(ms) do {							\
	struct timespec t0_, t_;					\
									\
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0_);			\
	do {								\
		for (int i_ = 0; i_ < 10000; i_++)			\
			sink += i_;					\
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t_);		\
	} while ((t_.tv_sec - t0_.tv_sec) * 1000 +			\
	    (t_.tv_nsec - t0_.tv_nsec) / 1000000 < (ms));		\
} while (0)

static void __attribute__((__noinline__, __noclone__))
parent_work(void)
{
	SPIN(300);
}

static void __attribute__((__noinline__, __noclone__))
child_work(void)
{
	SPIN(301);	/* not 300: GCC would fold the two into one */
}

int
main(void)
{
	struct rusage ru;
	pid_t p;
	int st;

	parent_work();
	if ((p = fork()) == 0) {
		getrusage(RUSAGE_SELF, &ru);
		printf("%ld %ld\n", ru.ru_minflt, (long)getpid());
		fflush(stdout);
		child_work();
		exit(0);
	}
	return p > 0 && waitpid(p, &st, 0) == p && st == 0 ? 0 : 1;
}
