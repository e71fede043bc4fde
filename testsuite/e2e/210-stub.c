/*
 * 210-stub: the x86-64 slow path runs behind inline asm and a stub that
 * must preserve every register: each function below is first called (so
 * through the slow path) with arguments in every kind of register, and
 * must see them intact.  Built with -mavx so ymm arguments occur.
 */
#include <immintrin.h>
#include <stdarg.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline, noclone))

NOINLINE long
six(long a, long b, long c, long d, long e, long f)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f;
}

NOINLINE double
fmix(double a, double b, double c, double d, double e, double f, double g,
    double h)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

NOINLINE __m256d
vadd(__m256d a, __m256d b)
{
	return _mm256_add_pd(a, b);
}

NOINLINE long
va(int n, ...)
{
	va_list ap;
	long s = 0;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		s += va_arg(ap, long) * (i + 1);
	va_end(ap);
	return s;
}

NOINLINE double
vaf(int n, ...)
{
	va_list ap;
	double s = 0;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++)
		s += va_arg(ap, double) * (i + 1);
	va_end(ap);
	return s;
}

NOINLINE int
leaf(int a, int b)
{
	return a * b + 1;
}

int
main(void)
{
	double v[4];
	int bad = 0, k = 3;
	NOINLINE int nested(int x) { return x + k; }	/* static chain: r10 */

	bad |= six(1, 2, 3, 4, 5, 6) != 91;
	bad |= fmix(1, 2, 3, 4, 5, 6, 7, 8) != 204;
	_mm256_storeu_pd(v, vadd(_mm256_set_pd(1, 2, 3, 4),
	    _mm256_set_pd(10, 20, 30, 40)));
	bad |= v[0] != 44 || v[1] != 33 || v[2] != 22 || v[3] != 11;
	bad |= va(4, 1L, 2L, 3L, 4L) != 30;
	bad |= vaf(3, 1.5, 2.5, 3.5) != 17;
	bad |= leaf(6, 7) != 43;
	bad |= nested(4) != 7;
	printf("%s\n", bad ? "bad" : "ok");
	return bad;
}
