/* SPDX-License-Identifier: MIT */
/*
 * monitor.c - monitor(), monstartup(), moncontrol(): set up the buffer,
 * switch profiling on and off, stop and write.
 *
 * A monitor() buffer, bufsize WORDs:
 *
 *	+------------+------------------+------------------------------+
 *	| struct hdr | struct cnt[nfunc] | WORD histogram ...           |
 *	+------------+------------------+------------------------------+
 *	 lpc hpc nfns  cells handed out    nbins = min(rest, (hpc-lpc+1)/2)
 *	               first, then runtime  bins over [lpc, hpc) uniformly
 *	               chunks
 *
 * The run state, one word:
 *
 *	OFF --monitor(lo, ..)--> ON --monitor(0), exit, --> STOPPING --> OFF
 *	                          \    a fatal signal      (one thread)
 *	                           \___ further monitor() calls add their
 *	                                cells and restart the histogram
 *
 * A stop that finds another thread's in progress waits for its end (a
 * futex on the word), so the profile is written once, whole, before any
 * of them goes on; a signal over a thread's own stop cannot wait.
 *
 * and, apart from it, moncontrol's mode (mode.c): on from the first call,
 * so counts start before monitor() does; monitor(0) turns it off.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <string.h>
#include <unistd.h>

#include "control.h"

#define STATE_OFF	0
#define STATE_ON	1
#define STATE_STOPPING	2	/* one stop at a time: exit vs monitor(0) */

static unsigned state;
static void *fresh;	/* monstartup's buffer, being handed to monitor() */
static int stopper;	/* the thread that made it STOPPING */

/*
 * One switch at a time (two at once would exclude calls twice), first
 * come first served: a ticket lock whose waiters sleep, each on the futex
 * of its ticket's slot, so a call waits only for the switches queued
 * before it and each switch wakes only the next.  A signal handler that
 * interrupts a thread holding a ticket (waiting or switching) must not
 * wait behind it: it leaves its mode in pending, and whoever holds the
 * lock applies it before letting it go (or the handler does, if the
 * lock is free).
 */
#define SW_SLOTS	64	/* more waiters only share slots */

static struct {
	unsigned	 next;		/* the next ticket */
	unsigned	 serving;	/* the ticket that may switch now */
	int		 pending;	/* a nested call's mode, or -1 */
	unsigned	 slot[SW_SLOTS]; /* futex words: serving, when set */
} sw = { .pending = -1 };

/* This thread holds a ticket (the first call, not a nested one). */
static __thread int ticketed __attribute__((__tls_model__("initial-exec")));

static void	stop_switching(void);
static int	start(struct hdr *, size_t, size_t, struct monitor_args *,
		    size_t);


/* Where the program's seccomp filter refuses it, a pause: waits spin. */
static void
futex(unsigned *word, int op, unsigned val)
{
	if (__mon_seccomp_may(MON_SECCOMP_FUTEX))
		syscall(SYS_futex, word, op, val, NULL, NULL, 0);
	else
		MON_RELAX();
}

/*
 * Whether the runtime may make the system calls it does not list to
 * seccomp.c in the program's threads (start a writer process, write a
 * profile): yes unless a seccomp filter of the program's could kill
 * it for one.
 */
static int
unconfined(void)
{
	return !__mon_seccomp_kills();
}

/*
 * Whether this process may act on the runtime's state: 0, or -1 in a
 * process that shares the memory of the one set up (a vfork child, which
 * would stop the parent's profiling).  A child that no fork handler saw
 * (its memory a copy) first drops what it holds of the parent's: the
 * sampler (its perf events are the parent's: a switch would stop the
 * parent's), the guards and locks of the parent's threads.  It keeps the
 * counts: they include the parent's until the fork.
 */
static int
here(void)
{
	switch (__mon_self_which()) {
	case MON_SELF_SAME:
		return 0;
	case MON_SELF_COPY:
		__mon_outfile_reset();
		__mon_dump_reset();
		__mon_final_reset();
		__mon_sampler_forget();
		__mon_monitor_reset();
		__mon_self_record();
		return 0;
	default:
		return -1;
	}
}

