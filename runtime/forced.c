/* SPDX-License-Identifier: MIT */
/*
 * forced.c - a fault that the program blocked or ignored still leaves
 * its profile.  The kernel delivers a fault of the program's own
 * instructions (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS) that
 * is blocked or ignored all the same: it puts the default action back
 * and the process dies, no handler run, so signal.c's fatal handler
 * never writes the profile.  So once the program blocks one
 * (sigprocmask, pthread_sigmask: the specs file wraps the executable's
 * calls) or ignores one (sigaction, signal: signal.c's wrappers tell
 * this file), or starts so (exec keeps the mask and ignored signals, a
 * fork child has its parent's), the writer process of the last profile
 * starts (final.c), as for a seccomp filter: it outlives the process
 * and writes the profile if the process ends before it is told to.
 * Calls made inside libc or shared libraries are not seen (README,
 * Limitations); PROFFLAGS -nofatal asks for no profile at a fatal
 * signal, and then none starts.  Async-signal-safe: the wrappers may
 * run in a signal handler.
 */
#include <errno.h>
#include <signal.h>

#include "control.h"

extern int __real_sigprocmask(int, const sigset_t *, sigset_t *)
    __attribute__((__weak__));
extern int __real_pthread_sigmask(int, const sigset_t *, sigset_t *)
    __attribute__((__weak__));

int	 __wrap_sigprocmask(int, const sigset_t *, sigset_t *) MON_HIDDEN;
int	 __wrap_pthread_sigmask(int, const sigset_t *, sigset_t *) MON_HIDDEN;

/* The writer starts, unless the program asked for no fatal write. */
static void
arm(void)
{
	int saved = errno;

	if (!__mon_env_get()->nofatal)
		__mon_monitor_forced();
	errno = saved;
}

/* Whether set (a mask being blocked or set) holds a fault. */
static int
blocks_fault(int how, const sigset_t *set)
{
	size_t i;

	if (set == NULL || (how != SIG_BLOCK && how != SIG_SETMASK))
		return 0;
	for (i = 0; i < MON_NFAULTS; i++)
		if (__mon_sigmask_has(set, __mon_sigmask_faults[i]))
			return 1;
	return 0;
}

/*
 * The program's mask call returned r: a fault blocked arms the writer;
 * SIGPROF unblocked may let a storm of forks go on the timer
 * (sampler.c).
 */
static int
masked(int r, int how, const sigset_t *set)
{
	if (r == 0 && blocks_fault(how, set))
		arm();
	if (r == 0 && set != NULL &&
	    (how == SIG_SETMASK || how == SIG_UNBLOCK) &&
	    __mon_sigmask_has(set, SIGPROF) == (how == SIG_UNBLOCK))
		__mon_sampler_unblocked();
	return r;
}

/* Before the program's mask call: SIGPROF blocked (sampler.c). */
static void
masking(int how, const sigset_t *set)
{
	if (set != NULL && (how == SIG_BLOCK || how == SIG_SETMASK) &&
	    __mon_sigmask_has(set, SIGPROF))
		__mon_sampler_blocking();
}

int
__wrap_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	masking(how, set);
	return masked(__real_sigprocmask(how, set, old), how, set);
}

int
__wrap_pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	masking(how, set);
	return masked(__real_pthread_sigmask(how, set, old), how, set);
}

/* signal.c: the program set sig's disposition to handler. */
void
__mon_forced_disposed(int sig, void (*handler)(int))
{
	size_t i;

	if (handler != SIG_IGN)
		return;
	for (i = 0; i < MON_NFAULTS; i++)
		if (sig == __mon_sigmask_faults[i]) {
			arm();
			return;
		}
}

/*
 * At start and in a fork child: a mask or an ignored fault that the
 * process has from before (its parent's, or kept by exec).
 */
void
__mon_forced_check(void)
{
	struct sigaction sa;
	sigset_t cur;
	size_t i;
	int saved = errno, any;

	any = __mon_sigmask_set(SIG_BLOCK, NULL, &cur) == 0 &&
	    blocks_fault(SIG_SETMASK, &cur);
	for (i = 0; i < MON_NFAULTS && !any; i++)
		any = sigaction(__mon_sigmask_faults[i], NULL, &sa) == 0 &&
		    !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_IGN;
	errno = saved;
	if (any)
		arm();
}
