/* libmrg.so (built with -p): a function the program calls k % 7 times. */
long __attribute__((noinline))
libwork(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += i * 7 % 13;
	return s;
}
