/* SPDX-License-Identifier: MIT */
/*
 * gmonout.c - writes gmon.out for GNU gprof in -pg programs: the "gmon"
 * header (version 1), mon.out's histogram at the sampler's real rate
 * (one record per chunk of 32 bins with samples, or with PROFFLAGS -classic
 * one for all), and one arc record per (caller pc, callee), all with
 * link-time addresses, in native byte order.
 *
 * gprof keeps an arc only if both ends fall in the executable's symbols,
 * so calls from outside it (main from libc, a qsort comparator, a
 * callback from a shared object) get the pseudo-caller "<external>",
 * a function linked into the executable with the runtime.
 * Whole or not at all (outfile.c), async-signal-safe.
 */
#include <string.h>

#include "writer.h"

#define ARC_MAX			0xffffffffUL	/* counts are 32-bit */

/* Never called: its address is the caller of calls from outside. */
void __attribute__((__noinline__, __noclone__, __used__))
__mon_gmonout_caller(void) __asm__("\"<external>\"");

void __attribute__((__noinline__, __noclone__, __used__))
__mon_gmonout_caller(void)
{
	__asm__ volatile("");
}

static void
put_tag(struct __mon_wbuf *w, unsigned char tag, const void *rec, size_t len)
{
	__mon_outfile_put(w, &tag, 1);
	__mon_outfile_put(w, rec, len);
}

/* Bins [I, J) of BINS, those of [A, B) (the runtime's code) as zeros. */
static void
put_bins(struct __mon_wbuf *w, const WORD *bins, size_t i, size_t j,
    size_t a, size_t b)
{
	static const WORD zero[512];
	size_t k, n;

	for (k = i; k < j; k += n) {
		if (k < a || k >= b) {
			n = (k < a ? (a < j ? a : j) : j) - k;
			__mon_outfile_put(w, bins + k, n * sizeof(WORD));
			continue;
		}
		n = (b < j ? b : j) - k;
		if (n > sizeof(zero) / sizeof(WORD))
			n = sizeof(zero) / sizeof(WORD);
		__mon_outfile_put(w, zero, n * sizeof(WORD));
	}
}

/*
 * Bin K of N BINS goes in a record: not zero as written (0 in [A, B)),
 * or the first or the last, so that the records span the histogram's
 * range and prof tells another program's gmon.out from this one's.
 */
static int
kept(const WORD *bins, size_t k, size_t n, size_t a, size_t b)
{
	return k == 0 || k == n - 1 || ((k < a || k >= b) &&
	    MON_LOAD(&bins[k]) != 0);
}

/*
 * The records are the histogram's chunks of this many bins, counted
 * from its first, that hold a bin kept: of the same ranges in every run
 * of the program, so that gprof sums several files (it adds a record
 * to one of the same range and refuses one that overlaps another; runs
 * of bins, as these were, differ from run to run).  A record's header
 * (41 bytes) costs as much as 20 bins.
 */
#define HIST_CHUNK	32

/*
 * The histogram's records: NBINS BINS of equal size over [LINK, LINK +
 * SPAN) at RATE samples a second, those of [A, B) written as zeros.
 * One record over the whole range where ONE asks for it (PROFFLAGS
 * -classic) or the bins' size is fractional, whose edges no record
 * could name.  Else one record per chunk of HIST_CHUNK bins that holds
 * a bin that is not zero (and the first and the last), which gprof
 * reads as one histogram, so that the file is as long as what ran (a
 * 9 MB text's 2.3 MB of bins).  merge.c writes a merged gmon.out's with
 * it too.
 */
