/*
 * 354-prof-pprof-inline.h: the hot loop, in a function that is inlined
 * into 354-prof-pprof-inline.c.
 */
static inline __attribute__((always_inline)) unsigned long
hot(unsigned long x, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		x = (x ^ i) / 3 + x / (i | 1) + (x * 7) % 13 + 1;	/* hot */
	return x;
}
