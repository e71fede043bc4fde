/* SPDX-License-Identifier: MIT */
/*
 * notify.c - SIGEV_THREAD notifications (timer_create, mq_notify): glibc
 * runs the program's function in a thread it starts itself, which
 * thread.c never sees, so the executable's thread-local counters there
 * would not be read.  The specs file links the program's calls here
 * with ld's --wrap; the notification then runs a trampoline of ours,
 * which makes its thread known before it calls the program's function.
 *
 * The trampoline must find the program's function, and the value goes
 * through untouched.  So there is one trampoline per function, not a
 * record per call: NOTIFY_FNS trampolines, each bound for good to the
 * first function that takes it (a small open-addressing table keyed by
 * the function's address), and the sigevent keeps the program's own
 * value.  A call costs a probe or two of that table; the runtime keeps
 * nothing per timer or registration, so there is nothing to free, and
 * all it keeps is that fixed table.  A trampoline is bound to an
 * address: an object unloaded and another loaded there reuse it
 * rightly, as it calls whatever the program names by that address.
 *
 * A record per call (function and value, passed as the value) would
 * have to be freed, and nothing tells when a notification is done with
 * it.  glibc 2.36's timer_delete unlinks the timer under a lock, but a
 * notification its helper thread has already started (the function and
 * value copied into the new thread's start data) may run any time
 * later; and mq_notify's function and value live in the cookie the
 * kernel holds, which mq_notify(q, NULL), mq_close, close or an exec
 * drop without the program, or us, hearing of it.  Reference counts
 * would not cover the window between glibc's copy and the trampoline's
 * first instruction, and a record reused in that window would call the
 * wrong function with the wrong value.  The trampolines have no such
 * window: what a trampoline calls never changes once it is set.
 *
 * A program with more distinct notification functions than trampolines
 * (none known) gets the others' notifications as they are, unseen, and
 * one line on stderr, rather than memory that grows with its calls.
 * Everything here is a load or a CAS: no lock, no allocation, and errno
 * is untouched.
 */
#include <mqueue.h>
#include <signal.h>
#include <time.h>

#include "hooks.h"

typedef void notify_fn(union sigval);

#define NOTIFY_BITS	6
#define NOTIFY_FNS	(1 << NOTIFY_BITS)

extern int __real_timer_create(clockid_t, struct sigevent *, timer_t *);
extern int __real_mq_notify(mqd_t, const struct sigevent *);

int	 __wrap_timer_create(clockid_t, struct sigevent *, timer_t *)
	    MON_HIDDEN;
int	 __wrap_mq_notify(mqd_t, const struct sigevent *) MON_HIDDEN;

/* The function trampoline k calls: NULL while free, then never changed. */
static notify_fn *bound[NOTIFY_FNS];
static int warned;

static inline void
notified(int k, union sigval v)
{
	__mon_thread_known();
	MON_LOAD(&bound[k])(v);
}

/* Trampoline a * 8 + b, and the table of all 64. */
#define T(a, b)								\
	static void							\
	notified_##a##b(union sigval v)					\
	{								\
		notified((a) * 8 + (b), v);				\
	}
#define T8(a)	T(a, 0) T(a, 1) T(a, 2) T(a, 3) T(a, 4) T(a, 5) T(a, 6) T(a, 7)
T8(0) T8(1) T8(2) T8(3) T8(4) T8(5) T8(6) T8(7)

#define P8(a)								\
	notified_##a##0, notified_##a##1, notified_##a##2, notified_##a##3, \
	notified_##a##4, notified_##a##5, notified_##a##6, notified_##a##7,
static notify_fn *const trampoline[NOTIFY_FNS] = {
	P8(0) P8(1) P8(2) P8(3) P8(4) P8(5) P8(6) P8(7)
};
_Static_assert(NOTIFY_FNS == 64, "T8 and P8 make 64 trampolines, no more");

/* The trampoline bound to fn (binding a free one), or NULL: none free. */
static notify_fn *
trampoline_of(notify_fn *fn)
{
	uintptr_t h = ((uintptr_t)fn * 0x9e3779b97f4a7c15ULL) >>
	    (sizeof(uintptr_t) * CHAR_BIT - NOTIFY_BITS);
	notify_fn *f;
	int i, k, no = 0;

	for (i = 0; i < NOTIFY_FNS; i++) {
		k = (h + i) % NOTIFY_FNS;
		f = MON_LOAD(&bound[k]);
		/* A failed CAS leaves f the function that won the slot. */
		if (f == NULL && MON_CAS(&bound[k], &f, fn))
			return trampoline[k];
		if (f == fn)
			return trampoline[k];
	}
	if (MON_LOAD(&warned) == 0 && MON_CAS(&warned, &no, 1))
		MON_ERR("monprof: more than 64 SIGEV_THREAD notification "
		    "functions: the others' threads are not known\n");
	return NULL;
}

/* ev, or a copy of it whose notification goes through a trampoline. */
static const struct sigevent *
through(const struct sigevent *ev, struct sigevent *copy)
{
	notify_fn *t;

	if (ev == NULL || ev->sigev_notify != SIGEV_THREAD ||
	    ev->sigev_notify_function == NULL ||
	    (t = trampoline_of(ev->sigev_notify_function)) == NULL)
		return ev;
	*copy = *ev;
	copy->sigev_notify_function = t;
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
