/* SPDX-License-Identifier: MIT */
/*
 * thread.c - every thread pthread_create() starts is known to the
 * runtime before it runs the program's code, so that its thread-local
 * counters (pcells.c) are read and kept when it ends.  There is no test
 * on the hot path left to find it by.
 *
 * The specs file links a static executable with ld's --wrap for
 * pthread_create (every object of the link, libraries' archives too,
 * calls __wrap_pthread_create), and a dynamic one with pthread_create
 * defined as __mon_thread_create and exported, so that shared libraries
 * (libstdc++'s std::thread, libgomp) call it too; it calls libc's,
 * found with dlsym(RTLD_NEXT).  C11's thrd_create is linked the same
 * way and starts its thread here too; SIGEV_THREAD notifications are
 * notify.c's.  Other threads glibc starts itself (aio's, getaddrinfo_a's)
 * and raw clone() are not seen.
 *
 * The new thread starts in trampoline(), which takes its start routine and
 * argument from a small record (no malloc: records are reused, kept in
 * an arena) and registers itself.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <threads.h>

#include "hooks.h"

typedef int create_fn(pthread_t *, const pthread_attr_t *,
    void *(*)(void *), void *);

extern create_fn __real_pthread_create __attribute__((__weak__));
extern void *dlsym(void *, const char *) __attribute__((__weak__));

int	 __wrap_pthread_create(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *) MON_HIDDEN;
int	 __wrap_thrd_create(thrd_t *, thrd_start_t, void *) MON_HIDDEN;

struct start {
	void		*(*fn)(void *);
	int		 (*c11)(void *);	/* thrd_create's, or NULL */
	void		*arg;
	int		 busy;
};

static struct __mon_arena starts = MON_ARENA_INIT(starts, struct start);
static create_fn *real;
static void (*before)(void);	/* to call before the next thread, once */

/*
 * Call fn before the program's next thread is created, in the creating
 * thread (a fork child's perf sampler, sampler.c: the new thread then
 * inherits its events); NULL: nothing to call.
 */
void
__mon_thread_before(void (*fn)(void))
{
	MON_STORE(&before, fn);
}

/* libc's pthread_create: --wrap's __real_ (static), else the next one. */
static create_fn *
real_create(void)
{
	create_fn *f = MON_LOAD(&real);

	if (f != NULL)
		return f;
	if (__real_pthread_create != NULL)
		f = __real_pthread_create;
	else if (dlsym != NULL)
		f = (create_fn *)dlsym(RTLD_NEXT, "pthread_create");
	if (f != NULL)
		MON_STORE(&real, f);
	return f;
}

/* A free record, or a new one; NULL when mmap fails. */
static struct start *
take(void)
{
	struct __mon_chunk *c;
	struct start *s;
	size_t i;
	int idle;

	MON_FOREACH(&starts, c, i, s) {
		idle = 0;
		if (MON_LOAD(&s->busy) == 0 && MON_CAS(&s->busy, &idle, 1))
			return s;
	}
	if ((s = __mon_arena_alloc(&starts)) != NULL)
		MON_STORE(&s->busy, 1);
	return s;
}

/*
 * This thread is known from now on (a thread glibc started, whose first
 * code of the program's calls it, counts from its start all the same:
 * its counters began at zero).
 */
void
__mon_thread_known(void)
{
	int saved = errno;

	/*
	 * Off, a thread still takes a window: in its creator's, threads
	 * would increment the same counters (4 threads: 2x plain's wall),
	 * and -pg's caches would be another thread's.
	 */
	if (__mon_pcells_thread() == 0 && !__mon_mcount_disabled())
		__mon_cells_thread();
	errno = saved;
}

static void *
trampoline(void *arg)
{
	struct start *s = arg;
	void *(*fn)(void *) = s->fn;
	int (*c11)(void *) = s->c11;

	arg = s->arg;
	MON_STORE(&s->busy, 0);
	__mon_thread_known();
	/* As glibc runs a C11 thread: its int, as thrd_join reads it. */
	if (c11 != NULL)
		return (void *)(uintptr_t)c11(arg);
	return fn(arg);
}

static int
create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *),
    int (*c11)(void *), void *arg)
{
	create_fn *f = real_create();
	void (*first)(void);
	struct start *s;
	int r;

	/* Taken once: an exchange only where one is set. */
	if (MON_LOAD(&before) != NULL && (first = __atomic_exchange_n(&before,
	    NULL, __ATOMIC_ACQ_REL)) != NULL)
		first();
	if (f == NULL)
		return EAGAIN;
	__mon_single_program();
	if ((s = take()) == NULL)	/* not known: uncounted */
		return c11 == NULL ? f(t, attr, fn, arg) : EAGAIN;
	s->fn = fn;
	s->c11 = c11;
	s->arg = arg;
	if ((r = f(t, attr, trampoline, s)) != 0)
		MON_STORE(&s->busy, 0);
	return r;
}

int
__mon_thread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	return create(t, attr, fn, NULL, arg);
}

/* thrd_create, with glibc's mapping of the error. */
int
__mon_thread_c11(thrd_t *t, thrd_start_t fn, void *arg)
{
	switch (create((pthread_t *)t, NULL, NULL, fn, arg)) {
	case 0:
		return thrd_success;
	case ENOMEM:
		return thrd_nomem;
	default:
		return thrd_error;
	}
}

/* The runtime's own threads (perf.c's helper): libc's, not known. */
int
__mon_thread_plain(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	create_fn *f = real_create();

	if (f == NULL)
		return EAGAIN;
	__mon_single_runtime();
	return f(t, attr, fn, arg);
}

int
__wrap_pthread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	return __mon_thread_create(t, attr, fn, arg);
}

int
__wrap_thrd_create(thrd_t *t, thrd_start_t fn, void *arg)
{
	return __mon_thread_c11(t, fn, arg);
}
