/* SPDX-License-Identifier: MIT */
/*
 * sampler.c - which sampler fills the histogram: perf_event (perf.c,
 * in task or cpu scope) when the kernel allows it, else a CPU-time
 * timer (itimer.c); started at
 * PROFFLAGS -rate (default 1000 Hz), switched by moncontrol, drained
 * before a write, and started anew in a fork child.
 *
 * A fork child of a perf-sampled process starts its perf sampler late:
 * its events, rings and helper thread made a fork cost 3.6 times plain
 * (fork, _exit and wait), and most children exec or exit at once.  It
 * samples by the CPU timer instead (two system calls) until it has run
 * MON_SAMPLER_LATE periods, then starts perf at the first tick whose
 * thread is at a safe point (safepoint.c), or at its first
 * pthread_create, whichever comes first: threads it creates are sampled
 * as its parent's.  A child whose stack is never seen whole (no rows,
 * or forked off a thread other than main) stays on the timer.
 *
 * A process that forks often goes on the timer the same way: its perf
 * events, switched at each of its waits for a child, and its helper
 * thread made a fork cost 1.35 times plain where the timer alone cost
 * 1.1 (fork, _exit and wait, as nobody and as root).  After
 * MON_SAMPLER_STORM forks within MON_SAMPLER_STORM_NS of its CPU time,
 * its fork handler stops the perf sampler, where the program
 * forks from its own code and has no other thread; the timer samples
 * until MON_SAMPLER_LATE periods have passed without a fork, then
 * starts perf again, as in a fork child.
 */
#include <signal.h>
#include <time.h>

#include "sampler.h"

/*
 * ld's --wrap of the program's sigaction (the specs file's link), by
 * which signal.c sees it set SIGPROF's action: absent in libmonprof.so
 * (-lmonprof, LD_PRELOAD), where a fork child starts perf at once.
 */
extern int __real_sigaction(int, const struct sigaction *, struct sigaction *)
    __attribute__((__weak__));

/*
 * Sample periods a fork child runs before its perf sampler starts (10
 * ms at 1000 Hz): a child that ends sooner pays nothing for it, one
 * that runs on pays its start (about 0.4 ms) once.
 */
#define MON_SAMPLER_LATE	10

/*
 * Forks within MON_SAMPLER_STORM_NS of the process's CPU time after
 * which it forks on the timer: where a fork takes as much of its time
 * as 3 ms of its own work, a perf sampler's stop and start (about 0.5
 * ms) are paid back within a few dozen forks.  CPU time, not wall time,
 * which a loaded machine stretches (e2e 431 saw fewer than 16 forks in
 * 50 ms of wall time beside two busy processes on two cores).
 */
#define MON_SAMPLER_STORM	16
#define MON_SAMPLER_STORM_NS	50000000L

/*
 * The process CPU time past which a timer that took no sample is stuck
 * (its signal blocked for good), beyond its period: a 250 Hz kernel
 * expires a 1000 Hz timer every 4 ms, and only at a tick that finds the
 * process running, which one that runs a tenth of the time may miss
 * for a few more.
 */
#define MON_SAMPLER_STUCK_NS	100000000L

static int running;	/* MON_SAMPLER_* running now */
static int last;	/* MON_SAMPLER_* last started, for the writer */
static long rate;	/* Hz asked of the last one started */
static int late;	/* a fork child's perf sampler is yet to start */
static long ticks;	/* sample periods since the fork */
static int periods;	/* the timer's samples count periods (late_defer) */
static int yielded;	/* that timer stopped for the program (yield) */
static int storm;	/* forks since storm_ns */
static long storm_ns;	/* process CPU ns the forks are counted from */
static int stood_in;	/* the timer stands in for this process's perf */
static int storm_wait;	/* a storm came with SIGPROF blocked */
static int storm_masked; /* it did: the program blocks it around forks */
static int owed;	/* the timer that stood in yielded: perf is owed */
static int storm_off;	/* the timer once took no sample: no more storms */
static long ticks_all;	/* the timer's periods, never reset */
static long seen_ticks;	/* ticks_all at seen_cpu */
static long seen_cpu;	/* process CPU ns when ticks_all last moved */

