/* SPDX-License-Identifier: MIT */
/*
 * profil.c - the PC histogram: profil(2), the bin arithmetic, and the
 * sampler that feeds it (perf_event when the kernel allows it, see
 * perf.c; otherwise setitimer(ITIMER_PROF) and a SIGPROF handler).
 *
 * __mon_hist_tick runs in signal handlers and in the perf drain: it
 * only does atomics on the bins and never blocks.
 */
#include <sys/mman.h>
#include <sys/time.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "internal.h"

#define BIN_MAX		65535	/* a WORD saturates, never wraps */
#define USER_HZ		100	/* what an unmeasured itimer is assumed to give */

static struct sigaction old_prof;
static struct itimerval old_timer;
static int told;		/* SIGPROF conflict reported */

/*
 * profil(2): the bin of pc is ((pc - offset) / 2) * scale / 65536, in
 * wide arithmetic so no pc overflows.  SIZE_MAX for pc < offset.
 */
size_t
__mon_profil_index(uintptr_t pc, uintptr_t offset, unsigned int scale)
{
	unsigned __int128 i;

	if (pc < offset)
		return (size_t)-1;
	i = (unsigned __int128)((pc - offset) / 2) * scale / 65536;
	return i > (size_t)-1 ? (size_t)-1 : (size_t)i;
}

/*
 * Point the sampler at bins: uniform over [lpc, hpc) when scale is 0,
 * else profil's formula.  A seqlock: a sample that sees a change in
 * progress is dropped, never put in a wrong buffer.
 */
void
__mon_hist_set(WORD *bins, size_t nbins, uintptr_t lpc, uintptr_t hpc,
    uintptr_t offset, unsigned int scale)
{
	struct __mon_hist *h = &__mon_state.hist;

	MON_STORE(&h->seq, h->seq + 1);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&h->bins, bins, __ATOMIC_RELAXED);
	__atomic_store_n(&h->nbins, nbins, __ATOMIC_RELAXED);
	__atomic_store_n(&h->lpc, lpc, __ATOMIC_RELAXED);
	__atomic_store_n(&h->hpc, hpc, __ATOMIC_RELAXED);
	__atomic_store_n(&h->offset, offset, __ATOMIC_RELAXED);
	__atomic_store_n(&h->scale, scale, __ATOMIC_RELAXED);
	MON_STORE(&h->seq, h->seq + 1);
}

void
__mon_hist_tick(uintptr_t pc)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_hist *h = &st->hist;
	uintptr_t lpc, hpc, off;
	unsigned int seq, scale;
	size_t n, i;
	WORD *bins, v;

	if (!MON_LOAD(&st->on))
		return;
	MON_ADD(&st->samples, 1);
	seq = MON_LOAD(&h->seq);
	bins = __atomic_load_n(&h->bins, __ATOMIC_RELAXED);
	n = __atomic_load_n(&h->nbins, __ATOMIC_RELAXED);
	lpc = __atomic_load_n(&h->lpc, __ATOMIC_RELAXED);
	hpc = __atomic_load_n(&h->hpc, __ATOMIC_RELAXED);
	off = __atomic_load_n(&h->offset, __ATOMIC_RELAXED);
	scale = __atomic_load_n(&h->scale, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if ((seq & 1) != 0 || MON_LOAD(&h->seq) != seq || bins == NULL)
		return;
	if (scale != 0)
		i = __mon_profil_index(pc, off, scale);
	else if (pc >= lpc && pc < hpc)
		i = (size_t)((unsigned __int128)(pc - lpc) * n / (hpc - lpc));
	else
		i = (size_t)-1;
	if (i >= n) {
		MON_ADD(&st->outside, 1);
		return;
	}
	v = __atomic_load_n(&bins[i], __ATOMIC_RELAXED);
	do {
		if (v == BIN_MAX) {
			MON_ADD(&st->saturated, 1);
			return;
		}
	} while (!__atomic_compare_exchange_n(&bins[i], &v, v + 1, 1,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/*
 * profil(samples, size, offset, scale): sample into samples (size
 * bytes) with the formula above; scale 0 stops it (a running monitor()
 * histogram then takes over again).  -1 with EFAULT for a buffer that is
 * not mapped, EINVAL for one too small or misaligned.
 */
int
__profil(unsigned short *samples, size_t size, size_t offset,
    unsigned int scale)
{
	struct __mon_state *st = &__mon_state;
	uintptr_t page, end;
	long pgsz;

	if (scale == 0) {
		if (MON_LOAD(&st->active))
			__mon_hist_set(st->out_bins, st->out_nbins,
			    (uintptr_t)st->out.lpc, (uintptr_t)st->out.hpc,
			    0, 0);
		else
			__mon_hist_set(NULL, 0, 0, 0, 0, 0);
		return 0;
	}
	if (samples == NULL) {
		errno = EFAULT;
		return -1;
	}
	if (size < sizeof(WORD) || ((uintptr_t)samples & 1) != 0) {
		errno = EINVAL;
		return -1;
	}
	/* A buffer that is not mapped would fault in the sampler. */
	pgsz = sysconf(_SC_PAGESIZE);
	page = (uintptr_t)samples & ~(uintptr_t)(pgsz - 1);
	end = (uintptr_t)samples + size;
	if (end < (uintptr_t)samples ||
	    msync((void *)page, end - page, MS_ASYNC) != 0) {
		errno = EFAULT;
		return -1;
	}
	__mon_hist_set(samples, size / sizeof(WORD), 0, 0, offset, scale);
	if (!MON_LOAD(&st->on))
		__moncontrol(1);
	return __mon_sampler_start();
}

MON_WEAK_ALIAS(__profil, profil);

/* ------------------------------------------------------------ itimer */

static void
prof_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	uintptr_t pc;
	int saved = errno;

	(void)sig;
	(void)si;
#if defined(__x86_64__)
	pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	pc = (uintptr_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	pc = (uintptr_t)uc->uc_mcontext.pc;
#else
	pc = 0;
	(void)uc;
#endif
	__mon_hist_tick(pc);
	errno = saved;
}

static int
itimer_arm(long rate)
{
	struct itimerval it;

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 1000000 / rate;
	if (it.it_interval.tv_usec == 0)
		it.it_interval.tv_usec = 1;
	it.it_value = it.it_interval;
	return setitimer(ITIMER_PROF, &it, NULL);
}

static int
itimer_start(long rate)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = prof_handler;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, &old_prof) != 0)
		return -1;
	if (old_prof.sa_handler != SIG_DFL && old_prof.sa_handler != SIG_IGN &&
	    !told) {
		told = 1;
		MON_ERR("monprof: the program's SIGPROF handler is replaced "
		    "while profiling\n");
	}
	getitimer(ITIMER_PROF, &old_timer);
	if (itimer_arm(rate) != 0) {
		sigaction(SIGPROF, &old_prof, NULL);
		return -1;
	}
	return 0;
}

