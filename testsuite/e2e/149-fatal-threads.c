/*
 * 149-fatal-threads: a thread calls g() without end while main calls
 * f() 3 times and then dies of argv[1]'s signal, its own doing: "segv"
 * a null store, "abrt" abort().  Nothing is written to stdout.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;
static volatile int started;

__attribute__((noinline, noclone)) static void
f(void)
{
	sink++;
}

__attribute__((noinline, noclone)) static void
g(void)
{
	sink += 2;
}

static void *
spin(void *arg)
{
	for (;;) {
		g();
		started = 1;
	}
	return arg;
}

int
main(int argc, char **argv)
{
	pthread_t t;
	int i;

	if (argc != 2 || pthread_create(&t, NULL, spin, NULL) != 0)
		return 2;
	while (!started)
		;
	for (i = 0; i < 3; i++)
		f();
	if (strcmp(argv[1], "segv") == 0)
		*(volatile int *)(sink * 0) = 1;
	abort();
}