static void owed_start(void);

/* Start sampling unless a sampler runs: 0, or -1 (reported). */
int
__mon_sampler_start(void)
{
	const struct __mon_env *e = __mon_env_get();

	if (running != MON_SAMPLER_NONE)
		return 0;
	owed = 0;
	rate = e->rate > 0 ? e->rate : MON_RATE_DEFAULT;
	periods = 0;
	yielded = 0;
	__mon_itimer_hook(NULL);
	__mon_hist_stacks(!e->nostacks);
	if (!e->itimer && __mon_perf_start(rate, e->cpuwide, !e->nostacks,
	    e->kernel) == 0) {
		running = last = MON_SAMPLER_PERF;
		/* Now, in normal context: what a fork child will need. */
		if (!e->nostacks)
			__mon_safepoint_learn();
		return 0;
	}
	if (__mon_itimer_start(rate, !e->nostacks) == 0) {
		running = last = MON_SAMPLER_ITIMER;
		return 0;
	}
	MON_ERR("monprof: no sampler (perf_event_open and timer_create "
	    "failed): call counts only\n");
	return -1;
}

/* Before a write: every sample taken so far is in the histogram. */
void
__mon_sampler_drain(void)
{
	if (running == MON_SAMPLER_PERF)
		__mon_perf_drain(1);
	else if (running == MON_SAMPLER_ITIMER)
		__mon_itimer_check();
}

/*
 * A confined program's sampler has no helper thread (confine.c): the
 * writer process drains the perf rings as the helper would, if nobody
 * else is draining now.
 */
void
__mon_sampler_poll(void)
{
	if (running == MON_SAMPLER_PERF)
		__mon_perf_drain(0);
}

/*
 * The fork child's perf sampler is not to start after all.  The timer,
 * where it runs on, keeps late_tick as its hook: its samples still
 * count perf's periods.
 */
static void
never_late(void)
{
	stood_in = 0;
	owed = 0;
	MON_STORE(&late, 0);
	__mon_thread_before(NULL);
}

void
__mon_sampler_stop(void)
{
	int was = running;

	never_late();
	/*
	 * Not running first: the timer's restore of SIGPROF's action goes
	 * through signal.c's wrapper, which would have it yield.  The
	 * rate stays recorded for the writer.
	 */
	running = MON_SAMPLER_NONE;
	if (was == MON_SAMPLER_PERF)
		__mon_perf_stop();
	else if (was == MON_SAMPLER_ITIMER)
		__mon_itimer_stop();
}

/* moncontrol, before the mode changes to off or after it is on. */
void
__mon_sampler_control(int on)
{
	if (running == MON_SAMPLER_ITIMER)
		__mon_itimer_control(on);
	else if (running == MON_SAMPLER_PERF)
		__mon_perf_enable(on);
}

/* The rate to record: perf's task clock delivers what was asked. */
long
__mon_sampler_rate(void)
{
	if (rate == 0)
		return 0;
	/* A fork child's timer counted perf's periods, overruns and all. */
	if (last == MON_SAMPLER_ITIMER && !periods)
		return __mon_itimer_rate(rate, running == MON_SAMPLER_ITIMER);
	return rate;
}

/*
 * For the writer: the most times a second the program's threads blocked
 * while the perf sampler had to stay in task scope (above 10,000), or 0.
 */
long
__mon_sampler_switches(void)
{
	return last == MON_SAMPLER_PERF ? __mon_perf_switches() : 0;
}

/* For the writer: why the perf sampler stayed in task scope, or 0. */
long
__mon_sampler_stayed(void)
{
	return last == MON_SAMPLER_PERF ? __mon_perf_stayed() : 0;
}

