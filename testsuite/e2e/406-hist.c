/*
 * 406-hist: spin burns about 0.4 s of CPU, idle does nothing: gprof's
 * histogram must give spin most of the time.
 */
#include <time.h>

static volatile unsigned long sink;

void __attribute__((noinline, noclone))
idle(void)
{
	sink++;
}

void __attribute__((noinline, noclone))
spin(void)
{
	clock_t end = clock() + CLOCKS_PER_SEC * 4 / 10;

	while (clock() < end)
		for (int i = 0; i < 100000; i++)
			sink += i;
}

int
main(void)
{
	idle();
	spin();
	return 0;
}
