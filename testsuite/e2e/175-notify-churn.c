/*
 * 175-notify-churn: argv[1] (default 40000) SIGEV_THREAD timers, created
 * and deleted one after the other, each with its own sival_ptr, and a
 * quarter as many mq_notify registrations with values of their own,
 * each removed again by mq_notify(q, NULL).  Before and after that
 * churn, FIRE timers and FIRE message notifications fire once each with
 * a value of their own, which their functions check (timer_fn and mq_fn
 * called 10 times per notification).  Prints the process's CPU time
 * (user + system, every thread) over the churn in microseconds and how
 * much its resident memory grew meanwhile in KiB.  Exit status 0, or
 * the number of the check that failed.
 */
#include <sys/resource.h>

#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((__noinline__, __noclone__))
#define FIRE	4

static volatile unsigned long sink;
static sem_t done;
static char *vals;		/* one distinct address per notification */
static void *volatile want;	/* the value the next notification gets */
static volatile int bad;

NOINLINE void timer_fn(void) { sink++; }
NOINLINE void mq_fn(void) { sink++; }

/* A notification: its value checked, f called 10 times. */
static void
got(union sigval v, void (*f)(void))
{
	int i;

	if (v.sival_ptr != want)
		bad = 1;
	for (i = 0; i < 10; i++)
		f();
	sem_post(&done);
}

static void on_timer(union sigval v) { got(v, timer_fn); }
static void on_message(union sigval v) { got(v, mq_fn); }

static void
event(struct sigevent *ev, void (*fn)(union sigval), void *value)
{
	memset(ev, 0, sizeof(*ev));
	ev->sigev_notify = SIGEV_THREAD;
	ev->sigev_notify_function = fn;
	ev->sigev_value.sival_ptr = value;
}

/* FIRE timers and FIRE message notifications, values from vals + at. */
static int
fire(mqd_t q, long at)
{
	struct sigevent ev;
	struct itimerspec its;
	timer_t tm;
	char buf[64];
	long i;

	for (i = at; i < at + FIRE; i++) {
		want = vals + i;
		event(&ev, on_timer, want);
		if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0)
			return 10;
		memset(&its, 0, sizeof(its));
		its.it_value.tv_nsec = 1000000;
		if (timer_settime(tm, 0, &its, NULL) != 0)
			return 11;
		sem_wait(&done);
		if (timer_delete(tm) != 0)
			return 12;

		event(&ev, on_message, want);
		if (mq_notify(q, &ev) != 0 || mq_send(q, "x", 1, 0) != 0)
			return 13;
		sem_wait(&done);
		if (mq_receive(q, buf, sizeof(buf), NULL) != 1)
			return 14;
	}
	return 0;
}

static long
cpu_us(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
	    ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
}

/* Resident KiB, from /proc/self/statm. */
static long
rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long size, res = -1;

	if (f == NULL)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	fclose(f);
	return res * (sysconf(_SC_PAGESIZE) / 1024);
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 40000;
	long i, t0, r0, t1, r1;
	struct mq_attr attr;
	struct sigevent ev;
	char name[64];
	timer_t tm;
	mqd_t q;
	int st;

	if ((vals = calloc(n + 2 * FIRE, 1)) == NULL)
		return 20;
	sem_init(&done, 0, 0);
	snprintf(name, sizeof(name), "/monprof-175-%d", (int)getpid());
	memset(&attr, 0, sizeof(attr));
	attr.mq_maxmsg = 1;
	attr.mq_msgsize = 64;
	if ((q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr)) ==
	    (mqd_t)-1)
		return 21;
	mq_unlink(name);
	if ((st = fire(q, n)) != 0)
		return st;

	t0 = cpu_us();
	r0 = rss_kib();
	for (i = 0; i < n; i++) {
		event(&ev, on_timer, vals + i);
		if (timer_create(CLOCK_MONOTONIC, &ev, &tm) != 0)
			return 22;
		if (timer_delete(tm) != 0)
			return 23;
		if (i % 4 != 0)
			continue;
		event(&ev, on_message, vals + i);
		if (mq_notify(q, &ev) != 0)
			return 24;
		if (mq_notify(q, NULL) != 0)
			return 25;
	}
	t1 = cpu_us();
	r1 = rss_kib();

	if ((st = fire(q, n + FIRE)) != 0)
		return st;
	mq_close(q);
	printf("%ld %ld\n", t1 - t0, r1 - r0);
	return bad;
}
