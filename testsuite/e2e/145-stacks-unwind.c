/*
 * 145-stacks-unwind: call stacks of code built without frame pointers,
 * through a C library that has neither frame pointers nor SFrame rows.
 * main -> sorter -> qsort (libc) -> by_key, the comparator: by_key's
 * samples are under sorter, through libc; main -> churn -> malloc and
 * free (libc, where most of churn's time goes); main -> fill -> memset
 * (a libc leaf).  Each part spins for a share of the thread's CPU time:
 * argv[1] the seconds of all three (default 0.6).  argv[2]: a module
 * (this file built with -DMODULE) that main -> via_module dlopen()s, in
 * whose mod_spin -> mod_inner 0.5 s are spent.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile unsigned long sink;
static unsigned keys[4096];
static char buf[1 << 16];

double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#ifdef MODULE
double tcpu(void);

/* No call in the loop: its samples are the module's own code. */
__attribute__((noinline, noclone)) void
mod_inner(double secs)
{
	double end = tcpu() + secs;
	unsigned long i;

	do
		for (i = 0; i < 1000000; i++)
			sink += i;
	while (tcpu() < end);
}

void
mod_spin(double secs)
{
	mod_inner(secs);
	sink++;
}
#else
__attribute__((noinline, noclone)) int
by_key(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

__attribute__((noinline, noclone)) void
sorter(double secs)
{
	double end = tcpu() + secs;
	unsigned i, r = 1;

	while (tcpu() < end) {
		for (i = 0; i < 4096; i++)
			keys[i] = r = r * 1103515245 + 12345;
		qsort(keys, 4096, sizeof(keys[0]), by_key);
	}
}

__attribute__((noinline, noclone)) void
churn(double secs)
{
	double end = tcpu() + secs;
	void *p[64];
	int i;

	while (tcpu() < end)
		for (i = 0; i < 64; i++) {
			p[i] = malloc(24 + (size_t)i * 40);
			sink += (unsigned long)p[i];
			if (i % 2)
				free(p[i - 1]);
			if (i % 2)
				free(p[i]);
		}
}

__attribute__((noinline, noclone)) void
fill(double secs)
{
	double end = tcpu() + secs;

	while (tcpu() < end) {
		memset(buf, (int)sink, sizeof(buf));
		sink += (unsigned char)buf[sink % sizeof(buf)];
	}
}

__attribute__((noinline, noclone)) void
via_module(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*spin)(double);

	if (h == NULL || (spin = (void (*)(double))dlsym(h, "mod_spin")) ==
	    NULL)
		exit(3);
	spin(0.5);
	sink++;
}

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.6;

	sorter(secs / 3);
	churn(secs / 3);
	fill(secs / 3);
	if (argc > 2)
		via_module(argv[2]);
	return 0;
}
#endif