void
__mon_gmonout_hist(struct __mon_wbuf *w, const WORD *bins, size_t nbins,
    uintptr_t link, uintptr_t span, long rate, size_t a, size_t b, int one)
{
	struct gmon_hist h;
	uintptr_t bar;
	size_t i, j, k;

	if (bins == NULL || nbins == 0)
		return;
	memset(&h, 0, sizeof(h));
	/* No sampler ran: no samples, but gprof divides by the rate. */
	h.prof_rate = (uint32_t)(rate > 0 ? rate : MON_RATE_DEFAULT);
	memcpy(h.dimen, "seconds", sizeof("seconds"));
	h.dimen_abbrev = 's';
	bar = span / nbins;
	if (one || span % nbins != 0) {
		h.low_pc = link;
		h.high_pc = link + span;
		h.hist_size = (uint32_t)nbins;
		put_tag(w, GMON_TAG_TIME_HIST, &h, sizeof(h));
		put_bins(w, bins, 0, nbins, a, b);
		return;
	}
	for (i = 0; i < nbins; i = j) {
		j = nbins - i < HIST_CHUNK ? nbins : i + HIST_CHUNK;
		for (k = i; k < j && !kept(bins, k, nbins, a, b); k++)
			;
		if (k == j)
			continue;
		h.low_pc = link + i * bar;
		h.high_pc = link + j * bar;
		h.hist_size = (uint32_t)(j - i);
		put_tag(w, GMON_TAG_TIME_HIST, &h, sizeof(h));
		put_bins(w, bins, i, j, a, b);
	}
}

static void
hist(struct __mon_wbuf *w)
{
	uintptr_t lo, hi, rlo, rhi;
	size_t nbins, a, b;
	WORD *bins = __mon_hist_get(&nbins, &lo, &hi);

	if (bins == NULL || nbins == 0)
		return;
	/*
	 * The bins of the runtime's own code are written empty: gprof
	 * would name its functions as the program's (its stubs, its
	 * writer).  prof reads them in mon.out and says how many.
	 */
	__mon_exe_runtime(&rlo, &rhi);
	a = b = nbins;
	if (rlo < rhi && rlo < hi && rhi > lo) {
		a = __mon_hist_bin(rlo > lo ? rlo : lo, lo, hi, nbins);
		b = __mon_hist_bin((rhi < hi ? rhi : hi) - 1, lo, hi,
		    nbins) + 1;
	}
	__mon_gmonout_hist(w, bins, nbins, __mon_exe_linktime(lo), hi - lo,
	    __mon_sampler_rate(), a, b, __mon_env_get()->classic);
}

/* N calls from FROM to SELF (link-time pcs): records of 32-bit counts. */
void
__mon_gmonout_arc(struct __mon_wbuf *w, uintptr_t from, uintptr_t self,
    long n)
{
	struct gmon_arc a;

	a.from_pc = from;
	a.self_pc = self;
	for (; n > 0; n -= (long)a.count) {
		a.count = (uint32_t)((unsigned long)n > ARC_MAX ? ARC_MAX :
		    (unsigned long)n);
		put_tag(w, GMON_TAG_CG_ARC, &a, sizeof(a));
	}
}

/* The header: "gmon", version 1, 12 spare bytes. */
void
__mon_gmonout_header(struct __mon_wbuf *w)
{
	char hdr[GMON_HDR] = "gmon";
	int32_t version = 1;

	memcpy(hdr + 4, &version, sizeof(version));
	__mon_outfile_put(w, hdr, sizeof(hdr));
}

static void
arc(uintptr_t from, struct cnt *cell, long n, void *arg)
{
	struct __mon_wbuf *w = arg;
	uintptr_t self = (uintptr_t)MON_LOAD(&cell->fnpc);

	/* gprof knows only the executable's symbols. */
	if (!__mon_exe_in_text(self) || n <= 0)
		return;
	from = __mon_exit_caller(from);
	if (!__mon_exe_in_text(from))
		from = (uintptr_t)__mon_gmonout_caller;
	__mon_gmonout_arc(w, __mon_exe_linktime(from),
	    __mon_exe_linktime(self), n);
}

static int
fill(struct __mon_wbuf *w, void *arg)
{
	(void)arg;
	__mon_gmonout_header(w);
	hist(w);
	__mon_arcs_each(arc, w);
	if (__mon_arcs_lost() != 0)
		MON_ERR("monprof: some -pg calls were not counted: "
		    "out of memory\n");
	return 0;
}

/* gmon.out into fd, which nothing names (merge.c's memfd): 0, or -1. */
int
__mon_gmonout_image(int fd)
{
	return __mon_outfile_fd(fd, fill, NULL);
}

/* Write gmon.out to path: 0, or -1 (reported once on stderr). */
int
__mon_gmonout_write(const char *path)
{
	return __mon_outfile_write(path, fill, NULL);
}
