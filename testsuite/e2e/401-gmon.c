/*
 * 401-gmon: glibc's tst-gmon call graph: f3 runs once and calls f1 and
 * f2 1000 times each, f2 calls f1, so f1 2000, f2 1000, f3 1 (gprof -C
 * in glibc's test); main's caller is outside the executable.
 */
#include <stdio.h>

int sum;

void __attribute__((noinline, noclone))
f1(int i)
{
	sum += i;
	__asm__ volatile("");
}

void __attribute__((noinline, noclone))
f2(int i)
{
	f1(-i);
	__asm__ volatile("");
}

void __attribute__((noinline, noclone))
f3(int n)
{
	int i;

	for (i = 0; i < n; i++) {
		f1(i);
		f2(i);
	}
	__asm__ volatile("");
}

int
main(void)
{
	f3(1000);
	printf("%d\n", sum);
	return 0;
}
