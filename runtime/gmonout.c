/* SPDX-License-Identifier: MIT */
/*
 * gmonout.c - writes gmon.out for GNU gprof in -pg programs: the "gmon"
 * header (version 1), mon.out's histogram at the sampler's real rate
 * (one record per run of bins with samples, or with PROFFLAGS -classic
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

#define GMON_TAG_TIME_HIST	0
#define GMON_TAG_CG_ARC		1
#define ARC_MAX			0xffffffffUL	/* counts are 32-bit */

/* Never called: its address is the caller of calls from outside. */
void __attribute__((__noinline__, __noclone__, __used__))
__mon_gmonout_caller(void) __asm__("\"<external>\"");

void __attribute__((__noinline__, __noclone__, __used__))
__mon_gmonout_caller(void)
{
	__asm__ volatile("");
}

struct gmon_hist {		/* struct gmon_hist_hdr, LP64: 40 bytes */
	uintptr_t	 low_pc;
	uintptr_t	 high_pc;
	uint32_t	 hist_size;	/* bins, not bytes */
	uint32_t	 prof_rate;
	char		 dimen[15];
	char		 dimen_abbrev;
} __attribute__((__packed__));

struct gmon_arc {		/* struct gmon_cg_arc_record: 20 bytes */
	uintptr_t	 from_pc;
	uintptr_t	 self_pc;
	uint32_t	 count;
} __attribute__((__packed__));

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
 * Bins fewer than this many zeros apart go in one record: a record's
 * header (41 bytes) costs as much as 20 bins.
 */
#define HIST_GAP	20

static void
hist(struct __mon_wbuf *w)
{
	struct gmon_hist h;
	uintptr_t lo, hi, rlo, rhi, bar, link;
	size_t nbins, a, b, i, j, k;
	WORD *bins = __mon_hist_get(&nbins, &lo, &hi);
	long rate = __mon_sampler_rate();

	if (bins == NULL || nbins == 0)
		return;
	memset(&h, 0, sizeof(h));
	link = __mon_exe_linktime(lo);
	/* No sampler ran: no samples, but gprof divides by the rate. */
	h.prof_rate = (uint32_t)(rate > 0 ? rate : MON_RATE_DEFAULT);
	memcpy(h.dimen, "seconds", sizeof("seconds"));
	h.dimen_abbrev = 's';
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
	/*
	 * One record over the whole range: the classic file (PROFFLAGS
	 * -classic), or bins of a fractional size, whose edges no record
	 * could name.  Else one record per run of bins that are not zero
	 * (and the first and the last bin), which gprof reads as one
	 * histogram, so that the file is as long as what ran (a 9 MB
	 * text's 2.3 MB of bins).
	 */
	bar = (hi - lo) / nbins;
	if (__mon_env_get()->classic || (hi - lo) % nbins != 0) {
		h.low_pc = link;
		h.high_pc = link + (hi - lo);
		h.hist_size = (uint32_t)nbins;
		put_tag(w, GMON_TAG_TIME_HIST, &h, sizeof(h));
		put_bins(w, bins, 0, nbins, a, b);
		return;
	}
	for (i = 0; i < nbins; i = j) {
		for (; i < nbins && !kept(bins, i, nbins, a, b); i++)
			;
		if (i == nbins)
			break;
		/* To the last bin kept before a long gap. */
		for (j = i + 1, k = j; j < nbins && j - k < HIST_GAP; j++)
			if (kept(bins, j, nbins, a, b))
				k = j + 1;
		j = k;
		h.low_pc = link + i * bar;
		h.high_pc = link + j * bar;
		h.hist_size = (uint32_t)(j - i);
		put_tag(w, GMON_TAG_TIME_HIST, &h, sizeof(h));
		put_bins(w, bins, i, j, a, b);
	}
}

static void
arc(uintptr_t from, struct cnt *cell, long n, void *arg)
{
	struct __mon_wbuf *w = arg;
	struct gmon_arc a;
	uintptr_t self = (uintptr_t)MON_LOAD(&cell->fnpc);

	/* gprof knows only the executable's symbols. */
	if (!__mon_exe_in_text(self) || n <= 0)
		return;
	from = __mon_exit_caller(from);
	if (!__mon_exe_in_text(from))
		from = (uintptr_t)__mon_gmonout_caller;
	a.from_pc = __mon_exe_linktime(from);
	a.self_pc = __mon_exe_linktime(self);
	for (; n > 0; n -= (long)a.count) {
		a.count = (uint32_t)((unsigned long)n > ARC_MAX ? ARC_MAX :
		    (unsigned long)n);
		put_tag(w, GMON_TAG_CG_ARC, &a, sizeof(a));
	}
}

static int
fill(struct __mon_wbuf *w, void *arg)
{
	char hdr[20] = "gmon";
	int32_t version = 1;

	(void)arg;
	memcpy(hdr + 4, &version, sizeof(version));
	__mon_outfile_put(w, hdr, sizeof(hdr));
	hist(w);
	__mon_arcs_each(arc, w);
	if (__mon_arcs_lost() != 0)
		MON_ERR("monprof: some -pg calls were not counted: "
		    "out of memory\n");
	return 0;
}

/* Write gmon.out to path: 0, or -1 (reported once on stderr). */
int
__mon_gmonout_write(const char *path)
{
	return __mon_outfile_write(path, fill, NULL);
}
