/*
 * 163-ranges: monitor(MON_RANGES) over two functions of the executable
 * and one of a shared object, given in increasing order; the refused
 * forms first.  Run with PROFFLAGS=-disable_default.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <mon.h>

long work(long);

#define HOT(name, k)							\
	long __attribute__((noinline, noclone, aligned(64)))		\
	name(long n)							\
	{								\
		long s = 0;						\
		for (long i = 0; i < n; i++)				\
			s += i * k % 13;				\
		return s;						\
	}

HOT(hot1, 3)
HOT(hot2, 5)

static unsigned int c1[16], c2[16], c3[16];

static int
refused(struct monitor_args *a, size_t n, const char *what)
{
	errno = 0;
	if (monitor(MON_RANGES, 0, (WORD *)a, n, 0) != -1 || errno != EINVAL) {
		printf("%s: not refused\n", what);
		return 1;
	}
	return 0;
}

int
main(void)
{
	struct monitor_args a[3] = {
		{ (char *)hot1, (char *)hot1 + 64, c1, sizeof(c1) },
		{ (char *)hot2, (char *)hot2 + 64, c2, sizeof(c2) },
		/* -fPIC: the loop lies past the area word's entry. */
		{ (char *)work, (char *)work + 128, c3, sizeof(c3) },
	}, bad[2];
	long t = 0;
	int fails = 0;
	unsigned long s1 = 0, s2 = 0, s3 = 0;

	if ((char *)hot1 > (char *)hot2) {	/* increasing: monitor sorts */
		bad[0] = a[0];
		a[0] = a[1];
		a[1] = bad[0];
	}
	memcpy(bad, a, sizeof(bad));
	bad[1].lowpc = bad[0].lowpc + 8;
	bad[1].highpc = bad[0].highpc + 8;
	fails += refused(bad, 2, "overlapping ranges");
	memcpy(bad, a, sizeof(bad));
	bad[1].lowpc = (char *)16;
	bad[1].highpc = (char *)4096;
	fails += refused(bad, 2, "a range not mapped");
	memcpy(bad, a, sizeof(bad));
	bad[0].bufsiz = 0;
	fails += refused(bad, 1, "no counter");
	fails += refused(a, 0, "no range");
	if (monitor(MON_RANGES, (int (*)(void))hot1, (WORD *)a, 3, 0) != -1 ||
	    monitor(MON_RANGES, 0, (WORD *)a, 3, 1) != -1) {
		printf("highpc or flags: not refused\n");
		fails++;
	}
	if (monitor(MON_RANGES, 0, (WORD *)a, 3, 0) != 0) {
		perror("monitor");
		return 1;
	}
	if (!(a[0].lowpc > a[1].lowpc && a[1].lowpc > a[2].lowpc)) {
		printf("not sorted by decreasing lowpc\n");
		fails++;
	}
	for (int i = 0; i < 30; i++)
		t += hot1(2000000 + i) + hot2(2000000 + i) + work(2000000 + i);
	/* monitor(0) drains the sampler into the counters first. */
	monitor(0, 0, 0, 0, 0);
	for (int i = 0; i < 16; i++) {
		s1 += c1[i];
		s2 += c2[i];
		s3 += c3[i];
	}
	printf("counted %d %d %d\n", s1 > 0, s2 > 0, s3 > 0);
	return fails != 0 || t == 42;
}
