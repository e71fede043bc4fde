/* SPDX-License-Identifier: MIT */
/*
 * init.c - automatic start and finish: a constructor that reads the
 * environment, finds the main executable and starts profiling like
 * cc -p's default monitor() call, an exit handler run before the
 * destructors, a late destructor that writes the profile, and the fork
 * handler that gives a child its own profile.
 *
 * mcount.c names __mon_init, so linking any instrumented object with
 * libmonprof.a pulls this file, hence the whole runtime, in.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "control.h"

/*
 * pthread_atfork() is glibc's __register_atfork() with the caller's
 * __dso_handle, which only the start files define: a program linked
 * with -nostartfiles could not link.  The runtime passes its own, or
 * NULL without start files (its handler is then never unregistered,
 * which it never is anyway: the runtime is not unloaded).
 */
extern int __register_atfork(void (*)(void), void (*)(void), void (*)(void),
    void *);
extern void *__dso_handle __attribute__((__weak__, __visibility__("hidden")));

/* The parent of fork: its sampler may go on the timer (sampler.c). */
static void
atfork_parent(void)
{
	__mon_sframe_fork_parent();
	__mon_sampler_forked();
}

/*
 * The child of fork profiles itself from zero, with its own sampler:
 * every module's fork reset is called from here, and only here (the
 * guards first: a stop in progress was another thread's).
 */
static void
atfork_child(void)
{
	int confined = __mon_seccomp_kills();

	__mon_self_record();
	__mon_self_renew();
	/* A fork child has one thread: glibc's word for it (single.c). */
	__mon_single_again();
	__mon_outfile_reset();
	__mon_dump_reset();
	__mon_final_reset();
	__mon_monitor_reset();
	if (!__mon_monitor_running())
		return;
	__mon_area_reset();
	__mon_cells_reset();
	__mon_arcs_reset();
	/* The samples go to zero at their first use (hist.c). */
	/* A seccomp filter of the parent's, now the child's, could kill
	 * the calls of a new sampler (perf_event_open, clone). */
	if (confined)
		__mon_sampler_drop();
	else
		__mon_sampler_reset();
	/* The parent's writer is not the child's (forced.c). */
	__mon_forced_check();
}

/*
 * Threads that call exit() together share the exit handlers, and the
 * one that finds none left ends the process at once, the others with
 * it.  These, run after exiting() (registered before it), catch the
 * other threads: each waits until exiting() has started the writer
 * process (until 5 seconds after the first hold began, all holds
 * together: a loaded VM's CPU can leave the thread running exiting()
 * off for over a second, the likeliest way e2e 122 lost 1 profile in
 * 100 under CI's load with a second per hold), then has it write the
 * profile now, and
 * waits for it, so that the process cannot end before it is written
 * (its destructors then go uncounted).  The thread that ran exiting()
 * passes them, and writes after the destructors.
 */
#define HOLDS	16

static unsigned exited;	/* exiting() has run */
static int exiter;	/* in this thread */
static long hold_until;	/* CLOCK_MONOTONIC ns the holds wait until */

static long
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void
hold(int status, void *arg)
{
	int saved = errno;
	long until = 0;

	(void)status;
	(void)arg;
	/* The first hold sets the time they all wait until. */
	if (!MON_LOAD(&exited))
		(void)MON_CAS(&hold_until, &until, mono_ns() + 5000000000L);
	until = MON_LOAD(&hold_until);
	while (!MON_LOAD(&exited) && mono_ns() < until)
		if (__mon_seccomp_may(MON_SECCOMP_FUTEX))
			syscall(SYS_futex, &exited, FUTEX_WAIT_PRIVATE, 0,
			    &(const struct timespec){ 0, 1000000L }, NULL, 0);
		else
			MON_RELAX();
	if (MON_LOAD(&exiter) != __mon_self_tid())
		__mon_final_finish();
	errno = saved;
}

/*
 * The profile's last write: at the end (the destructor below), or by a
 * thread that exit() held, in the place of the one in exit() if that
 * one waits for it (exit.c), which never overtakes a thread writing.
 */
static void
finish(void)
{
	__mon_exit_busy(1);
	__mon_monitor_stop(MON_STOP_FINAL);
	__mon_exit_busy(0);
}

/*
 * Run by exit() before the destructors (registered at start, so after
 * the program's own exit handlers): the writer process of the last
 * profile starts here.  A child sharing the parent's memory (vfork,
 * clone(CLONE_VM)) that calls exit() would go on to run the rest of the
 * parent's exit handlers, the destructors and the runtime's write among
 * them, and the parent, at its own exit, would find none left: the child
 * ends here with _exit(status).  on_exit() passes the status.
 */
static void
exiting(int status, void *arg)
{
	int shared;

	(void)arg;
	__mon_exit_reached(finish);
	MON_STORE(&exiter, __mon_self_tid());
	if (!(shared = __mon_monitor_exiting() != 0) &&
	    __mon_seccomp_may(MON_SECCOMP_DIE))
		__mon_signal_check();
	MON_STORE(&exited, 1);
	if (__mon_seccomp_may(MON_SECCOMP_FUTEX))
		syscall(SYS_futex, &exited, FUTEX_WAKE_PRIVATE, INT_MAX, NULL,
		    NULL, 0);
	if (shared)
		_exit(status);
}

void __attribute__((__constructor__(101)))
__mon_init(void)
{
	const struct __mon_env *e;
	static int done;
	int i;

	if (done++)
		return;
	__mon_exit_started();
	__mon_self_record();
	__mon_env_load();
	__mon_exe_find();
	__register_atfork(__mon_sframe_fork_prepare,
	    atfork_parent, atfork_child, &__dso_handle);
	e = __mon_env_get();
	if (e->disabled) {
		__mon_mcount_disable(1);
		/* The span's counters are the main thread's (thread.c). */
		(void)__mon_pcells_thread();
		return;
	}
	/* The main thread's counters (its start was not seen). */
	if (__mon_pcells_thread() == 0)
		__mon_cells_thread();
	__mon_signal_setup();
	for (i = 0; i < HOLDS; i++)
		on_exit(hold, NULL);
	/* Without it, nothing to hold threads for. */
	if (on_exit(exiting, NULL) != 0)
		MON_STORE(&exited, 1);
	/*
	 * A setuid or setgid program is profiled only if its own code asks,
	 * calling monitor() or monstartup(): the user who runs it cannot,
	 * and must not get files written with its privileges (outfile.c
	 * makes them its effective user's alone).
	 */
	if (e->disable_default || e->secure)
		return;
	if (__monstartup(NULL, NULL) != 0) {
		MON_ERR("monprof: cannot find the program's text: "
		    "not profiling\n");
		return;
	}
	/* A fault blocked or ignored since before exec (forced.c). */
	__mon_forced_check();
}

static void __attribute__((__destructor__(101)))
fini(void)
{
	finish();
}
