/*
 * 423-many-processes: one of many profiled processes at once: spins for
 * argv[1] seconds of its CPU time in work(), called from main, then
 * prints the kB of its perf rings (mappings of [perf_event], which the
 * kernel locks: charged to the user's perf_event_mlock_kb, then to the
 * process's VmPin) and its VmPin: "rings N pin N".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline, noclone)) static void
work(double secs)
{
	double end = tcpu() + secs;
	unsigned long i;

	while (tcpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
}

int
main(int argc, char **argv)
{
	char line[4096];
	unsigned long lo, hi, rings = 0;
	long pin = -1;
	FILE *f;

	work(argc > 1 ? atof(argv[1]) : 0.3);
	if ((f = fopen("/proc/self/maps", "r")) == NULL)
		return 1;
	while (fgets(line, sizeof(line), f) != NULL)
		if (strstr(line, "[perf_event]") != NULL &&
		    sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			rings += (hi - lo) / 1024;
	fclose(f);
	if ((f = fopen("/proc/self/status", "r")) == NULL)
		return 1;
	while (fgets(line, sizeof(line), f) != NULL)
		sscanf(line, "VmPin: %ld", &pin);
	fclose(f);
	printf("rings %lu pin %ld\n", rings, pin);
	return 0;
}