/* Whether [lo, hi) is mapped: mincore() fails with ENOMEM where not. */
static int
mapped(uintptr_t lo, uintptr_t hi)
{
	static unsigned char vec[256];
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), a, len;
	int saved = errno, ok = 1;

	for (a = lo & ~(page - 1); ok && a < hi; a += len) {
		len = hi - a < sizeof(vec) * page ? hi - a : sizeof(vec) * page;
		ok = mincore((void *)a, len, vec) == 0;
	}
	errno = saved;
	return ok;
}

/*
 * monitor(MON_RANGES, 0, args, n, 0): n ranges, sorted here by decreasing
 * lowpc (insertion sort: n is small), each mapped, none overlapping.
 */
static int
ranges(struct monitor_args *r, size_t n, size_t flags)
{
	struct monitor_args t;
	size_t i, j;

	if (r == NULL || n == 0 || n > MON_RANGES_MAX || flags != 0)
		return -1;
	for (i = 0; i < n; i++)
		if (r[i].lowpc >= r[i].highpc || r[i].buffer == NULL ||
		    r[i].bufsiz < sizeof(unsigned int) ||
		    ((uintptr_t)r[i].buffer & (sizeof(unsigned int) - 1)) ||
		    !mapped((uintptr_t)r[i].lowpc, (uintptr_t)r[i].highpc))
			return -1;
	for (i = 1; i < n; i++) {
		t = r[i];
		for (j = i; j > 0 && r[j - 1].lowpc < t.lowpc; j--)
			r[j] = r[j - 1];
		r[j] = t;
	}
	for (i = 1; i < n; i++)
		if (r[i].highpc > r[i - 1].lowpc)
			return -1;
	return 0;
}

int
__monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
    size_t bufsize, size_t nfunc)
{
	uintptr_t lo = (uintptr_t)lowpc, hi = (uintptr_t)highpc;
	size_t ssiz, nbins, need;
	struct hdr *h;

	if (here() != 0)
		return 0;
	if (lowpc == NULL) {
		__mon_monitor_stop(MON_STOP_NOW);
		return 0;
	}
	if (lowpc == MON_RANGES) {
		if (highpc != NULL ||
		    ranges((struct monitor_args *)buffer, bufsize, nfunc) != 0) {
			errno = EINVAL;
			return -1;
		}
		return start(NULL, 0, 0, (struct monitor_args *)buffer,
		    bufsize);
	}
	if (buffer == NULL || lo >= hi ||
	    ((uintptr_t)buffer & (sizeof(long) - 1)) != 0 ||
	    nfunc > (SIZE_MAX - sizeof(struct hdr)) / sizeof(struct cnt)) {
		errno = EINVAL;
		return -1;
	}
	ssiz = (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) / sizeof(WORD);
	if (ssiz >= bufsize) {
		errno = EINVAL;
		return -1;
	}
	h = (struct hdr *)buffer;
	/* At most one bin per 2 bytes: more would not span [lo, hi). */
	need = (hi - lo) / 2 + (hi - lo) % 2;
	nbins = bufsize - ssiz < need ? bufsize - ssiz : need;
	h->lpc = (char *)lo;
	h->hpc = (char *)hi;
	h->nfns = nfunc;
	return start(h, nfunc, nbins, NULL, 0);
}

/*
 * -threads: a thread that held sets or arc tables ends (arena.c): its
 * file is written now, if the profile is running.
 */
static void
thread_ended(void)
{
	if (unconfined() && here() == 0 && __mon_monitor_running() &&
	    __mon_env_get()->threads)
		__mon_dump_thread();
}

/*
 * Start: the buffer at h (its nfunc cells handed out next, nbins over
 * [lpc, hpc)), or the n ranges r.
 */
