/*
 * 403-callbacks: calls from outside the executable and recursion.  qsort
 * (libc) calls cmp, which counts itself; a shared object (argv[1]
 * loaded with dlopen) calls back twice; fact(10) recurses 9 times.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

static long ncmp;

int __attribute__((noinline, noclone))
cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	ncmp++;
	return (x > y) - (x < y);
}

void __attribute__((noinline, noclone))
callback(void)
{
	__asm__ volatile("");
}

long __attribute__((noinline, noclone))
fact(long n)
{
	long r = n <= 1 ? 1 : n * fact(n - 1);

	__asm__ volatile("");
	return r;
}

int
main(int argc, char **argv)
{
	int v[500], i;
	void *h;
	void (*twice)(void (*)(void));

	for (i = 0; i < 500; i++)
		v[i] = (i * 7919) % 1000;
	qsort(v, 500, sizeof(v[0]), cmp);
	if (argc > 1) {
		if ((h = dlopen(argv[1], RTLD_NOW)) == NULL ||
		    (twice = (void (*)(void (*)(void)))dlsym(h, "twice")) == NULL)
			return 1;
		twice(callback);
	}
	printf("%ld %ld\n", ncmp, fact(10));
	return 0;
}
