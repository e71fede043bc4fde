/*
 * 102-hot: a program that spends its CPU time in one function (spin),
 * about 0.5 s, and a little in another (warm).
 */
#include <time.h>

#include "hook.h"

static volatile unsigned long sink;

static double
cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

COUNTED static void
spin(double secs)
{
	double end = cpu() + secs;
	unsigned long i;

	MON_COUNT();
	while (cpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i * i;
}

COUNTED static void
warm(void)
{
	unsigned long i;

	MON_COUNT();
	for (i = 0; i < 1000; i++)
		sink += i;
}

int
main(int argc, char **argv)
{
	(void)argv;
	warm();
	spin(argc > 1 ? 1.0 : 0.5);
	return 0;
}
