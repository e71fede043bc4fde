/*
 * 176-notify-fns: 70 distinct SIGEV_THREAD notification functions n00
 * to n69, more than the runtime's 64 trampolines (runtime/notify.c):
 * each fires twice, once as a timer's notification (the 70 timers at
 * once) and once as a message queue's, with a value of its own, which
 * it checks.  Then the
 * errors: a bad clock and a bad queue give what they give without the
 * runtime.  Exit status 0, or the number of the check that failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <mqueue.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NFN	70

static sem_t done;
static int ran[NFN];
static volatile int bad;

#define N(a, b)								\
	static __attribute__((__noinline__, __noclone__)) void		\
	n##a##b(union sigval v)						\
	{								\
		if (v.sival_ptr != &ran[a * 10 + b])			\
			bad = 1;					\
		ran[a * 10 + b]++;					\
		sem_post(&done);					\
	}
#define N10(a)	N(a, 0) N(a, 1) N(a, 2) N(a, 3) N(a, 4) N(a, 5) N(a, 6) \
	N(a, 7) N(a, 8) N(a, 9)
N10(0) N10(1) N10(2) N10(3) N10(4) N10(5) N10(6)

#define P10(a)	n##a##0, n##a##1, n##a##2, n##a##3, n##a##4, n##a##5, \
	n##a##6, n##a##7, n##a##8, n##a##9,
static void (*const fn[NFN])(union sigval) = {
	P10(0) P10(1) P10(2) P10(3) P10(4) P10(5) P10(6)
};

int
main(void)
{
	struct sigevent ev;
	struct itimerspec its;
	struct mq_attr attr;
	char name[64], buf[64];
	timer_t tm[NFN];
	mqd_t q;
	int i;

	sem_init(&done, 0, 0);
	snprintf(name, sizeof(name), "/monprof-176-%d", (int)getpid());
	memset(&attr, 0, sizeof(attr));
	attr.mq_maxmsg = 1;
	attr.mq_msgsize = sizeof(buf);
	if ((q = mq_open(name, O_RDWR | O_CREAT | O_EXCL, 0600, &attr)) ==
	    (mqd_t)-1)
		return 10;
	mq_unlink(name);
	/* The timers all at once: their notifications overlap. */
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD;
	for (i = 0; i < NFN; i++) {
		ev.sigev_notify_function = fn[i];
		ev.sigev_value.sival_ptr = &ran[i];
		if (timer_create(CLOCK_MONOTONIC, &ev, &tm[i]) != 0)
			return 11;
	}
	memset(&its, 0, sizeof(its));
	its.it_value.tv_nsec = 100000;
	for (i = 0; i < NFN; i++)
		if (timer_settime(tm[i], 0, &its, NULL) != 0)
			return 12;
	for (i = 0; i < NFN; i++)
		sem_wait(&done);
	for (i = 0; i < NFN; i++)
		if (timer_delete(tm[i]) != 0 || ran[i] != 1)
			return 13;
	/* A queue takes one registration at a time. */
	for (i = 0; i < NFN; i++) {
		ev.sigev_notify_function = fn[i];
		ev.sigev_value.sival_ptr = &ran[i];
		if (mq_notify(q, &ev) != 0 || mq_send(q, "x", 1, 0) != 0)
			return 14;
		sem_wait(&done);
		if (mq_receive(q, buf, sizeof(buf), NULL) != 1 || ran[i] != 2)
			return 15;
	}
	mq_close(q);

	ev.sigev_notify_function = fn[0];
	errno = 0;
	if (timer_create(-1, &ev, &tm[0]) != -1 || errno != EINVAL)
		return 17;
	errno = 0;
	if (mq_notify((mqd_t)-1, &ev) != -1 || errno != EBADF)
		return 18;
	return bad;
}
