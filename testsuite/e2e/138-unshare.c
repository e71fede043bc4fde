/*
 * 138-unshare: a single-threaded program spins in before(), enters its
 * own mount namespace again with setns(), makes a new user namespace
 * with unshare(CLONE_NEWUSER), both of which need it to be its only
 * thread, and spins in after().  It prints what each call returned.
 * setns() makes the namespace's root the working directory: the
 * program goes back to its own, where its profile is written.  With
 * THREADS set, it says on stderr how many threads it has after them;
 * with BETWEEN set, it spins in between() from one call to the other.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

/* Spin for about ms milliseconds of this process's CPU time, inline. */
static inline __attribute__((always_inline)) void
spin(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 100000; i++)
			sink++;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 +
	    (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

__attribute__((noipa)) static void
before(void)
{
	spin(300);
}

__attribute__((noipa)) static void
between(void)
{
	spin(300);
}

__attribute__((noipa)) static void
after(void)
{
	spin(300);
}

int
main(void)
{
	int fd, here, r;

	before();
	if ((fd = open("/proc/self/ns/mnt", O_RDONLY)) < 0 ||
	    (here = open(".", O_RDONLY | O_DIRECTORY)) < 0)
		return 2;
	r = setns(fd, CLONE_NEWNS);
	printf("setns: %d %s\n", r, r ? strerror(errno) : "");
	close(fd);
	if (fchdir(here) != 0)
		return 3;
	if (getenv("BETWEEN") != NULL)
		between();
	r = unshare(CLONE_NEWUSER);
	printf("unshare: %d %s\n", r, r ? strerror(errno) : "");
	after();
	if (getenv("THREADS") != NULL) {
		char line[256];
		FILE *fp = fopen("/proc/self/status", "r");

		while (fp != NULL && fgets(line, sizeof(line), fp) != NULL)
			if (strncmp(line, "Threads:", 8) == 0)
				fputs(line, stderr);
	}
	return 0;
}
