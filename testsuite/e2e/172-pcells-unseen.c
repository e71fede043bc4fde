/*
 * 172-pcells-unseen: threads the runtime does not see start.  A
 * SIGEV_THREAD timer's notification runs in a thread glibc starts
 * itself (not through pthread_create): it calls timer_fn() 10 times.
 * A pthread_create thread calls seen() 10 times.
 */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))

static volatile unsigned long sink;
static sem_t done;

NOINLINE void timer_fn(void) { sink++; }
NOINLINE void seen(void) { sink++; }

static void
notify(union sigval v)
{
	int i;

	(void)v;
	for (i = 0; i < 10; i++)
		timer_fn();
	sem_post(&done);
}

static void *
run(void *arg)
{
	int i;

	for (i = 0; i < 10; i++)
		seen();
	return arg;
}

int
main(void)
{
	struct sigevent ev;
	struct itimerspec its;
	timer_t tm;
	pthread_t t;

	sem_init(&done, 0, 0);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = notify;
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0)
		return 2;
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 1000000;
	timer_settime(tm, 0, &its, NULL);
	sem_wait(&done);
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	return 0;
}
