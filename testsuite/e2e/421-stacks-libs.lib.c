/*
 * 421-stacks-libs: the libraries, built by plain gcc -O2 (no specs, no
 * frame pointers): libl.so's lib_sort calls the C library's qsort with
 * a comparator of its own, and lib_viamod dlopen()s mod.so itself (the
 * executable's dlopen wrapper never sees it) and calls mod_fill there,
 * which calls memset.  Each spins for secs of the thread's CPU time.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

volatile unsigned long lib_sink;

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#ifdef MODULE
static char buf[1 << 16];

void
mod_fill(double secs)
{
	double end = tcpu() + secs;

	while (tcpu() < end) {
		memset(buf, (int)lib_sink, sizeof(buf));
		lib_sink += (unsigned char)buf[100];
	}
}
#else
static unsigned keys[4096];

static int
lib_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

void
lib_sort(double secs)
{
	double end = tcpu() + secs;
	unsigned i, r = 1;

	while (tcpu() < end) {
		for (i = 0; i < 4096; i++)
			keys[i] = r = r * 1103515245 + 12345;
		qsort(keys, 4096, sizeof(keys[0]), lib_cmp);
	}
	lib_sink++;
}

void
lib_viamod(const char *path, double secs)
{
	void *h = dlopen(path, RTLD_NOW);
	void (*f)(double);

	if (h == NULL || (f = (void (*)(double))dlsym(h, "mod_fill")) == NULL)
		abort();
	f(secs);
	lib_sink++;
}
#endif
