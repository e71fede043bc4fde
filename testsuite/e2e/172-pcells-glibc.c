/*
 * 172-pcells-glibc: threads started by glibc rather than by a call of
 * pthread_create: a SIGEV_THREAD timer's notifications (3, each calling
 * timer_fn 10 times, and checking the value it was given), a
 * SIGEV_THREAD mq_notify notification (mq_fn 10 times), and C11 threads
 * (c11_fn 10 times each; one returns 7, one ends by thrd_exit(9), and
 * thrd_join must read both).  A pthread_create thread calls seen() 10
 * times.  Exit status 0, or the number of the check that failed.
 */
#include <fcntl.h>
#include <mqueue.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))

static volatile unsigned long sink;
static sem_t done;

NOINLINE void timer_fn(void) { sink++; }
NOINLINE void mq_fn(void) { sink++; }
NOINLINE void c11_fn(void) { sink++; }
NOINLINE void seen(void) { sink++; }

static int bad;

static void
on_timer(union sigval v)
{
	int i;

	if (v.sival_int != 42)
		bad = 1;
	for (i = 0; i < 10; i++)
		timer_fn();
	sem_post(&done);
}

static void
on_message(union sigval v)
{
	int i;

	if (v.sival_ptr != &done)
		bad = 2;
	for (i = 0; i < 10; i++)
		mq_fn();
	sem_post(&done);
}

static int
c11(void *arg)
{
	int i;

	for (i = 0; i < 10; i++)
		c11_fn();
	if (arg != NULL)
		thrd_exit(9);
	return 7;
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
	char name[64];
	timer_t tm;
	pthread_t t;
	thrd_t c[2];
	mqd_t q;
	int i, r[2];

	sem_init(&done, 0, 0);
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = on_timer;
	ev.sigev_value.sival_int = 42;
	if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0)
		return 10;
	memset(&its, 0, sizeof(its));
	for (i = 0; i < 3; i++) {
		its.it_value.tv_nsec = 1000000;
		timer_settime(tm, 0, &its, NULL);
		sem_wait(&done);
	}
	timer_delete(tm);

	snprintf(name, sizeof(name), "/monprof-172-%d", (int)getpid());
	if ((q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, NULL)) ==
	    (mqd_t)-1)
		return 11;
	mq_unlink(name);
	ev.sigev_notify_function = on_message;
	ev.sigev_value.sival_ptr = &done;
	if (mq_notify(q, &ev) != 0 || mq_send(q, "x", 1, 0) != 0)
		return 12;
	sem_wait(&done);
	mq_close(q);

	if (thrd_create(&c[0], c11, NULL) != thrd_success ||
	    thrd_create(&c[1], c11, &c[1]) != thrd_success ||
	    thrd_join(c[0], &r[0]) != thrd_success ||
	    thrd_join(c[1], &r[1]) != thrd_success)
		return 13;
	if (r[0] != 7 || r[1] != 9)
		return 14;

	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	return bad;
}