static int
start(struct hdr *h, size_t nfunc, size_t nbins, struct monitor_args *r,
    size_t n)
{
	WORD *bins;

	__mon_env_load();
	__mon_hist_threads(__mon_env_get()->threads);
	__mon_arena_atend(thread_ended);
	/* Samples outside the histogram are kept by stride bytes, or by
	 * page when only each object's sum is written. */
	__mon_pcs_stride(__mon_env_get()->stride != 0 ?
	    (unsigned)__mon_env_get()->stride : 4096);
	if (__mon_env_get()->disabled) {
		/* PROFDIR set and empty: no profiling, as documented. */
		__mon_mcount_disable(1);
		return 0;
	}
	if (r != NULL)
		__mon_hist_ranges(r, n);
	else {
		if (__mon_cells_lend((struct cnt *)(h + 1), nfunc) != 0) {
			errno = ENOMEM;
			return -1;
		}
		bins = (WORD *)((struct cnt *)(h + 1) + nfunc);
		/* monstartup's buffer is fresh from mmap: zeros, and its
		 * pages are not touched (a 9 MB text's 2.3 MB of bins cost
		 * no memory until a sample, nor a fork their copy). */
		if ((void *)h != fresh)
			memset(bins, 0, nbins * sizeof(WORD));
		__mon_hist_start(bins, nbins, (uintptr_t)h->lpc,
		    (uintptr_t)h->hpc, (void *)h == fresh);
		fresh = NULL;
	}
	MON_STORE(&state, STATE_ON);
	__mon_sampler_start();
	__moncontrol(1);
	return 0;
}

MON_WEAK_ALIAS(__monitor, monitor);

/*
 * Make this thread the one stopping: 1; or 0 once the stop of another
 * thread has ended (or none was due); -1 if this thread is stopping
 * already (a signal handler over its own stop).
 */
static int
stop_begin(void)
{
	unsigned on = STATE_ON, now;
	int tid = __mon_self_tid();

	if (MON_CAS(&state, &on, STATE_STOPPING)) {
		MON_STORE(&stopper, tid);
		return 1;
	}
	while ((now = MON_LOAD(&state)) == STATE_STOPPING) {
		if (MON_LOAD(&stopper) == tid)
			return -1;
		futex(&state, FUTEX_WAIT_PRIVATE, now);
	}
	return 0;
}

static void
stop_end(void)
{
	MON_STORE(&stopper, 0);
	MON_STORE(&state, STATE_OFF);
	futex(&state, FUTEX_WAKE_PRIVATE, INT_MAX);
}

/*
 * The last profile, by the writer process (final.c) when there is one:
 * what it writes, at the go or once the process has ended, if a profile
 * is still due then.  It runs in that process: nothing here may ask
 * which process it is.
 */
static int
final_write(void)
{
	return MON_LOAD(&state) != STATE_OFF ? __mon_dump_write(0) : 0;
}

/*
 * The last profile now, by the writer process if it can be had.  Where
 * a seccomp filter of the program's could kill the runtime, only a
 * writer started before the filter writes (confine.c), and if there is
 * none, one line says so where the filter allows it.
 */
static void
final(void)
{
	if (!unconfined()) {
		if (__mon_final_finish() != 0)
			MON_ERR("monprof: the program's seccomp filter leaves "
			    "the runtime no way to write the profile: none "
			    "written\n");
		return;
	}
	if (__mon_final_start(final_write) != 0 || __mon_final_finish() != 0)
		__mon_dump_write(0);
}

/*
 * Stop sampling and counting; write the profile if asked (MON_STOP_NOW,
 * monitor(0)), or as the last one (MON_STOP_FINAL, exit) and enabled.
 */
void
__mon_monitor_stop(int write)
{
	if (here() != 0)
		return;
	/* monitor(0) in one thread while another exits: one stop only. */
	if (stop_begin() != 1) {
		/* Nothing is due now: let a waiting writer go. */
		if (write == MON_STOP_FINAL)
			__mon_final_finish();
		return;
	}
	stop_switching();
	/* Confined: monitor(0)'s write is the writer's, as the last. */
	if (write == MON_STOP_FINAL || (write == MON_STOP_NOW && !unconfined()))
		final();
	else if (write == MON_STOP_NOW)
		__mon_dump_write(0);
	stop_end();
	__mon_hist_stop();
}

