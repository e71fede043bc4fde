/* SPDX-License-Identifier: MIT */
/*
 * confine.c - a program that confines itself with seccomp keeps its
 * status, its output and its profile.  The specs file links executables
 * with ld's --wrap for prctl and syscall: a filter the program installs
 * with prctl(PR_SET_SECCOMP) or syscall(SYS_seccomp) (or SYS_prctl)
 * comes here, and before it applies:
 *
 * - the writer process of the last profile starts (final.c), which the
 *   filter will not filter: it is no thread of the program's, so
 *   neither SECCOMP_FILTER_FLAG_TSYNC nor a later filter reaches it;
 * - the perf sampler's helper thread ends for good: TSYNC would filter
 *   it, and a filter that kills a thread (SECCOMP_RET_KILL_THREAD, or
 *   strict mode) ends a single-threaded program only where the killed
 *   thread is the last one; the writer drains the rings instead;
 * - the filter is handed to seccomp.c, which then answers, for the
 *   calls the runtime still makes in the program's threads, whether the
 *   filters allow them; the writer is told whether it can be woken;
 * - where the filter would refuse the return from a signal handler, or
 *   the SIGPROF handler's stack walk (process_vm_readv), the CPU-time
 *   timer sampler stops; where it would refuse the
 *   fatal-signal handler's calls, every handler of signal.c's goes back
 *   to the default action, so a fatal signal (the filter's own SIGSYS
 *   among them) ends the program as without the runtime.
 *
 * If the call fails, all of it but the writer is undone.  The runtime's
 * own syscall() calls come here too (--wrap reaches them): a compare.
 * Calls from shared libraries (libseccomp.so's) and inline system
 * calls are not seen (README, Limitations).
 */
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <errno.h>
#include <linux/seccomp.h>
#include <unistd.h>

#include "control.h"

/* The hooks' code calls syscall(), hence this: see stub.c. */
#pragma GCC target("general-regs-only")

#ifndef SECCOMP_FILTER_FLAG_TSYNC
#define SECCOMP_FILTER_FLAG_TSYNC	(1UL << 0)
#endif
#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH	(1UL << 4)
#endif

/* How soon the writer looks for the go where nobody can wake it. */
#define NAP_ALONE_NS	10000000L
/* And where it can be woken: only to drain the sampler's rings. */
#define NAP_DRAIN_NS	50000000L

/*
 * libc's, by ld's --wrap (not weak: a weak reference would not take
 * them out of a static libc.a).  The wrappers' prototypes are the ABI's:
 * libc's are variadic, whose integer arguments come in the same
 * registers.
 */
extern int __real_prctl(int, ...);
extern long __real_syscall(long, ...);

int	 __wrap_prctl(int, unsigned long, unsigned long, unsigned long,
	    unsigned long) MON_HIDDEN;
long	 __wrap_syscall(long, long, long, long, long, long, long) MON_HIDDEN;

/* The call as the program made it: prctl()'s or syscall()'s arguments. */
struct req {
	int		 prctl;
	long		 a[7];
};

static long
forward(const struct req *r)
{
	if (r->prctl)
		return __real_prctl((int)r->a[0], r->a[1], r->a[2], r->a[3],
		    r->a[4]);
	return __real_syscall(r->a[0], r->a[1], r->a[2], r->a[3], r->a[4],
	    r->a[5], r->a[6]);
}

/*
 * Install the filter (mode SECCOMP_MODE_STRICT or SECCOMP_MODE_FILTER,
 * seccomp(2)'s flags, the struct sock_fprog) as r asks, the runtime
 * ready for it first.
 */
static long
confine(const struct req *r, int mode, unsigned long flags, const void *prog)
{
	int saved = errno, itimer = 0, sigs = 0, ok;
	long rc;

	if (__mon_monitor_confine() != 0)
		return forward(r);	/* a vfork child's filter is its own */
	__mon_sampler_alone(1);
	__mon_seccomp_push(mode, prog);
	__mon_final_nap(__mon_seccomp_may(MON_SECCOMP_FUTEX) ? NAP_DRAIN_NS :
	    NAP_ALONE_NS, 1);
	if (!__mon_seccomp_may(MON_SECCOMP_SIGPROF) &&
	    __mon_sampler_which() == MON_SAMPLER_ITIMER) {
		__mon_sampler_stop();
		itimer = 1;
	}
	if (!__mon_seccomp_may(MON_SECCOMP_DIE | MON_SECCOMP_SIGRETURN)) {
		__mon_signal_withdraw();
		sigs = 1;
	}
	errno = saved;
	rc = forward(r);
	/*
	 * Installed: 0, or a listener's descriptor (NEW_LISTENER); TSYNC
	 * without TSYNC_ESRCH names the thread it could not sync instead.
	 */
	ok = rc == 0 || (rc > 0 && (flags & SECCOMP_FILTER_FLAG_NEW_LISTENER) &&
	    (!(flags & SECCOMP_FILTER_FLAG_TSYNC) ||
	    (flags & SECCOMP_FILTER_FLAG_TSYNC_ESRCH)));
	if (!ok) {
		saved = errno;
		__mon_seccomp_pop();
		__mon_final_nap(__mon_seccomp_may(MON_SECCOMP_FUTEX) ?
		    NAP_DRAIN_NS : NAP_ALONE_NS, 1);
		if (sigs)
			__mon_signal_restore();
		if (itimer)
			__mon_sampler_start();
		__mon_sampler_alone(0);
		errno = saved;
	}
	return rc;
}

int
__wrap_prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4,
    unsigned long a5)
{
	struct req r = { 1, { option, (long)a2, (long)a3, (long)a4, (long)a5 } };

	if (option == PR_SET_SECCOMP && (a2 == SECCOMP_MODE_STRICT ||
	    a2 == SECCOMP_MODE_FILTER))
		return (int)confine(&r, (int)a2, 0, (const void *)a3);
	return (int)forward(&r);
}

long
__wrap_syscall(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	struct req r;

	if (__builtin_expect(nr != SYS_seccomp && nr != SYS_prctl, 1))
		return __real_syscall(nr, a1, a2, a3, a4, a5, a6);
	r.prctl = 0;
	r.a[0] = nr;
	r.a[1] = a1;
	r.a[2] = a2;
	r.a[3] = a3;
	r.a[4] = a4;
	r.a[5] = a5;
	r.a[6] = a6;
	if (nr == SYS_seccomp && (a1 == SECCOMP_SET_MODE_STRICT ||
	    a1 == SECCOMP_SET_MODE_FILTER))
		return confine(&r, a1 == SECCOMP_SET_MODE_STRICT ?
		    SECCOMP_MODE_STRICT : SECCOMP_MODE_FILTER,
		    (unsigned long)a2, (const void *)a3);
	if (nr == SYS_prctl && a1 == PR_SET_SECCOMP &&
	    (a2 == SECCOMP_MODE_STRICT || a2 == SECCOMP_MODE_FILTER))
		return confine(&r, (int)a2, 0, (const void *)a3);
	return forward(&r);
}
