/*
 * 106-moncontrol: calls made while moncontrol(0) is in force are not
 * counted, including a function first called while off; moncontrol
 * returns the previous mode; a busy loop while off gets no samples.
 */
#include <time.h>

#include "../tools/hooks.h"

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
	MON_COUNT();
	spin_cpu(0.3);
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