/*
 * A signal is about to end the process: write the profile, once however
 * many threads and handlers come here, and return once it is written
 * (or another thread's stop has ended).  The sampler is left running
 * (stopping it is not async-signal-safe); the process dies next.
 */
void
__mon_monitor_end(void)
{
	switch (here() == 0 ? stop_begin() : 0) {
	case 1:
		final();
		stop_end();
		break;
	case -1:
		/* Over this thread's own stop, which will never resume: the
		 * writer process, if any, is not this thread. */
		final();
		break;
	}
}

/*
 * Write the profile now (monitor_signal, an exec), numbered for
 * -sigdump; profiling goes on.  0, or -1: not running, not this process's to write, or not
 * written.  Async-signal-safe.
 */
int
__mon_monitor_dump(int numbered)
{
	if (!unconfined() || here() != 0 || !__mon_monitor_running())
		return -1;
	return __mon_dump_write(numbered);
}

/*
 * exit() has begun (init.c's exit handler): 0, or -1 in a process that
 * shares the memory of the one set up, which must not run that one's
 * exit handlers.
 */
int
__mon_monitor_exiting(void)
{
	if (here() != 0)
		return -1;
	/*
	 * Another thread's exit() may end the process while this one runs
	 * the destructors and writes: the writer process, started now,
	 * finishes the profile whatever happens.
	 */
	if (__mon_monitor_running() && unconfined())
		__mon_final_start(final_write);
	return 0;
}

/*
 * A seccomp filter is about to confine the program (confine.c): the
 * writer of the last profile starts now, before the filter, which will
 * not filter it (final.c); before the first filter only, which would
 * filter it otherwise (it could not even wait without futex()).  0, or
 * -1 in a process that shares the memory of the one set up (a vfork
 * child's filter is its own).
 */
int
__mon_monitor_confine(void)
{
	if (here() != 0)
		return -1;
	if (__mon_monitor_running() && !__mon_seccomp_confined())
		__mon_final_start(final_write);
	return 0;
}

/*
 * The program blocked or ignored a fault (forced.c): the writer of the
 * last profile starts now, if it has not, and looks every 50 ms whether
 * the process has ended (a confined program's keeps its own pace).  0,
 * or -1 in a process that shares the memory of the one set up.
 */
int
__mon_monitor_forced(void)
{
	if (here() != 0)
		return -1;
	if (__mon_monitor_running() && !__mon_seccomp_confined() &&
	    __mon_final_start(final_write) == 0)
		__mon_final_nap(50000000L, 0);
	return 0;
}

/* Whether monitor() has started profiling and no stop has ended it. */
int
__mon_monitor_running(void)
{
	return MON_LOAD(&state) != STATE_OFF;
}

/* fork child: the guards were other threads', in the parent. */
void
__mon_monitor_reset(void)
{
	unsigned stopping = STATE_STOPPING;

	MON_RESET(&stopper, 0);
	if (sw.pending != -1 || sw.next != 0 || sw.serving != 0) {
		memset(&sw, 0, sizeof(sw));
		sw.pending = -1;
	} else
		__mon_reset_zero(sw.slot, sizeof(sw.slot));
	MON_RESET(&ticketed, 0);
	if (MON_LOAD(&state) == STATE_STOPPING)
		MON_CAS(&state, &stopping, STATE_ON);
}

/*
 * monstartup(lowpc, highpc): monitor() over [lowpc, highpc) with a buffer
 * of its own sized by monitor(3)'s formula (PROFFLAGS -stride bytes per
 * bin, BARSIZE by default; MON_NFUNC cells); (0, 0) profiles the main
 * executable's text, in one bin if PROFFLAGS leaves it out.
 */