/*
 * For the writer, where PROFFLAGS asked for -kernel: 1 if the perf
 * sampler counts kernel-mode time, 0 if the kernel refused it (or the
 * sampler is the timer, whose CPU time includes the kernel's anyway but
 * which is not what was asked); -1 where it was not asked.
 */
int
__mon_sampler_kernel(void)
{
	if (!__mon_env_get()->kernel)
		return -1;
	return last == MON_SAMPLER_PERF ? __mon_perf_kernel() : 0;
}

/* The sampler last started (MON_SAMPLER_*), for the writer. */
int
__mon_sampler_which(void)
{
	if (last == MON_SAMPLER_PERF)
		return __mon_perf_scope();
	return last;
}

/*
 * A child that no fork handler saw: the perf events are the parent's
 * (their rings are not even mapped here), so drop them without a touch;
 * no new sampler (it is found at exit, or at a moncontrol).  The
 * timer sampler has nothing of the parent's to drop.
 */
void
__mon_sampler_forget(void)
{
	__mon_sframe_forked();
	owed = 0;
	__mon_thread_before(NULL);
	if (MON_LOAD(&late)) {
		never_late();
		running = MON_SAMPLER_NONE;
	}
	if (running == MON_SAMPLER_PERF) {
		__mon_perf_reset();
		running = MON_SAMPLER_NONE;
	}
}

/*
 * The program is to be its only thread for a call (alone 1), or the
 * call is done (alone 0): only the perf sampler has a thread.  0, or -1
 * if it could not go on after the call.
 */
int
__mon_sampler_alone(int alone)
{
	/*
	 * A fork child's perf sampler, yet to start, has no thread: it
	 * cannot start during the call (no tick in the C library is a safe
	 * point), and not under a filter that could kill its calls
	 * (late_start; confine.c stops its timer first).
	 */
	return running == MON_SAMPLER_PERF ? __mon_perf_alone(alone) : 0;
}

/*
 * A fork child whose seccomp filter could kill the calls a new sampler
 * makes: the parent's is dropped untouched (its perf descriptors stay
 * open in the child, unused), and the child samples nothing.
 */
void
__mon_sampler_drop(void)
{
	never_late();
	running = MON_SAMPLER_NONE;
}

/*
 * Whether the sampler's state is this process's own: not a vfork
 * child's, which shares it with its parent, nor a raw fork's child's,
 * whose fork handlers did not run (the parent's timer id, its hooks).
 */
static int
mine(void)
{
	return __mon_self_which() == MON_SELF_SAME;
}

/*
 * Start the perf sampler in place of the timer, once: from the timer's
 * handler at a safe point, or before the program's first thread is
 * created.  Where perf cannot start, the timer samples on.
 */
static void
late_start(void)
{
	const struct __mon_env *e = __mon_env_get();
	int was = 1;

	if (!MON_LOAD(&late) || !mine() || !MON_CAS(&late, &was, 0))
		return;
	stood_in = 0;
	__mon_thread_before(NULL);
	if (__mon_seccomp_kills())
		return;		/* its calls could be killed: the timer goes on */
	running = MON_SAMPLER_NONE;	/* first: yield() sees the restore */
	__mon_itimer_handover();
	if (__mon_perf_start(rate, e->cpuwide, 1, e->kernel) == 0) {
		__mon_itimer_hook(NULL);
		running = last = MON_SAMPLER_PERF;
		if (!__mon_mode_on())
			__mon_perf_enable(0);
	} else if (__mon_itimer_start(rate, 1) == 0)
		running = last = MON_SAMPLER_ITIMER;	/* late_tick counts on */
}

/* The timer's handler, after each sample of a fork child's (periods). */
static void
late_tick(long n, uintptr_t pc, uintptr_t sp, uintptr_t fp,
    __mon_unwind_read rd, void *ctx)
{
	__atomic_add_fetch(&ticks_all, n, __ATOMIC_RELAXED);
	if (__atomic_add_fetch(&ticks, n, __ATOMIC_RELAXED) >=
	    MON_SAMPLER_LATE && __mon_mode_on() &&
	    MON_LOAD(&late) && __mon_safepoint_at(pc, sp, fp, rd, ctx))
		late_start();
}

