/* 417-gsframe-link: calls f of the Makefile's --gsframe probe (f.cold
 * aborts, so f is called with 0 only), and one instrumented function. */
#include <stdio.h>

void f(int);

__attribute__((noinline)) static int
twice(int x)
{
	f(0);
	return 2 * x;
}

int
main(void)
{
	int s = 0;

	for (int i = 0; i < 7; i++)
		s += twice(i);
	printf("%d\n", s);
	return 0;
}
