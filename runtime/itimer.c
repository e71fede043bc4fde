/* SPDX-License-Identifier: MIT */
/*
 * itimer.c - the fallback sampler: a process CPU-time timer and a SIGPROF
 * handler that ticks the histogram and keeps the interrupted thread's
 * call stack (unwind.c, reading the live stack), used when perf_event_open is not
 * allowed (or PROFFLAGS -itimer).  The kernel checks the timer only at
 * its tick, so the rate is measured, over the CPU time sampled while on.
 *
 * The timer is a POSIX one (timer_create), not setitimer(ITIMER_PROF):
 * an execve deletes it, where an interval timer would go on into the new
 * program, whose SIGPROF is back at its default action and kills it (a
 * fork child, whose timer the fork handler armed, running exec).  And
 * the program's own ITIMER_PROF stays its own.
 */
#include <sys/syscall.h>
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "sampler.h"

#define USER_HZ		100	/* what an unmeasured itimer is assumed to give */

static struct sigaction old_prof;
static int timer;		/* the kernel's id */
static int have_timer;		/* timer is this process's */
static int told;		/* SIGPROF conflict reported */
static long cpu_ns;		/* CPU time sampled while on */
static long cpu_since;		/* process CPU clock when last on */
static int stacks;		/* walk the stack at each sample */
static __mon_itimer_tick tick;	/* told of each sample, or NULL */
static long maxw = 1;		/* periods an expiry counts, at most */

/*
 * This thread is in the handler.  SIGPROF stays unblocked there
 * (SA_NODEFER): the kernel gives a process timer's signal to the thread
 * whose tick expired it, but to another thread where that one blocks
 * it, and a thread asleep in nanosleep() or read() would wake with
 * EINTR (e2e 110).  A signal that comes while the handler runs is the
 * handler's own time, and is not counted.
 */
static __thread volatile sig_atomic_t busy
    __attribute__((__tls_model__("initial-exec")));

static void
prof_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t pc[MON_STACK_DEPTH], sp = 0, fp = 0;
	struct __mon_unwind_window win;
	int saved = errno;
	long w = 1, i;
	size_t n;

	(void)sig;
	if (busy)
		return;
	busy = 1;
	/*
	 * Told (a fork child before its perf sampler), each expiry counts
	 * the periods the kernel's tick let pass too (its overruns: 3 of
	 * 4 at 1000 Hz on a 250 Hz kernel), in perf's units.
	 */
	if (tick != NULL && si != NULL && si->si_code == SI_TIMER &&
	    si->si_overrun > 0)
		w += si->si_overrun < maxw ? si->si_overrun : maxw - 1;
#if defined(__x86_64__)
	pc[0] = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
	fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
#elif defined(__i386__)
	pc[0] = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
	sp = (uintptr_t)uc->uc_mcontext.gregs[REG_ESP];
	fp = (uintptr_t)uc->uc_mcontext.gregs[REG_EBP];
#elif defined(__aarch64__)
	pc[0] = (uintptr_t)uc->uc_mcontext.pc;
	sp = (uintptr_t)uc->uc_mcontext.sp;
	fp = (uintptr_t)uc->uc_mcontext.regs[29];
#else
	pc[0] = 0;
	(void)uc;
#endif
	win.base = 0;
	win.have = 0;
	n = stacks && sp != 0 ?
	    __mon_unwind_stack(pc, MON_STACK_DEPTH, sp, fp, __mon_unwind_live, &win) : 1;
	for (i = 0; i < w; i++)
		__mon_hist_stack(pc, n, 0);
	if (tick != NULL && sp != 0)
		tick(w, pc[0], sp, fp, __mon_unwind_live, &win);
	busy = 0;
	errno = saved;
}

/*
 * The timer's calls are made by their instruction (__mon_sys), with the
 * kernel's id: a fork child arms it in its fork handler, where glibc's
 * timer_create, never called by the parent, would first be bound
 * (lazily: a dozen page faults, as much as the rest of the handler).
 * glibc's own timer_t for a signal timer is the same id.
 */
static int
arm(long rate)
{
	struct itimerspec it;
	struct sigevent ev;

	if (!have_timer) {
		memset(&ev, 0, sizeof(ev));
		ev.sigev_notify = SIGEV_SIGNAL;
		ev.sigev_signo = SIGPROF;
		if (__mon_sys_done(__mon_sys(SYS_timer_create,
		    CLOCK_PROCESS_CPUTIME_ID, (long)&ev, (long)&timer, 0, 0,
		    0)) != 0)
			return -1;
		have_timer = 1;
	}
	/*
	 * A tick of the slowest kernel (100 Hz) lets rate / 100 periods
	 * pass; more are periods SIGPROF was blocked for, whose samples
	 * would all go to the pc that unblocked it.
	 */
	maxw = rate / 100 > 1 ? rate / 100 : 1;
	memset(&it, 0, sizeof(it));
	/* A second at -rate 1: tv_nsec must stay below it (EINVAL). */
	it.it_interval.tv_sec = 1000000000L / rate / 1000000000L;
	it.it_interval.tv_nsec = 1000000000L / rate % 1000000000L;
	it.it_value = it.it_interval;
	return (int)__mon_sys_done(__mon_sys(SYS_timer_settime, timer, 0,
	    (long)&it, 0, 0, 0));
}

