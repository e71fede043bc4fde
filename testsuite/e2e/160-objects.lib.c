/* libwork.so (built with -p) and libplain.so (without): one hot loop. */
#ifndef NAME
#define NAME work
#endif

long __attribute__((noinline))
NAME(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i * 7 % 13;
	return s;
}
