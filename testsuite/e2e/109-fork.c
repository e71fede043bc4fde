/*
 * 109-fork: the parent calls f 10 times, forks; the child calls g 20
 * times and spins in cspin for 0.3 s of CPU; the parent calls f 5 more
 * times after the child is gone.
 */
#include <sys/wait.h>

#include <time.h>
#include <unistd.h>

#include "hook.h"

static volatile unsigned long sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
g(void)
{
	MON_COUNT();
	sink++;
}

COUNTED static void
cspin(void)
{
	struct timespec ts;
	double end;

	MON_COUNT();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + 0.3;
	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
}

int
main(void)
{
	int i, st;
	pid_t pid;

	MON_COUNT();
	for (i = 0; i < 10; i++)
		f();
	if ((pid = fork()) == 0) {
		for (i = 0; i < 20; i++)
			g();
		cspin();
		return 0;
	}
	if (waitpid(pid, &st, 0) != pid || st != 0)
		return 2;
	for (i = 0; i < 5; i++)
		f();
	return 0;
}
