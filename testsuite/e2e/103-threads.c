/*
 * 103-threads: NTHR threads call work() NCALL times each, concurrently;
 * then two threads spin for the same CPU time in spin_a and spin_b,
 * spin_b with every signal blocked.
 */
#include <pthread.h>
#include <signal.h>
#include <time.h>

#include "../tools/hooks.h"

#define NTHR	8
#define NCALL	200000

static volatile unsigned long sink;

COUNTED static void
work(void)
{
	MON_COUNT();
	sink++;
}

static void *
worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < NCALL; i++)
		work();
	return NULL;
}

static double
tcpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

COUNTED static void
spin_a(void)
{
	double end = tcpu() + 0.4;
	unsigned long i;

	MON_COUNT();
	while (tcpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
}

COUNTED static void
spin_b(void)
{
	double end = tcpu() + 0.4;
	unsigned long i;

	MON_COUNT();
	while (tcpu() < end)
		for (i = 0; i < 100000; i++)
			sink += i;
}

static void *
runner(void *arg)
{
	sigset_t all;

	if (arg != NULL) {
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, NULL);
		spin_b();
	} else
		spin_a();
	return NULL;
}

int
main(void)
{
	pthread_t t[NTHR];
	int i;

	for (i = 0; i < NTHR; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < NTHR; i++)
		pthread_join(t[i], NULL);
	pthread_create(&t[0], NULL, runner, NULL);
	pthread_create(&t[1], NULL, runner, &t);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	return 0;
}
