/*
 * 106-moncontrol: calls made while moncontrol(0) is in force are not
 * counted, including a function first called while off; moncontrol
 * returns the previous mode; a busy loop while off gets no samples.
 */
#include <time.h>

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
busy(void)
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
	int i;

	for (i = 0; i < 10; i++)
		f();
	if (moncontrol(0) != 1)
		return 2;
	for (i = 0; i < 100; i++)
		f();
	for (i = 0; i < 50; i++)
		g();
	busy();
	if (moncontrol(1) != 0)
		return 3;
	if (moncontrol(1) != 1)
		return 4;
	for (i = 0; i < 3; i++)
		f();
	g();
	return 0;
}
