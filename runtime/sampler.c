/* SPDX-License-Identifier: MIT */
/*
 * sampler.c - which sampler fills the histogram: perf_event (perf.c,
 * in task or cpu scope) when the kernel allows it, else a CPU-time
 * timer (itimer.c); started at
 * PROFFLAGS -rate (default 1000 Hz), switched by moncontrol, drained
 * before a write, and started anew in a fork child.
 */
#include "sampler.h"

static int running;	/* MON_SAMPLER_* running now */
static int last;	/* MON_SAMPLER_* last started, for the writer */
static long rate;	/* Hz asked of the last one started */

/* Start sampling unless a sampler runs: 0, or -1 (reported). */
int
__mon_sampler_start(void)
{
	const struct __mon_env *e = __mon_env_get();

	if (running != MON_SAMPLER_NONE)
		return 0;
	rate = e->rate > 0 ? e->rate : MON_RATE_DEFAULT;
	__mon_hist_stacks(!e->nostacks);
	if (!e->itimer && __mon_perf_start(rate, e->cpuwide, !e->nostacks,
	    e->kernel) == 0) {
		running = last = MON_SAMPLER_PERF;
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

void
__mon_sampler_stop(void)
{
	if (running == MON_SAMPLER_PERF)
		__mon_perf_stop();
	else if (running == MON_SAMPLER_ITIMER)
		__mon_itimer_stop();
	/* The rate stays recorded for the writer. */
	running = MON_SAMPLER_NONE;
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
	if (last == MON_SAMPLER_ITIMER)
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
	running = MON_SAMPLER_NONE;
}

/* fork child: the sampler is the parent's; start one of its own. */
void
__mon_sampler_reset(void)
{
	__mon_sframe_forked();
	if (running == MON_SAMPLER_PERF) {
		__mon_perf_reset();
		running = MON_SAMPLER_NONE;
		__mon_sampler_start();
	} else if (running == MON_SAMPLER_ITIMER)
		__mon_itimer_reset(rate);
}
