/* SPDX-License-Identifier: MIT */
/*
 * notify.c - SIGEV_THREAD notifications (timer_create, mq_notify): glibc
 * runs the program's function in a thread it starts itself, which
 * thread.c never sees, so the executable's thread-local counters there
 * would not be read.  The specs file links the program's calls here
 * with ld's --wrap; a notification then runs notified(), which makes
 * its thread known before it calls the program's function.  Function
 * and value travel in a record, one per distinct pair (kept in an arena:
 * a program that re-arms mq_notify with the same pair reuses its record).
 */
#include <errno.h>
#include <mqueue.h>
#include <signal.h>
#include <time.h>

#include "hooks.h"

typedef void notify_fn(union sigval);

struct note {
	notify_fn	*fn;
	void		*value;		/* sival_ptr holds sival_int too */
	int		 used;		/* 2: set (arena memory is zeroed) */
};

extern int __real_timer_create(clockid_t, struct sigevent *, timer_t *);
extern int __real_mq_notify(mqd_t, const struct sigevent *);

int	 __wrap_timer_create(clockid_t, struct sigevent *, timer_t *)
	    MON_HIDDEN;
int	 __wrap_mq_notify(mqd_t, const struct sigevent *) MON_HIDDEN;

static struct __mon_arena notes = MON_ARENA_INIT(notes, struct note);

static void
notified(union sigval v)
{
	struct note *n = v.sival_ptr;

	__mon_thread_known();
	n->fn((union sigval){ .sival_ptr = n->value });
}

/* The record of (fn, value), or NULL (no memory: left unseen). */
static struct note *
note_of(notify_fn *fn, void *value)
{
	struct __mon_chunk *c;
	struct note *n;
	size_t i;

	MON_FOREACH(&notes, c, i, n)
		if (MON_LOAD(&n->used) == 2 && n->fn == fn && n->value == value)
			return n;
	if ((n = __mon_arena_alloc(&notes)) == NULL)
		return NULL;
	n->fn = fn;
	n->value = value;
	MON_STORE(&n->used, 2);
	return n;
}

/* ev, or a copy of it whose notification goes through notified(). */
static const struct sigevent *
through(const struct sigevent *ev, struct sigevent *copy)
{
	struct note *n;
	int saved = errno;

	if (ev == NULL || ev->sigev_notify != SIGEV_THREAD ||
	    ev->sigev_notify_function == NULL ||
	    (n = note_of(ev->sigev_notify_function,
	    ev->sigev_value.sival_ptr)) == NULL) {
		errno = saved;
		return ev;
	}
	*copy = *ev;
	copy->sigev_notify_function = notified;
	copy->sigev_value.sival_ptr = n;
	errno = saved;
	return copy;
}

int
__wrap_timer_create(clockid_t clock, struct sigevent *ev, timer_t *id)
{
	struct sigevent copy;

	return __real_timer_create(clock, (struct sigevent *)through(ev,
	    &copy), id);
}

int
__wrap_mq_notify(mqd_t q, const struct sigevent *ev)
{
	struct sigevent copy;

	return __real_mq_notify(q, through(ev, &copy));
}
