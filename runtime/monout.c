/* SPDX-License-Identifier: MIT */
/*
 * monout.c - writes mon.out: struct hdr, the metadata cells, the function
 * cells (slots folded in), the histogram (mon.h has the layout).
 *
 * Whole or not at all (outfile.c).  Async-signal-safe (monitor_signal
 * uses it): system calls only, no stdio, no malloc.
 */
#include <string.h>
#include <unistd.h>

#include "internal.h"

void
__mon_out_cell(struct __mon_wbuf *w, uintptr_t pc, long count)
{
	struct cnt c;

	c.fnpc = (char *)pc;
	c.mcnt = count;
	__mon_outfile_put(w, &c, sizeof(c));
}

/* pcs inside the main executable become link-time addresses. */
uintptr_t
__mon_out_linktime(uintptr_t pc)
{
	struct __mon_state *st = &__mon_state;

	if (pc >= st->image_lo && pc < st->image_hi)
		return pc - st->bias;
	return pc;
}

int
__mon_out_path(char *buf, size_t len)
{
	return __mon_env_path(&__mon_state.env, __mon_state.progname,
	    (long)getpid(), buf, len);
}

static size_t
body(struct __mon_wbuf *w)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_chunk *c;
	struct cnt *p;
	char *pc;
	size_t i, n = 0;
	const long meta[][2] = {
		{ MON_META_MAGIC, MON_META_MAGIC_VALUE },
		{ MON_META_VERSION, MON_FORMAT_VERSION },
		{ MON_META_RATE, __mon_sampler_rate() },
		{ MON_META_SAMPLER, st->sampled },
		{ MON_META_SATURATED, MON_LOAD(&st->saturated) },
		{ MON_META_OUTSIDE, MON_LOAD(&st->outside) },
		{ MON_META_BIAS, (long)st->bias },
		{ MON_META_BUILDID, st->buildid },
		{ MON_META_PID, (long)getpid() },
		{ MON_META_SAMPLES, MON_LOAD(&st->samples) },
		{ MON_META_LOST, MON_LOAD(&st->lost) },
		{ MON_META_THREADS, MON_LOAD(&st->threads) },
	};

	for (i = 0; i < sizeof(meta) / sizeof(meta[0]); i++, n++)
		__mon_out_cell(w, (uintptr_t)meta[i][0], meta[i][1]);
	n += __mon_objects_put(w);
	MON_FOREACH(&st->cells, c, i, p) {
		if ((pc = MON_LOAD(&p->fnpc)) == NULL)
			continue;
		__mon_out_cell(w, __mon_out_linktime((uintptr_t)pc), p->mcnt);
		n++;
	}
	MON_FOREACH(&st->arcs, c, i, p) {
		if ((pc = MON_LOAD(&p->fnpc)) == NULL)
			continue;
		__mon_out_cell(w, __mon_out_linktime((uintptr_t)pc),
		    MON_LOAD(&p->mcnt));
		n++;
	}
	if (st->out_bins != NULL)
		__mon_outfile_put(w, st->out_bins, st->out_nbins * sizeof(WORD));
	__mon_outfile_flush(w);
	return n;
}

/* The whole file: header (rewritten once nfns is known), cells, bins. */
static int
fill(struct __mon_wbuf *w, void *arg)
{
	struct __mon_state *st = &__mon_state;
	struct hdr h;
	uintptr_t lo;

	(void)arg;
	memset(&h, 0, sizeof(h));
	__mon_outfile_put(w, &h, sizeof(h));
	__mon_cells_fold();
	h.nfns = body(w);
	lo = (uintptr_t)st->out.lpc;
	h.lpc = (char *)__mon_out_linktime(lo);
	h.hpc = st->out.hpc - (lo - (uintptr_t)h.lpc);
	if (w->err || pwrite(w->fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return -1;
	return 0;
}

/*
 * Write the profile to path.  0, or -1 (reported once on stderr) if the
 * file could not be written whole, or another write is in progress.
 */
int
__mon_out_write(const char *path)
{
	return __mon_outfile_write(path, fill, NULL);
}