/* Tell once if the program took SIGPROF from the itimer sampler. */
static void
itimer_check(void)
{
	struct sigaction cur;

	if (sigaction(SIGPROF, NULL, &cur) == 0 &&
	    cur.sa_sigaction != prof_handler && !told) {
		told = 1;
		MON_ERR("monprof: the program installed its own SIGPROF "
		    "handler: no samples after that\n");
	}
}

static long
cpu_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
		return 0;
	return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* ------------------------------------------------------------ sampler */

/* Start sampling at PROFFLAGS -rate (default 1000 Hz); 0, or -1. */
int
__mon_sampler_start(void)
{
	struct __mon_state *st = &__mon_state;
	long rate;

	if (st->sampler != MON_SAMPLER_NONE)
		return 0;
	rate = st->env.rate > 0 ? st->env.rate : MON_RATE_DEFAULT;
	st->rate = rate;
	if (!st->env.itimer && __mon_perf_start(rate) == 0) {
		st->sampler = st->sampled = MON_SAMPLER_PERF;
		return 0;
	}
	if (itimer_start(rate) == 0) {
		st->sampler = st->sampled = MON_SAMPLER_ITIMER;
		st->cpu_ns = 0;
		st->cpu_since = cpu_now();
		return 0;
	}
	MON_ERR("monprof: no sampler (perf_event_open and setitimer "
	    "failed): call counts only\n");
	return -1;
}

void
__mon_sampler_drain(void)
{
	if (__mon_state.sampler == MON_SAMPLER_PERF)
		__mon_perf_drain(1);
	else if (__mon_state.sampler == MON_SAMPLER_ITIMER)
		itimer_check();
}

void
__mon_sampler_stop(void)
{
	struct __mon_state *st = &__mon_state;
	static const struct itimerval zero;

	if (st->sampler == MON_SAMPLER_PERF)
		__mon_perf_stop();
	else if (st->sampler == MON_SAMPLER_ITIMER) {
		itimer_check();
		if (MON_LOAD(&st->on))
			st->cpu_ns += cpu_now() - st->cpu_since;
		setitimer(ITIMER_PROF, &zero, NULL);
		if (old_timer.it_interval.tv_sec != 0 ||
		    old_timer.it_interval.tv_usec != 0)
			setitimer(ITIMER_PROF, &old_timer, NULL);
		sigaction(SIGPROF, &old_prof, NULL);
	}
	/* The rate stays recorded for the writer. */
	st->sampler = MON_SAMPLER_NONE;
}

/* moncontrol: keep the itimer's CPU-time account, empty perf's ring. */
void
__mon_sampler_control(int on)
{
	struct __mon_state *st = &__mon_state;

	if (st->sampler == MON_SAMPLER_ITIMER) {
		if (on)
			st->cpu_since = cpu_now();
		else
			st->cpu_ns += cpu_now() - st->cpu_since;
	} else if (st->sampler == MON_SAMPLER_PERF)
		__mon_perf_enable(on);
}

/*
 * The rate to record.  perf's task clock delivers what was asked.  The
 * itimer is checked only at the kernel's tick, so its rate is measured:
 * samples per CPU-second of the process while on; too little CPU time
 * to measure gives USER_HZ (or the request, if lower).
 */
long
__mon_sampler_rate(void)
{
	struct __mon_state *st = &__mon_state;
	long ns, r;

	if (st->rate == 0)
		return 0;
	if (st->sampled == MON_SAMPLER_ITIMER) {
		ns = st->cpu_ns;
		if (st->sampler == MON_SAMPLER_ITIMER && MON_LOAD(&st->on))
			ns += cpu_now() - st->cpu_since;
		if (ns >= 100000000L && st->samples > 0) {
			r = (long)(((double)st->samples * 1e9) / ns + 0.5);
			return r < st->rate ? r : st->rate;
		}
		return st->rate < USER_HZ ? st->rate : USER_HZ;
	}
	return st->rate;
}

/* fork child: the sampler is the parent's; start one of its own. */
void
__mon_sampler_child(void)
{
	struct __mon_state *st = &__mon_state;

	if (st->sampler == MON_SAMPLER_PERF) {
		__mon_perf_forget();
		st->sampler = MON_SAMPLER_NONE;
		__mon_sampler_start();
	} else if (st->sampler == MON_SAMPLER_ITIMER) {
		/* setitimer timers are not inherited; the handler is. */
		itimer_arm(st->rate);
		st->cpu_ns = 0;
		st->cpu_since = cpu_now();
	}
}