/*
 * Whether the timer may stand in for perf until late_start: not where
 * no safe point can be known (-nostacks, a static link, the program's
 * own malloc), nor with -kernel (the timer's samples are not the
 * kernel's), nor without the wrapper of the program's sigaction.
 */
static int
deferrable(void)
{
#if !defined(__x86_64__)
	/*
	 * Without unwind rows (x86-64's alone) no tick is a safe point;
	 * and only x86-64's kernel is known to send a CPU timer's signal
	 * on the way back to user mode, where it interrupts no call.
	 */
	return 0;
#endif
	return __mon_safepoint_known() && !__mon_env_get()->nostacks &&
	    !__mon_env_get()->kernel && __real_sigaction != NULL;
}

/* Whether SIGPROF's action is the default: the program's is its own. */
static int
sigprof_free(void)
{
	struct sigaction cur;

	return sigaction(SIGPROF, NULL, &cur) == 0 &&
	    !(cur.sa_flags & SA_SIGINFO) && cur.sa_handler == SIG_DFL;
}

/*
 * A fork child of a perf-sampled process (or a process that forks
 * often): the timer samples it until late_start.  0, or -1 where the
 * timer cannot stand in (deferrable), or the program handles SIGPROF
 * itself.  timing: the timer is the parent's already (a child of such a
 * child), only to arm.
 */
static int
late_defer(int timing)
{
	if (!deferrable())
		return -1;
	if (timing) {
		if (__mon_itimer_reset(rate) != 0)
			return -1;
	} else if (!sigprof_free() || __mon_itimer_start(rate, 1) != 0)
		return -1;
	MON_STORE(&ticks, 0);
	periods = 1;
	running = last = MON_SAMPLER_ITIMER;
	MON_STORE(&late, 1);
	__mon_itimer_hook(late_tick);
	__mon_thread_before(late_start);
	return 0;
}

/*
 * Whether the process may go on the timer for its forks: not confined
 * (confine.c stops the helper for good), and SIGPROF not handled by the
 * program.
 */
static int
storm_may(void)
{
	return __mon_mode_on() && !__mon_seccomp_confined() &&
	    deferrable() && sigprof_free();
}

/* Whether this thread blocks SIGPROF (-1: unknown). */
static int
sigprof_blocked(void)
{
	sigset_t cur;

	if (__mon_sigmask_set(SIG_BLOCK, NULL, &cur) != 0)
		return -1;
	return __mon_sigmask_has(&cur, SIGPROF);
}

/* From now, the timer's periods are watched for (storm_stuck). */
static void
storm_seen(void)
{
	seen_ticks = MON_LOAD(&ticks_all);
	seen_cpu = __mon_itimer_cpu_ns();
}

/*
 * Call fn with every signal blocked: a handler's fork child would find
 * the sampler half stopped or started.
 */
static void
unsignalled(void (*fn)(void))
{
	sigset_t all, old;

	sigfillset(&all);
	__mon_sigmask_set(SIG_SETMASK, &all, &old);
	fn();
	__mon_sigmask_set(SIG_SETMASK, &old, NULL);
}

static void
storm_stop(void)
{
	running = MON_SAMPLER_NONE;
	__mon_perf_stop();
	/* The helper was the only other thread (storm_switch). */
	__mon_single_again();
	if (late_defer(0) == 0) {
		stood_in = 1;
		last = MON_SAMPLER_PERF;
		storm_seen();
	} else
		(void)__mon_sampler_start();
}

/*
 * Stop the perf sampler for the timer, after a storm of forks: where
 * the call is the program's own (a safe point: the sampler stops and
 * starts with the C library's calls), the program has no thread but
 * this one (a sampler started again samples only the thread that
 * starts it and those created after), and the timer may stand in
 * (storm_may).  Signals are blocked meanwhile: a fork child of a
 * handler's would find no sampler.  The profile's sampler stays perf,
 * which the timer stands in for.  libc: the frames of the C library's
 * between the program's call and the runtime's (fork()'s 2, or 0).
 * masked: the forks came with SIGPROF blocked.
 */
