/* SPDX-License-Identifier: MIT */
/*
 * hist.c - the PC histogram: the profile's (monitor()'s buffer, uniform
 * over [lpc, hpc)), where samples go now (it, or profil(2)'s buffer),
 * and the count of samples taken and dropped; those outside the
 * profile's histogram are kept by pc in pcs.c.
 *
 * __mon_hist_tick runs in signal handlers and in the perf drain: it
 * only does atomics on the bins and never blocks.
 */
#include <sys/mman.h>

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "sampler.h"

#define BIN_MAX		65535	/* a WORD saturates, never wraps */

/*
 * Where a sample goes: uniform over [lpc, hpc), profil(2)'s formula, or
 * monitor(MON_RANGES)'s ranges (by decreasing lowpc).
 */
static struct {
	unsigned int	 seq;		/* odd while being changed */
	WORD		*bins;
	size_t		 nbins;
	uintptr_t	 lpc;		/* uniform mode (scale == 0) */
	uintptr_t	 hpc;
	uintptr_t	 offset;	/* profil mode */
	unsigned int	 scale;
	const struct monitor_args *ranges;	/* ranges mode, if nranges */
	size_t		 nranges;
} to;

/* The profile's histogram, what the writers write; none when stopped. */
static struct {
	WORD		*bins;
	size_t		 nbins;
	size_t		 page;		/* bins the runtime mapped: page size */
	uintptr_t	 lpc, hpc;
	const struct monitor_args *ranges;
	size_t		 nranges;
} profile;

static struct __mon_hist_counts n;
static long owner;	/* the generation of the samples the bins hold */

static void zero_own(void);

/*
 * A fork child's bins and counts are its parent's until it first uses
 * them (__mon_self_take), as pcs.c's tables and stacks.c's stacks, each
 * of which zeroes its own: called first by every function that counts
 * or reads.  1 if it zeroed them.
 */
static int
fresh(void)
{
	if (!__mon_self_take(&owner))
		return 0;
	zero_own();
	return 1;
}

/* -threads: every sample is also kept by (thread, pc) in pcs.c. */
static int threads;

void
__mon_hist_threads(int on)
{
	MON_STORE(&threads, on);
}

/* Whether samples keep their call stacks (PROFFLAGS -nostacks: not). */
static int stacks = 1;

void
__mon_hist_stacks(int on)
{
	MON_STORE(&stacks, on);
}

int
__mon_hist_with_stacks(void)
{
	return MON_LOAD(&stacks);
}

/*
 * profil(2): the bin of pc is ((pc - offset) / 2) * scale / 65536, in
 * wide arithmetic so no pc overflows.  SIZE_MAX for pc < offset.
 */
size_t
__mon_hist_index(uintptr_t pc, uintptr_t offset, unsigned int scale)
{
	unsigned __int128 i;

	if (pc < offset)
		return (size_t)-1;
	i = (unsigned __int128)((pc - offset) / 2) * scale / 65536;
	return i > (size_t)-1 ? (size_t)-1 : (size_t)i;
}

/*
 * The uniform histogram's bin of pc, of nb over [lpc, hpc): SIZE_MAX
 * outside.  The writers use it too (gmonout.c's empty bins).
 */
size_t
__mon_hist_bin(uintptr_t pc, uintptr_t lpc, uintptr_t hpc, size_t nb)
{
	if (pc < lpc || pc >= hpc)
		return (size_t)-1;
	return (size_t)((unsigned __int128)(pc - lpc) * nb / (hpc - lpc));
}

/*
 * Point the sampler at bins: uniform over [lpc, hpc) when scale is 0,
 * else profil's formula.  A seqlock: a sample that sees a change in
 * progress is dropped, never put in a wrong buffer.
 */
