/*
 * 102-hot: a program that spends its CPU time in one function (spin),
 * about 0.5 s, and a little in another (warm).
 */
#include "../tools/hooks.h"

static volatile unsigned long sink;

COUNTED static void
spin(double secs)
{
	MON_COUNT();
	spin_cpu(secs);
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