static void
storm_switch(int libc, int masked)
{
	storm_wait = 0;
	if (!storm_may() || !__mon_perf_solo() ||
	    !__mon_safepoint_caller(libc))
		return;
	storm_masked = masked;
	unsignalled(storm_stop);
}

/*
 * A fork on the timer that stands in for perf: the timer's signal may
 * be blocked for good (a server reading its signals from a signalfd),
 * and no sample taken.  Where its periods have not moved while the
 * process ran MON_SAMPLER_STUCK_NS of CPU beyond one, perf comes back,
 * and the process forks under it from then on.
 */
static void
storm_stuck(void)
{
	long t = MON_LOAD(&ticks_all), cpu = __mon_itimer_cpu_ns();

	if (t != seen_ticks || cpu == 0) {
		seen_ticks = t;
		seen_cpu = cpu;
		return;
	}
	if (cpu - seen_cpu < MON_SAMPLER_STUCK_NS + 1000000000L / rate)
		return;
	storm_off = 1;
	if (__mon_safepoint_caller(2))
		unsignalled(late_start);
}

/*
 * fork's parent handler.  A process on the timer until late_start
 * counts its periods from the last fork.  One that forks often
 * (MON_SAMPLER_STORM forks within MON_SAMPLER_STORM_NS of its CPU
 * time) stops its perf sampler for the timer (storm_switch); where the
 * fork came with SIGPROF blocked (dash and Python's subprocess block
 * every signal around it), once the program unblocks it
 * (__mon_sampler_unblocked).
 */
void
__mon_sampler_forked(void)
{
	long now;

	if (!mine())
		return;
	if (owed && __mon_safepoint_caller(2))
		unsignalled(owed_start);
	if (MON_LOAD(&late)) {
		MON_STORE(&ticks, 0);
		if (stood_in)
			storm_stuck();
		return;
	}
	if (running != MON_SAMPLER_PERF || storm_off)
		return;
	now = __mon_itimer_cpu_ns();
	if (now - storm_ns > MON_SAMPLER_STORM_NS) {
		storm_ns = now;
		storm = 0;
	}
	if (++storm < MON_SAMPLER_STORM)
		return;
	/* Whatever comes of it, the next look is as many forks away. */
	storm = 0;
	storm_ns = now;
	if (sigprof_blocked() != 0)
		storm_wait = 1;
	else
		storm_switch(2, 0);
}

/*
 * The program's mask call has returned, and may have unblocked SIGPROF
 * (forced.c): a storm that waited for it, within its time, switches.
 */
void
__mon_sampler_unblocked(void)
{
	if (owed && mine() && __mon_safepoint_caller(0))
		unsignalled(owed_start);
	if (!storm_wait || !mine() || running != MON_SAMPLER_PERF)
		return;
	if (__mon_itimer_cpu_ns() - storm_ns > MON_SAMPLER_STORM_NS)
		storm_wait = 0;
	else if (sigprof_blocked() == 0)
		storm_switch(0, 1);
}

/*
 * The program is about to block SIGPROF (forced.c): a timer standing in
 * for perf would take no sample, unless the program blocks it only
 * around its forks (storm_masked: storm_stuck watches that).
 */
void
__mon_sampler_blocking(void)
{
	if (stood_in && !storm_masked)
		__mon_sampler_resume();
}

/*
 * The program is about to handle SIGPROF, or to install a seccomp
 * filter (signal.c, confine.c): a timer that stands in for the
 * process's own perf sampler gives way to it now, where the call is the
 * program's own, at a safe point (else it yields).
 */
void
__mon_sampler_resume(void)
{
	/* The walk last: the runtime's own calls come here too. */
	if ((!owed && !(stood_in && MON_LOAD(&late))) || !mine() ||
	    !__mon_safepoint_caller(0))
		return;
	if (owed)
		unsignalled(owed_start);
	else
		unsignalled(late_start);
}