static void
aim(WORD *bins, size_t nbins, uintptr_t lpc, uintptr_t hpc, uintptr_t offset,
    unsigned int scale)
{
	MON_STORE(&to.seq, to.seq + 1);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&to.ranges, profile.ranges, __ATOMIC_RELAXED);
	__atomic_store_n(&to.nranges, scale == 0 ? profile.nranges : 0,
	    __ATOMIC_RELAXED);
	__atomic_store_n(&to.bins, bins, __ATOMIC_RELAXED);
	__atomic_store_n(&to.nbins, nbins, __ATOMIC_RELAXED);
	__atomic_store_n(&to.lpc, lpc, __ATOMIC_RELAXED);
	__atomic_store_n(&to.hpc, hpc, __ATOMIC_RELAXED);
	__atomic_store_n(&to.offset, offset, __ATOMIC_RELAXED);
	__atomic_store_n(&to.scale, scale, __ATOMIC_RELAXED);
	MON_STORE(&to.seq, to.seq + 1);
}

/* The counter of monitor(MON_RANGES)'s ranges r[0..nr) that pc is in. */
static unsigned int *
counter(const struct monitor_args *r, size_t nr, uintptr_t pc)
{
	size_t lo = 0, hi = nr, mid, len;
	uintptr_t a;

	while (lo < hi) {		/* the first range below pc */
		mid = lo + (hi - lo) / 2;
		if ((uintptr_t)r[mid].lowpc > pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == nr || pc >= (uintptr_t)r[lo].highpc)
		return NULL;
	a = (uintptr_t)r[lo].lowpc;
	len = r[lo].bufsiz / sizeof(unsigned int);
	return &r[lo].buffer[(unsigned __int128)(pc - a) * len /
	    ((uintptr_t)r[lo].highpc - a)];
}

/* Count one in c, which saturates rather than wraps. */
static void
count32(unsigned int *c)
{
	unsigned int v = __atomic_load_n(c, __ATOMIC_RELAXED);

	do {
		if (v == UINT_MAX) {
			MON_ADD(&n.saturated, 1);
			return;
		}
	} while (!__atomic_compare_exchange_n(c, &v, v + 1, 1,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}

/*
 * A sample at pc of thread tid (0: this thread, in a signal handler):
 * whether it was taken (profiling is on).
 */
static int
tick(uintptr_t pc, long tid)
{
	const struct monitor_args *ranges;
	unsigned int seq, scale, *c;
	uintptr_t lpc, hpc, off;
	size_t nb, i, nr;
	WORD *bins, v;
	int th = MON_LOAD(&threads);

	if (!__mon_mode_on())
		return 0;
	fresh();
	MON_ADD(&n.samples, 1);
	/* -threads: the histogram is only gmon.out's, the rest unwritten. */
	if (th && __mon_pcs_add_sid(pc, __mon_cells_sid(tid)) != 0)
		MON_ADD(&n.unkept, 1);
	seq = MON_LOAD(&to.seq);
	ranges = __atomic_load_n(&to.ranges, __ATOMIC_RELAXED);
	nr = __atomic_load_n(&to.nranges, __ATOMIC_RELAXED);
	bins = __atomic_load_n(&to.bins, __ATOMIC_RELAXED);
	nb = __atomic_load_n(&to.nbins, __ATOMIC_RELAXED);
	lpc = __atomic_load_n(&to.lpc, __ATOMIC_RELAXED);
	hpc = __atomic_load_n(&to.hpc, __ATOMIC_RELAXED);
	off = __atomic_load_n(&to.offset, __ATOMIC_RELAXED);
	scale = __atomic_load_n(&to.scale, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if ((seq & 1) != 0 || MON_LOAD(&to.seq) != seq)
		return 1;
	if (nr != 0) {
		/* No histogram: every sample is outside it, kept by pc. */
		MON_ADD(&n.outside, 1);
		if ((c = counter(ranges, nr, pc)) != NULL)
			count32(c);
		else if (!th)
			__mon_pcs_add(pc);
		return 1;
	}
	if (bins == NULL)
		return 1;
	i = scale != 0 ? __mon_hist_index(pc, off, scale) :
	    __mon_hist_bin(pc, lpc, hpc, nb);
	if (i >= nb) {
		/* Outside the profile's histogram: kept by pc (pcs.c). */
		MON_ADD(&n.outside, 1);
		if (scale == 0 && !th)
			__mon_pcs_add(pc);
		return 1;
	}
	v = __atomic_load_n(&bins[i], __ATOMIC_RELAXED);
	do {
		if (v == BIN_MAX) {
			MON_ADD(&n.saturated, 1);
			return 1;
		}
	} while (!__atomic_compare_exchange_n(&bins[i], &v, v + 1, 1,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return 1;
}

void
__mon_hist_tick(uintptr_t pc, long tid)
{
	tick(pc, tid);
}

/*
 * A sample with its call stack pc[0..depth), the sampled pc first, of thread
 * tid as __mon_hist_tick's: the stack is kept (stacks.c) if the sample
 * is, by thread under -threads.
 */
void
__mon_hist_stack(const uintptr_t *pc, size_t depth, long tid)
{
	if (depth == 0 || !tick(pc[0], tid) || !MON_LOAD(&stacks))
		return;
	__mon_stacks_add(pc, depth,
	    MON_LOAD(&threads) ? __mon_cells_sid(tid) : 0);
}

/*
 * The bins set to zero.  Where the runtime mapped them, their whole
 * pages are dropped (MADV_DONTNEED), not written: they read as zeros,
 * and in a fork child nothing is copied.  A memset of a program's 9 MB
 * of text's 2.3 MB of bins copied 560 pages in every child, 3.5 ms of
 * CPU a fork, where plain took 0.2 ms.
 */
static void
zero_bins(void)
{
	uintptr_t a = (uintptr_t)profile.bins, e, pa, pe;
	size_t pg = profile.page;
	int saved = errno;

	e = a + profile.nbins * sizeof(WORD);
	pa = pg != 0 ? (a + pg - 1) & ~(uintptr_t)(pg - 1) : e;
	pe = pg != 0 ? e & ~(uintptr_t)(pg - 1) : e;
	if (pa < pe && __mon_seccomp_may(MON_SECCOMP_ZERO) &&
	    madvise((void *)pa, pe - pa, MADV_DONTNEED) == 0) {
		/* Bins on pages that also hold others: zeros where not. */
		__mon_reset_zero(profile.bins, pa - a);
		__mon_reset_zero((void *)pe, e - pe);
	} else
		memset(profile.bins, 0, profile.nbins * sizeof(WORD));
	errno = saved;
}

static void
zero_ranges(void)
{
	size_t i, k;

	for (i = 0; i < profile.nranges; i++)
		for (k = 0; k < profile.ranges[i].bufsiz / sizeof(unsigned int);
		    k++)
			if (__atomic_load_n(&profile.ranges[i].buffer[k],
			    __ATOMIC_RELAXED) != 0)
				__atomic_store_n(&profile.ranges[i].buffer[k],
				    0, __ATOMIC_RELAXED);
}

/*
 * monitor(): the profile's histogram, nbins over [lpc, hpc), from zero;
 * own: bins lie in private anonymous memory the runtime mapped
 * (monstartup's), whose pages a reset may drop.
 */
void
__mon_hist_start(WORD *bins, size_t nbins, uintptr_t lpc, uintptr_t hpc,
    int own)
{
	fresh();
	profile.page = own ? (size_t)sysconf(_SC_PAGESIZE) : 0;
	profile.ranges = NULL;
	profile.nranges = 0;
	profile.bins = bins;
	profile.nbins = nbins;
	profile.lpc = lpc;
	profile.hpc = hpc;
	MON_STORE(&n.saturated, 0);
	MON_STORE(&n.outside, 0);
	MON_STORE(&n.samples, 0);
	MON_STORE(&n.unkept, 0);
	__mon_pcs_reset();
	__mon_stacks_reset();
	aim(bins, nbins, lpc, hpc, 0, 0);
}

/* monitor(MON_RANGES): n ranges r, by decreasing lowpc, from zero. */
void
__mon_hist_ranges(const struct monitor_args *r, size_t nr)
{
	__mon_hist_start(NULL, 0, (uintptr_t)r[nr - 1].lowpc,
	    (uintptr_t)r[0].highpc, 0);
	profile.ranges = r;
	profile.nranges = nr;
	zero_ranges();
	aim(NULL, 0, 0, 0, 0, 0);
}

/* The writer: f(pc, count, arg) for each counter of the ranges in [lo, hi). */
void
__mon_hist_ranges_each(uintptr_t lo, uintptr_t hi,
    void (*f)(uintptr_t, long, void *), void *arg)
{
	const struct monitor_args *r;
	size_t i, k, len;
	uintptr_t a, pc;
	unsigned int v;

	fresh();
	for (i = 0; i < profile.nranges; i++) {
		r = &profile.ranges[i];
		a = (uintptr_t)r->lowpc;
		len = r->bufsiz / sizeof(unsigned int);
		for (k = 0; k < len; k++) {
			/* The lowest pc counted in counter k. */
			pc = a + (uintptr_t)(((unsigned __int128)k *
			    ((uintptr_t)r->highpc - a) + len - 1) / len);
			if (pc >= lo && pc < hi &&
			    (v = __atomic_load_n(&r->buffer[k],
			    __ATOMIC_RELAXED)) != 0)
				f(pc, (long)v, arg);
		}
	}
}

/* monitor(0), once written: no histogram, samples go nowhere. */
void
__mon_hist_stop(void)
{
	profile.ranges = NULL;
	profile.nranges = 0;
	aim(NULL, 0, 0, 0, 0, 0);
	profile.bins = NULL;
	profile.nbins = 0;
}

/*
 * profil(): samples go to bins by its formula; scale 0 gives them back
 * to the profile's histogram, if any.
 */
void
__mon_hist_profil(WORD *bins, size_t nbins, uintptr_t offset,
    unsigned int scale)
{
	if (scale == 0)
		aim(profile.bins, profile.nbins, profile.lpc, profile.hpc, 0, 0);
	else
		aim(bins, nbins, 0, 0, offset, scale);
}

/* The profile's histogram for the writers: bins (NULL: none), range. */
WORD *
__mon_hist_get(size_t *nbins, uintptr_t *lpc, uintptr_t *hpc)
{
	fresh();
	*nbins = profile.nbins;
	*lpc = profile.lpc;
	*hpc = profile.hpc;
	return profile.bins;
}

/* Samples the kernel says it lost (perf.c). */
void
__mon_hist_lost(long k)
{
	fresh();
	MON_ADD(&n.lost, k);
}

void
__mon_hist_counts(struct __mon_hist_counts *c)
{
	fresh();
	c->samples = MON_LOAD(&n.samples);
	c->saturated = MON_LOAD(&n.saturated);
	c->outside = MON_LOAD(&n.outside);
	c->lost = MON_LOAD(&n.lost);
	c->unkept = MON_LOAD(&n.unkept);
}

/* The bins, the ranges' counters and the counts to zero. */
static void
zero_own(void)
{
	if (profile.bins != NULL)
		zero_bins();
	zero_ranges();
	MON_RESET(&n.samples, 0);
	MON_RESET(&n.saturated, 0);
	MON_RESET(&n.outside, 0);
	MON_RESET(&n.lost, 0);
	MON_RESET(&n.unkept, 0);
}

/* Start from zero: the bins, the counts, the pcs and stacks (-sigdump). */
void
__mon_hist_reset(void)
{
	if (!fresh())
		zero_own();
	__mon_pcs_reset();
	__mon_stacks_reset();
}
