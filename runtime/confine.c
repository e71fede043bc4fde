/* SPDX-License-Identifier: MIT */
/*
 * confine.c - a program that confines itself with seccomp keeps its
 * status, its output and its profile.  Every call of prctl() and
 * syscall() in the program comes here: a static link's by ld's --wrap
 * (libraries' archives too), a dynamic link's because the specs file
 * defines prctl and syscall as __mon_confine_prctl and
 * __mon_confine_syscall and exports them, so that shared libraries
 * (libseccomp.so's seccomp_load, a dlopen'ed plugin's sandbox) call
 * them too, as pthread_create is linked (thread.c).  A filter installed
 * with prctl(PR_SET_SECCOMP) or syscall(SYS_seccomp) (or SYS_prctl)
 * is then seen before it applies:
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
 * If the call fails, all of it but the writer is undone.  A call that
 * cannot install anything (no program, or strict mode with flags:
 * libseccomp's probes of what the kernel knows) goes straight on.  The
 * runtime's own syscall() calls come here too, in signal handlers and
 * before its constructor: every other call is one compare and the
 * system call.  Inline system calls and filters inherited from the
 * parent are not seen (README, Limitations).  syscall(SYS_arch_prctl)
 * is gsbase.c's to refuse first.
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
 * The entries.  Their prototypes are the ABI's: libc's prctl and syscall
 * are variadic, whose integer arguments come in the same registers.
 * Exported, as the specs file's --defsym gives prctl and syscall the
 * visibility of what they name; --wrap's names are the same functions.
 */
int	 __mon_confine_prctl(int, unsigned long, unsigned long, unsigned long,
	    unsigned long) MON_EXPORT;
long	 __mon_confine_syscall(long, long, long, long, long, long, long)
	    MON_EXPORT;

/*
 * The system call itself (__mon_sys).  Not libc's syscall() or prctl(): in a
 * dynamic link the executable's own prctl and syscall are these
 * functions (a call by name comes back here), and the next ones,
 * dlsym(RTLD_NEXT)'s, are neither async-signal-safe nor there before
 * the constructor, where the runtime calls syscall() already.  glibc's
 * two are plain wrappers of the instruction (no cancellation point, no
 * lock): the number and six arguments in the kernel's registers, and a
 * return of -4095 to -1 made -1 with errno (__mon_sys_done), as here.
 * So this is what the runtime called before, and as async-signal-safe: no lock,
 * no allocation, errno changed only by an error, nothing used but the
 * kernel's registers (no stack, no vector register).
 */

/* The call as the program made it, as syscall()'s arguments. */
static long
forward(const long *a)
{
	return __mon_sys_done(__mon_sys(a[0], a[1], a[2], a[3], a[4], a[5],
	    a[6]));
}

/*
 * Install the filter (mode SECCOMP_MODE_STRICT or SECCOMP_MODE_FILTER,
 * seccomp(2)'s flags, the struct sock_fprog) as call a asks, the runtime
 * ready for it first.
 */
static long
confine(const long *a, int mode, unsigned long flags, const void *prog)
{
	int saved = errno, itimer = 0, sigs = 0, ok;
	long rc;

	if (__mon_monitor_confine() != 0)
		return forward(a);	/* a vfork child's filter is its own */
	/* A timer standing in for perf through forks: perf first. */
	__mon_sampler_resume();
	__mon_sampler_alone(1);
	/* A fork child's stand-in timer: stopped while its calls may be. */
	__mon_sampler_yield();
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
	rc = forward(a);
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

/*
 * SYS_seccomp and SYS_prctl: the calls that can install a filter, the
 * others forwarded as they are.
 */
static long __attribute__((__noinline__))
install(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long a[7] = { nr, a1, a2, a3, a4, a5, a6 }, op = a1;

	/*
	 * The kernel refuses, before it installs anything, strict mode with
	 * flags or arguments (EINVAL) and a filter with no program (EFAULT).
	 */
	if (nr == SYS_seccomp && op == SECCOMP_SET_MODE_STRICT &&
	    a[2] == 0 && a[3] == 0)
		return confine(a, SECCOMP_MODE_STRICT, 0, NULL);
	if (nr == SYS_seccomp && op == SECCOMP_SET_MODE_FILTER && a[3] != 0)
		return confine(a, SECCOMP_MODE_FILTER, (unsigned long)a[2],
		    (const void *)a[3]);
	/* prctl: strict mode ignores its third argument. */
	if (nr == SYS_prctl && (int)op == PR_SET_SECCOMP &&
	    (a[2] == SECCOMP_MODE_STRICT ||
	    (a[2] == SECCOMP_MODE_FILTER && a[3] != 0)))
		return confine(a, (int)a[2], 0, (const void *)a[3]);
	return forward(a);
}

long
__mon_confine_syscall(long nr, long a1, long a2, long a3, long a4, long a5,
    long a6)
{
#ifdef SYS_arch_prctl
	/* A %gs base of the program's own (gsbase.c). */
	if (__builtin_expect(nr == SYS_arch_prctl, 0) &&
	    __mon_gsbase_refuse(a1))
		return -1;
#endif
	if (__builtin_expect(nr != SYS_seccomp && nr != SYS_prctl, 1))
		return __mon_sys_done(__mon_sys(nr, a1, a2, a3, a4, a5, a6));
	return install(nr, a1, a2, a3, a4, a5, a6);
}

/* glibc's prctl(): the same system call, its return an int. */
int
__mon_confine_prctl(int option, unsigned long a2, unsigned long a3,
    unsigned long a4, unsigned long a5)
{
	if (__builtin_expect(option != PR_SET_SECCOMP, 1))
		return (int)__mon_sys_done(__mon_sys(SYS_prctl, option,
		    (long)a2, (long)a3, (long)a4, (long)a5, 0));
	return (int)install(SYS_prctl, option, (long)a2, (long)a3, (long)a4,
	    (long)a5, 0);
}

/* A static link's: ld's --wrap names them. */
__typeof__(__mon_confine_prctl) __wrap_prctl
    __attribute__((__alias__("__mon_confine_prctl"))) MON_HIDDEN;
__typeof__(__mon_confine_syscall) __wrap_syscall
    __attribute__((__alias__("__mon_confine_syscall"))) MON_HIDDEN;
