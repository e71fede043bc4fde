/* SPDX-License-Identifier: MIT */
/*
 * gmonout.c - writes gmon.out for GNU gprof in -pg programs: the "gmon"
 * header (version 1), one histogram record (mon.out's histogram, at the
 * sampler's real rate) and one arc record per (caller pc, callee), all
 * with link-time addresses, in native byte order.
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

static void
hist(struct __mon_wbuf *w)
{
	static const WORD zero[512];
	struct gmon_hist h;
	uintptr_t lo, hi, rlo, rhi;
	size_t nbins, a, b, i, n;
	WORD *bins = __mon_hist_get(&nbins, &lo, &hi);
	long rate = __mon_sampler_rate();

	if (bins == NULL || nbins == 0)
		return;
	memset(&h, 0, sizeof(h));
	h.low_pc = __mon_exe_linktime(lo);
	h.high_pc = hi - (lo - h.low_pc);
	h.hist_size = (uint32_t)nbins;
	/* No sampler ran: no samples, but gprof divides by the rate. */
	h.prof_rate = (uint32_t)(rate > 0 ? rate : MON_RATE_DEFAULT);
	memcpy(h.dimen, "seconds", sizeof("seconds"));
	h.dimen_abbrev = 's';
	put_tag(w, GMON_TAG_TIME_HIST, &h, sizeof(h));
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
	__mon_outfile_put(w, bins, a * sizeof(WORD));
	for (i = a; i < b; i += n) {
		n = b - i < sizeof(zero) / sizeof(WORD) ? b - i :
		    sizeof(zero) / sizeof(WORD);
		__mon_outfile_put(w, zero, n * sizeof(WORD));
	}
	__mon_outfile_put(w, bins + b, (nbins - b) * sizeof(WORD));
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
