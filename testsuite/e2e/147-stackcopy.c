/*
 * 147-stackcopy: main -> outer, whose 24 KB buffer lies between main's
 * frame and hot's, -> hot, which spins for argv[1] seconds of thread
 * CPU time (default 0.4).  An 8 KB copy of the stack's top holds hot's
 * and outer's frames, not main's.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline, noclone)) void
hot(double secs)
{
	double end = tcpu() + secs;
	unsigned long i;

	do
		for (i = 0; i < 100000; i++)
			sink += i;
	while (tcpu() < end);
}

__attribute__((noinline, noclone)) void
outer(double secs)
{
	char buf[24576];

	memset(buf, (int)sink, sizeof(buf));
	hot(secs);
	sink += (unsigned char)buf[sink % sizeof(buf)];
}

int
main(int argc, char **argv)
{
	outer(argc > 1 ? atof(argv[1]) : 0.4);
	return 0;
}