/* The process CPU clock in ns, or 0 (sampler.c too). */
long
__mon_itimer_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * Who is told of each sample after it is counted (sampler.c, in a fork
 * child that is to start the perf sampler), in the handler, with the
 * interrupted registers and the reader of its stack; NULL: nobody.
 */
void
__mon_itimer_hook(__mon_itimer_tick fn)
{
	tick = fn;
}

/* Take SIGPROF and arm the timer at rate Hz: 0, or -1 (nothing changed). */
int
__mon_itimer_start(long rate, int with_stacks)
{
	struct sigaction sa;

	stacks = with_stacks;
	/* The objects loaded now (not again in a fork child). */
	if (stacks && !__mon_sframe_known())
		__mon_sframe_scan();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prof_handler;
	sa.sa_flags = SA_RESTART | SA_SIGINFO | SA_NODEFER;
	sigfillset(&sa.sa_mask);
	sigdelset(&sa.sa_mask, SIGPROF);
	if (sigaction(SIGPROF, &sa, &old_prof) != 0)
		return -1;
	if (old_prof.sa_handler != SIG_DFL && old_prof.sa_handler != SIG_IGN &&
	    !told) {
		told = 1;
		MON_ERR("monprof: the program's SIGPROF handler is replaced "
		    "while profiling\n");
	}
	if (arm(rate) != 0) {
		sigaction(SIGPROF, &old_prof, NULL);
		return -1;
	}
	cpu_ns = 0;
	cpu_since = __mon_itimer_cpu_ns();
	return 0;
}

/* Tell once if the program took SIGPROF from us. */
void
__mon_itimer_check(void)
{
	struct sigaction cur;

	if (sigaction(SIGPROF, NULL, &cur) == 0 &&
	    cur.sa_sigaction != prof_handler && !told) {
		told = 1;
		MON_ERR("monprof: the program installed its own SIGPROF "
		    "handler: no samples after that\n");
	}
}

/*
 * Take the timer's signal that is pending: stopped where the program
 * blocks SIGPROF (sampler.c's fork child, when its perf sampler starts
 * or the timer yields), a signal sent before the timer was deleted
 * would reach the program's action, which may be to end.  Another
 * sender's SIGPROF that is pending is sent again, to reach it; one
 * that came while the handler ran went to the handler, which returns
 * at once there (busy), and is not seen.
 */
static void
drop_pending(void)
{
	static const struct timespec zero = { 0, 0 };
	sigset_t prof;
	siginfo_t si;

	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	while (sigtimedwait(&prof, &si, &zero) == SIGPROF)
		if (si.si_code != SI_TIMER) {
			raise(SIGPROF);
			break;
		}
}

static void
stop(int pending)
{
	int saved = errno;

	__mon_itimer_check();
	if (__mon_mode_on())
		cpu_ns += __mon_itimer_cpu_ns() - cpu_since;
	if (have_timer)
		(void)__mon_sys(SYS_timer_delete, timer, 0, 0, 0, 0, 0);
	have_timer = 0;
	if (pending)
		drop_pending();
	sigaction(SIGPROF, &old_prof, NULL);
	errno = saved;
}

/* Delete the timer, and give the program back its handler. */
void
__mon_itimer_stop(void)
{
	stop(0);
}

/*
 * The same, where the timer's handler may be running or SIGPROF be
 * blocked: where no seccomp filter may kill a call (sigtimedwait).
 */
void
__mon_itimer_handover(void)
{
	stop(1);
}

/* moncontrol: keep the account of CPU time sampled while on. */
void
__mon_itimer_control(int on)
{
	if (on)
		cpu_since = __mon_itimer_cpu_ns();
	else
		cpu_ns += __mon_itimer_cpu_ns() - cpu_since;
}

/*
 * The measured rate: samples per CPU-second of the process while on
 * (running: the timer is still armed), at most the rate asked; too
 * little CPU time to measure gives USER_HZ (or the rate asked, if lower).
 */
long
__mon_itimer_rate(long asked, int running)
{
	struct __mon_hist_counts c;
	long ns = cpu_ns, r;

	if (running && __mon_mode_on())
		ns += __mon_itimer_cpu_ns() - cpu_since;
	__mon_hist_counts(&c);
	if (ns >= 100000000L && c.samples > 0) {
		r = (long)(((double)c.samples * 1e9) / ns + 0.5);
		return r < asked ? r : asked;
	}
	return asked < USER_HZ ? asked : USER_HZ;
}

/*
 * fork child: timers are not inherited (the handler is); arm anew.  0,
 * or -1 where no timer could be made.
 */
int
__mon_itimer_reset(long rate)
{
	int rc;

	have_timer = 0;
	rc = arm(rate);
	cpu_ns = 0;
	cpu_since = __mon_itimer_cpu_ns();
	return rc;
}
