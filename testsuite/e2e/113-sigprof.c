/*
 * 113-sigprof: the program installs its own SIGPROF handler after the
 * runtime started, then burns CPU in spin.
 */
#include <signal.h>
#include <time.h>

#include "hook.h"

static volatile unsigned long sink;
static volatile int mine;

static void
handler(int sig)
{
	(void)sig;
	mine++;
}

COUNTED static void
spin(void)
{
	struct timespec ts;
	double end;

	MON_COUNT();
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + 0.2;
	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
}

int
main(void)
{
	signal(SIGPROF, handler);
	spin();
	return 0;
}
