/*
 * 122-exit-race: main returns while N worker threads (argv[1], default
 * 1) call exit() at the same moment.  f is called 5 times before.
 * Built with -DBY_PLUGIN, the plugin counts f (gcc -specs ... -p).
 */
#include <pthread.h>
#include <stdlib.h>

#include "../tools/hooks.h"

static volatile unsigned long sink;
static pthread_barrier_t go;

COUNTED static void
f(void)
{
#ifndef BY_PLUGIN
	MON_COUNT();
#endif
	sink++;
}

static void *
worker(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&go);
	exit(0);
}

int
main(int argc, char **argv)
{
	pthread_t t;
	int i, n = argc > 1 ? atoi(argv[1]) : 1;

	for (i = 0; i < 5; i++)
		f();
	pthread_barrier_init(&go, NULL, (unsigned)n + 1);
	for (i = 0; i < n; i++)
		pthread_create(&t, NULL, worker, NULL);
	pthread_barrier_wait(&go);
	return 0;
}