int
__monstartup(char *lowpc, char *highpc)
{
	uintptr_t lo = (uintptr_t)lowpc, hi = (uintptr_t)highpc, bar;
	size_t bytes;
	int rc;
	void *buf;

	__mon_env_load();
	bar = (uintptr_t)__mon_env_get()->stride;
	if (lo == 0 && hi == 0) {
		__mon_exe_find();
		__mon_exe_text(&lo, &hi);
		if (!__mon_env_selects(__mon_exe_progname(), 1))
			bar = 0;
	}
	if (lo == 0 || lo >= hi) {
		errno = EINVAL;
		return -1;
	}
	/* Whole bins of bar bytes from an aligned lpc: a bin never
	 * straddles two functions' aligned starts.  Bar 0: one bin. */
	if (bar == 0)
		bar = hi - lo;
	else {
		lo &= ~(bar - 1);
		hi = (hi + bar - 1) & ~(bar - 1);
	}
	bytes = sizeof(struct hdr) + MON_NFUNC * sizeof(struct cnt) +
	    ((hi - lo) / bar) * sizeof(WORD) + sizeof(WORD) - 1;
	buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		MON_ERR("monstartup: no memory for the profile buffer\n");
		errno = ENOMEM;
		return -1;
	}
	fresh = buf;
	rc = __monitor((int (*)(void))lo, (int (*)(void))hi, buf,
	    bytes / sizeof(WORD), MON_NFUNC);
	fresh = NULL;
	if (rc != 0) {
		munmap(buf, bytes);
		return -1;
	}
	return 0;
}

MON_WEAK_ALIAS(__monstartup, monstartup);

static void
switch_lock(void)
{
	unsigned ticket = MON_ADD(&sw.next, 1), now;

	for (;;) {
		now = MON_LOAD(&sw.slot[ticket % SW_SLOTS]);
		if (__atomic_load_n(&sw.serving, __ATOMIC_SEQ_CST) == ticket)
			return;
		futex(&sw.slot[ticket % SW_SLOTS], FUTEX_WAIT_PRIVATE, now);
	}
}

/* Take the lock only if nobody holds or waits for it: 1, or 0. */
static int
switch_trylock(void)
{
	unsigned t = MON_LOAD(&sw.serving);

	return MON_CAS(&sw.next, &t, t + 1);
}

static void
switch_unlock(void)
{
	unsigned next = MON_LOAD(&sw.serving) + 1;

	/*
	 * Store, then load, in that order (sequentially consistent): a
	 * release store and an acquire load may pass each other, and a
	 * waiter that took its ticket meanwhile would sleep unwoken.
	 */
	__atomic_store_n(&sw.serving, next, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&sw.next, __ATOMIC_SEQ_CST) != next) {
		MON_ADD(&sw.slot[next % SW_SLOTS], 1);
		futex(&sw.slot[next % SW_SLOTS], FUTEX_WAKE_PRIVATE, INT_MAX);
	}
}

/*
 * Switch to on, and the sampler with it if sampler; the previous mode.
 * A moncontrol switches the sampler only while profiling runs: a stop
 * switches it itself, then takes it down, under the lock.
 */
static int
switch_to(int on, int sampler)
{
	int prev = __mon_mode_on();

	if (prev == on)
		return prev;
	/* The sampler switches under the old mode: its drain counts
	 * samples by the mode they were taken in. */
	if (!on && sampler)
		__mon_sampler_control(0);
	__mon_arcs_control(on);
	__mon_cells_control(on);
	if (on && sampler)
		__mon_sampler_control(1);
	__mon_mode_set(on);
	return prev;
}

/*
 * Whether a moncontrol may switch the sampler (see switch_to): not in a
 * confined program, whose filter may refuse it the sampler's calls (its
 * writer process drains the samples, and the sampler ends with it).
 */
static int
sampling(void)
{
	return MON_LOAD(&state) == STATE_ON && !__mon_seccomp_confined();
}

/*
 * Under the lock: apply what nested calls left, then unlock; and if one
 * came meanwhile while the lock is free, take it again for that.
 */
