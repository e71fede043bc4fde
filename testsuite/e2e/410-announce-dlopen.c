/*
 * 410-announce-dlopen: threads that live through dlopen() and dlclose()
 * of -pg objects, whose call sites announce themselves; two objects
 * of different sizes take turns at (likely) one address and one slot.
 * usage: 410-announce-dlopen ITER M lib0 lib1
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 4

static pthread_barrier_t go, done;
static long (*run)(long);
static long m, bad;

static long
want(long n)
{
	return n * n;	/* sum of i + (i + 1) for i < n */
}

static void *
worker(void *arg)
{
	long iter = (long)arg, k;

	for (k = 0; k < iter; k++) {
		pthread_barrier_wait(&go);
		if (run(m) != want(m))
			__atomic_fetch_add(&bad, 1, __ATOMIC_RELAXED);
		pthread_barrier_wait(&done);
	}
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t[NTHREADS];
	long iter, k;
	void *h;
	int i;

	if (argc != 5)
		return 2;
	iter = atol(argv[1]);
	m = atol(argv[2]);
	pthread_barrier_init(&go, NULL, NTHREADS + 1);
	pthread_barrier_init(&done, NULL, NTHREADS + 1);
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)iter) != 0)
			return 3;
	for (k = 0; k < iter; k++) {
		if ((h = dlopen(argv[3 + k % 2], RTLD_NOW)) == NULL) {
			fprintf(stderr, "%s\n", dlerror());
			return 4;
		}
		run = (long (*)(long))dlsym(h, k % 2 ? "run1" : "run0");
		pthread_barrier_wait(&go);
		if (run(m) != want(m))
			bad++;
		pthread_barrier_wait(&done);
		dlclose(h);
	}
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	return bad != 0;
}