/*
 * The timer that stood in for perf through forks yielded where perf
 * could not start (the program set SIGPROF's action in a signal
 * handler): perf starts at the program's next call that is a safe
 * point (a fork, a mask call, a signal action), or before its next
 * thread.  Not in a confined process (confine.c's helper is gone).
 */
static void
owed_start(void)
{
	if (!owed || !mine() || running != MON_SAMPLER_NONE)
		return;
	owed = 0;
	__mon_thread_before(NULL);
	if (__mon_seccomp_confined() || __mon_sampler_start() != 0)
		return;
	if (running == MON_SAMPLER_PERF && !__mon_mode_on())
		__mon_perf_enable(0);
}

/*
 * The program sets SIGPROF's action (signal.c's wrappers, before the
 * call), or execs (exec.c): a fork child's timer, standing in for perf,
 * yields.  It stops, its signal taken if pending (SIGPROF blocked), so
 * that no action of the program's, nor of the next image's, is run by
 * it (SIG_DFL would end the process, a handler would run uncalled for);
 * the child samples nothing more.
 */
int
__mon_sampler_yield(void)
{
	int was;

	/*
	 * The timer stands in for perf (periods), started or not (a seccomp
	 * filter, unshare): the program's action is to be its own alone.
	 * Under a filter that could kill its calls, none is made (confine.c
	 * has it yield before any).
	 */
	if (running != MON_SAMPLER_ITIMER || !periods || !mine() ||
	    __mon_seccomp_kills())
		return 0;
	/* running first: the restore of SIGPROF's action comes back here. */
	running = MON_SAMPLER_NONE;
	was = stood_in;
	never_late();
	yielded = 1;
	__mon_itimer_handover();
	/*
	 * Owed only now: the handover's restore of SIGPROF's action, made
	 * through signal.c's wrapper, would have started perf at once (an
	 * exec's yield, just before the exec).  Perf again before the
	 * program's next thread, at the latest.
	 */
	if (was) {
		owed = 1;
		__mon_thread_before(owed_start);
	}
	return 1;
}

/*
 * The exec that the timer yielded to (its own yield, exec.c) failed:
 * the image goes on, and so does its sampler, on the timer again (perf
 * starts from it at a safe point), where the timer may stand in.
 */
void
__mon_sampler_unyield(void)
{
	int was = owed;

	if (!yielded || !mine() || running != MON_SAMPLER_NONE)
		return;
	/*
	 * Not owed while the timer starts: its sigaction, through
	 * signal.c's wrapper, would start perf too.  Where the timer cannot
	 * stand in again, perf stays owed.
	 */
	owed = 0;
	if (late_defer(0) != 0) {
		owed = was;
		return;
	}
	yielded = 0;
	if (was) {
		stood_in = 1;
		last = MON_SAMPLER_PERF;
		storm_seen();
	}
}

/* fork child: the sampler is the parent's; start one of its own. */
void
__mon_sampler_reset(void)
{
	__mon_sframe_forked();
	storm = 0;
	stood_in = 0;
	storm_wait = 0;
	owed = 0;
	if (MON_LOAD(&late)) {
		/* The parent's perf sampler was yet to start: so is ours. */
		MON_STORE(&late, 0);
		if (late_defer(1) != 0) {
			never_late();
			running = MON_SAMPLER_NONE;
			__mon_itimer_stop();
			__mon_sampler_start();
		}
	} else if (running == MON_SAMPLER_PERF) {
		__mon_perf_reset();
		running = MON_SAMPLER_NONE;
		if (late_defer(0) != 0)
			__mon_sampler_start();
	} else if (yielded) {
		/* The parent's stand-in yielded to it: the child's starts. */
		yielded = 0;
		if (late_defer(0) != 0)
			__mon_sampler_start();
	} else if (running == MON_SAMPLER_ITIMER)
		__mon_itimer_reset(rate);
}
