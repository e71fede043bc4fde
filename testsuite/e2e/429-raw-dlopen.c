/*
 * 429-raw-dlopen: a single-threaded program whose library dlopen()s and
 * dlclose()s a module over and over, calls it, and walks the loaded
 * objects (dl_iterate_phdr, as a C++ throw does), while the perf
 * helper, no thread of glibc's, learns and retires objects without the
 * loader's lock (runtime/sframe.c).  Built twice: as the library
 * (churn), and with -DMODULE as the module (spin).  argv: the module's
 * path, CPU seconds.  Prints whether glibc still counts one thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/single_threaded.h>
#include <time.h>

#if defined(MODULE)
volatile unsigned long sink;

__attribute__((__noinline__)) void
spin(unsigned long n)
{
	while (n-- > 0)
		sink += n * n;
}
#elif defined(LIBRARY)
static int
count(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)info;
	(void)size;
	++*(int *)arg;
	return 0;
}

static double
cpu(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Until secs of CPU time: open, call, walk, close; 0 or what failed. */
int
churn(const char *mod, double secs)
{
	double end = cpu() + secs;
	unsigned long k = 0;
	void (*f)(unsigned long);
	void *h;
	int n, before = 0;

	dl_iterate_phdr(count, &before);
	while (cpu() < end) {
		if ((h = dlopen(mod, RTLD_NOW | RTLD_LOCAL)) == NULL)
			return 2;
		if ((f = (void (*)(unsigned long))dlsym(h, "spin")) == NULL)
			return 3;
		f(20000 + k++ % 7 * 1000);
		n = 0;
		dl_iterate_phdr(count, &n);
		if (n != before + 1)
			return 4;
		if (dlclose(h) != 0)
			return 5;
	}
	return 0;
}
#else
int churn(const char *, double);

int
main(int argc, char **argv)
{
	int rc;

	if (argc != 3)
		return 1;
	rc = churn(argv[1], atof(argv[2]));
	printf("churn %d single %d\n", rc, __libc_single_threaded);
	return rc;
}
#endif
