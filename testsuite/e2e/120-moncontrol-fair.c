/*
 * 120-moncontrol-fair: 8 threads switch moncontrol off and on as fast
 * as they can while main makes 200 switches of its own, 2 ms apart,
 * then stops
 * profiling with monitor(0) with the 8 still switching.  Prints the
 * longest single moncontrol call of any thread and how long monitor(0)
 * took, in milliseconds.
 */
#include <sys/time.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>

#include "../tools/hooks.h"

#define NTHREADS	8

static volatile int stop;
static double worst;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void
note(double ms)
{
	pthread_mutex_lock(&lock);
	if (ms > worst)
		worst = ms;
	pthread_mutex_unlock(&lock);
}

static double
timed_moncontrol(int mode)
{
	double t = now();

	moncontrol(mode);
	return now() - t;
}

static void *
toggler(void *arg)
{
	double mine = 0, ms;
	int i;

	(void)arg;
	for (i = 0; !stop; i++)
		if ((ms = timed_moncontrol(i & 1)) > mine)
			mine = ms;
	note(mine);
	return NULL;
}

static void
alarm_handler(int sig)
{
	(void)sig;
	moncontrol(1);
}

int
main(int argc, char **argv)
{
	static const struct itimerval every = { { 0, 500 }, { 0, 500 } };
	static const struct timespec pause = { 0, 2000000 };
	pthread_t t[NTHREADS];
	double ms, stopms;
	int i;

	for (i = 0; i < NTHREADS; i++)
		pthread_create(&t[i], NULL, toggler, NULL);
	if (argc > 1) {
		signal(SIGALRM, alarm_handler);
		setitimer(ITIMER_REAL, &every, NULL);
	}
	for (i = 0; i < 200; i++) {
		if ((ms = timed_moncontrol(i & 1)) > worst)
			note(ms);
		nanosleep(&pause, NULL);
	}
	stopms = now();
	monitor(NULL, NULL, NULL, 0, 0);
	stopms = now() - stopms;
	stop = 1;
	signal(SIGALRM, SIG_IGN);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(t[i], NULL);
	printf("%.0f %.0f\n", worst, stopms);
	return 0;
}
