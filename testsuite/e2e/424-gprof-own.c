/*
 * 424-gprof-own: 20,000 short threads one after another, each calling
 * leaf() once: a third of the samples fall in the runtime's own code
 * (each thread's counters and arcs set up, its start and end).
 */
#include <pthread.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) void
leaf(unsigned long i)
{
	sink += i;
}

static void *
run(void *arg)
{
	leaf((unsigned long)arg);
	return NULL;
}

int
main(void)
{
	pthread_t t;
	long i;

	for (i = 0; i < 20000; i++) {
		if (pthread_create(&t, NULL, run, (void *)i) != 0)
			return 1;
		pthread_join(t, NULL);
	}
	return 0;
}