static void
switch_pending(void)
{
	int next;

	do {
		while ((next = __atomic_exchange_n(&sw.pending, -1,
		    __ATOMIC_ACQ_REL)) != -1)
			switch_to(next, sampling());
		switch_unlock();
	} while (MON_LOAD(&sw.pending) != -1 && switch_trylock());
}

/*
 * -sigdump: write the interval since the last dump, numbered, and start
 * the next at one instant.  Under the switch lock, so that no other
 * thread's moncontrol takes the tallies' snaps meanwhile: every tally's
 * snap is taken, as moncontrol(0) takes it, and the mode set off for
 * the writers (the hot paths never read it), which report the snaps;
 * zeroing then excludes each tally's snap, and the mode is set on again
 * without moncontrol(1)'s exclusion.  So the calls made while the file
 * is written (all of a thread that starts and ends meanwhile) count in
 * the next interval: written after the snaps were taken, they were lost
 * before.  The sampler is drained first; samples taken while the file
 * is written are dropped (estimates; calls are counts).  Where the lock is not to be had (a handler over this
 * thread's own moncontrol, or another thread's switching), the interval
 * ends when the file is written, and calls made meanwhile are lost.
 * 0, or -1 as __mon_monitor_dump (nothing zeroed).
 */
int
__mon_monitor_dump_interval(void)
{
	static int dumping;
	int rc, on = 0, locked, idle = 0;

	if (!unconfined() || here() != 0 || !__mon_monitor_running())
		return -1;
	/*
	 * One interval at a time: a second dump between another's write
	 * and its zeroing would write those counts again (the signal that
	 * asked for it came while a dump was under way, which serves it).
	 */
	if (!MON_CAS(&dumping, &idle, 1))
		return -1;
	if ((locked = !ticketed && switch_trylock()) != 0) {
		ticketed = 1;
		if ((on = __mon_mode_on()) != 0) {
			/* The samples so far, in the mode they were taken in. */
			__mon_sampler_drain();
			__mon_arcs_control(0);
			__mon_cells_control(0);
			__mon_mode_set(0);
		}
	}
	if ((rc = __mon_dump_write(1)) == 0) {
		__mon_cells_zero();
		__mon_arcs_zero();
		__mon_hist_reset();
	}
	if (locked) {
		if (on)
			__mon_mode_set(1);
		switch_pending();
		ticketed = 0;
	}
	MON_STORE(&dumping, 0);
	return rc;
}

/*
 * A stop (state STOPPING): off, and the sampler down, under the lock, so
 * that no moncontrol in another thread is switching the events while
 * their rings are unmapped (8 togglers and monitor(0): SIGSEGV in 2 of
 * 30 runs).  A confined program's sampler is left as it is: its filter
 * may refuse the calls, its helper thread has gone already, and the
 * writer process drains it before it writes.
 */
static void
stop_switching(void)
{
	int outer = ticketed;

	if (outer) {
		/* monitor(0) from a handler over this thread's moncontrol:
		 * the lock is this thread's; off is left to its holder. */
		__moncontrol(0);
		if (!__mon_seccomp_confined())
			__mon_sampler_stop();
		return;
	}
	ticketed = 1;
	switch_lock();
	switch_to(0, !__mon_seccomp_confined());
	if (!__mon_seccomp_confined())
		__mon_sampler_stop();
	switch_pending();
	ticketed = 0;
}

/* moncontrol(mode): 0 stops counting and sampling, else resumes; returns
 * the previous mode. */
int
__moncontrol(int mode)
{
	int on = mode != 0, prev;

	if (here() != 0)
		return __mon_mode_on();
	if (ticketed) {
		/* A signal handler, over this thread's own call. */
		prev = __mon_mode_on();
		MON_STORE(&sw.pending, on);
		if (switch_trylock())
			switch_pending();
		return prev;
	}
	ticketed = 1;
	switch_lock();
	prev = switch_to(on, sampling());
	switch_pending();
	ticketed = 0;
	return prev;
}

MON_WEAK_ALIAS(__moncontrol, moncontrol);
