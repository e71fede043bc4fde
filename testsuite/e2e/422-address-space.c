/*
 * 422-address-space: how much a program may allocate under its
 * RLIMIT_AS: malloc()s 1 MB blocks until one fails, while a second
 * thread spins (so that samples, and their stacks, are taken), then
 * frees them, starts and joins one more thread, and prints "MB N" and
 * "thread ok" (or the error).  Calls blocks() once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile int stop;
static volatile unsigned long sink;

static void *
spin(void *arg)
{
	(void)arg;
	while (!stop)
		sink++;
	return NULL;
}

static void *
nothing(void *arg)
{
	return arg;
}

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__((noinline, noclone)) static int
blocks(void **p, int max)
{
	int n;

	for (n = 0; n < max && (p[n] = malloc(1 << 20)) != NULL; n++)
		memset(p[n], 1, 4096);
	return n;
}

int
main(void)
{
	static void *p[4096];
	pthread_t t;
	int n, i, rc;

	if ((rc = pthread_create(&t, NULL, spin, NULL)) != 0) {
		printf("spinner: %s\n", strerror(rc));
		return 1;
	}
	while (tcpu() < 0.2)
		continue;
	n = blocks(p, 4096);
	stop = 1;
	pthread_join(t, NULL);
	for (i = 0; i < n; i++)
		free(p[i]);
	printf("MB %d\n", n);
	rc = pthread_create(&t, NULL, nothing, NULL);
	if (rc == 0)
		pthread_join(t, NULL);
	printf("thread %s\n", rc == 0 ? "ok" : strerror(rc));
	return 0;
}
