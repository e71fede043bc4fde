/* SPDX-License-Identifier: MIT */
/*
 * monout.c - writes mon.out: struct hdr, the metadata cells, the shared
 * objects' records, the sampled stacks, the function cells (slots and
 * arcs folded in), the histogram (mon.h has the layout).
 *
 * Whole or not at all (outfile.c).  Async-signal-safe (monitor_signal
 * uses it): system calls only, no stdio, no malloc.
 */
#include <string.h>
#include <unistd.h>

#include "writer.h"

/* Cells written so far, for the header. */
struct out {
	struct __mon_wbuf *w;
	size_t		 n;
};

static void
put_cell(struct out *o, uintptr_t pc, long count)
{
	struct cnt c;

	c.fnpc = (char *)pc;
	c.mcnt = count;
	__mon_outfile_put(o->w, &c, sizeof(c));
	o->n++;
}

static void
put_meta(long key, long value, void *o)
{
	put_cell(o, (uintptr_t)key, value);
}

static void
put_function(struct cnt *p, void *o)
{
	put_cell(o, __mon_exe_linktime((uintptr_t)MON_LOAD(&p->fnpc)),
	    MON_LOAD(&p->mcnt));
}

/* The stacks being put: the one before, for the prefix they share. */
struct stacks_out {
	struct out	*o;
	const uintptr_t	*prev;		/* leaf first */
	size_t		 nprev;
};

/* A stack's STACK cell, then its frames root first, past the prefix. */
static void
put_stack(const uintptr_t *pc, size_t n, long samples, void *arg)
{
	struct stacks_out *so = arg;
	size_t keep = 0, i;

	while (keep < n && keep < so->nprev && keep < 255 &&
	    pc[n - 1 - keep] == so->prev[so->nprev - 1 - keep])
		keep++;
	put_meta(MON_META_STACK, samples << 8 | (long)keep, so->o);
	for (i = keep; i < n; i++)
		put_meta(MON_META_FRAME,
		    (long)__mon_exe_linktime(pc[n - 1 - i]), so->o);
	so->prev = pc;
	so->nprev = n;
}

/* -threads: one thread's file (sid; tid's sets; last: the main one's). */
struct thread {
	long		 tid;
	long		 sid;
	int		 main;
};

/* Everything after the header, with the sample counts c; how many cells. */
static size_t
body(struct __mon_wbuf *w, const struct __mon_hist_counts *c,
    const struct thread *th)
{
	static const WORD zeros[512];
	struct out o = { w, 0 };
	uintptr_t lpc, hpc;
	size_t i, nbins;
	WORD *bins;
	const long meta[][2] = {
		{ MON_META_MAGIC, MON_META_MAGIC_VALUE },
		{ MON_META_VERSION, MON_FORMAT_VERSION },
		{ MON_META_RATE, __mon_sampler_rate() },
		{ MON_META_SAMPLER, __mon_sampler_which() },
		{ MON_META_SATURATED, c->saturated },
		{ MON_META_OUTSIDE, c->outside },
		{ MON_META_BIAS, (long)__mon_exe_bias() },
		{ MON_META_BUILDID, __mon_exe_buildid() },
		{ MON_META_PID, __mon_self_pid() },
		{ MON_META_SAMPLES, c->samples },
		{ MON_META_LOST, c->lost },
		{ MON_META_THREADS, __mon_cells_threads() },
		{ MON_META_STRIDE, __mon_env_get()->stride == 0 ? 0 :
		    (long)__mon_pcs_bytes() },
	};

	struct __mon_objects_out obj = { put_meta, &o, __mon_env_get()->stride,
	    0, 0, th != NULL };
	long unknown, switches;

	for (i = 0; i < sizeof(meta) / sizeof(meta[0]); i++)
		put_meta(meta[i][0], meta[i][1], &o);
	/* Only where it happened: other files keep their bytes. */
	if ((switches = __mon_sampler_switches()) > 0) {
		put_meta(MON_META_SWITCHES, switches, &o);
		if (__mon_sampler_stayed() != 0)
			put_meta(MON_META_STAYED, __mon_sampler_stayed(), &o);
	}
	/* Only where -kernel was asked: granted or refused. */
	if (__mon_sampler_kernel() >= 0)
		put_meta(MON_META_KERNEL, __mon_sampler_kernel(), &o);
	/* The executable's path, for prof to find it by itself. */
	if (__mon_exe_path()[0] != '\0')
		__mon_objects_path(put_meta, &o, MON_META_EXE_PATH,
		    __mon_exe_path());
	/* Every sample outside the histogram: in an object, or unknown. */
	__mon_objects_records(&obj);
	unknown = c->outside - obj.exe - obj.objects;
	put_meta(MON_META_EXE_SAMPLES, obj.exe, &o);
	put_meta(MON_META_UNKNOWN, unknown > 0 ? unknown : 0, &o);
	if (__mon_hist_with_stacks()) {
		struct stacks_out so = { &o, NULL, 0 };

		put_meta(MON_META_STACKS_LOST, th == NULL || th->main ?
		    __mon_stacks_lost() : 0, &o);
		__mon_stacks_each(put_stack, &so);
	}
	__mon_cells_each(put_function, &o);
	/* nfns counts every cell reserved, the unused as zeros (Solaris). */
	for (i = __mon_cells_unused(); i > 0; i--)
		put_cell(&o, 0, 0);
	if ((bins = __mon_hist_get(&nbins, &lpc, &hpc)) == NULL)
		;
	else if (th == NULL)
		__mon_outfile_put(w, bins, nbins * sizeof(WORD));
	else	/* a thread's samples are all cells: no histogram */
		for (i = 0; i < nbins; i += sizeof(zeros) / sizeof(WORD))
			__mon_outfile_put(w, zeros, (nbins - i < sizeof(zeros) /
			    sizeof(WORD) ? nbins - i : sizeof(zeros) /
			    sizeof(WORD)) * sizeof(WORD));
	__mon_outfile_flush(w);
	return o.n;
}

static void
sum(uintptr_t pc, long n, void *arg)
{
	(void)pc;
	*(long *)arg += n;
}

/*
 * -threads: the counts of thread th's file.  Its samples are all kept by
 * pc (pcs.c): every one is outside the (empty) histogram; the main
 * thread's file has those the kernel lost, and those pcs.c had no room
 * for (in no object: UNKNOWN).
 */
static void
thread_counts(const struct thread *th, struct __mon_hist_counts *c)
{
	struct __mon_hist_counts all;
	long n = 0;

	__mon_hist_counts(&all);
	__mon_pcs_each(0, UINTPTR_MAX, sum, &n);
	if (th->main)
		n += all.unkept;
	c->samples = n;
	c->outside = n;
	c->saturated = 0;
	c->lost = th->main ? all.lost : 0;
	c->unkept = 0;
}

/*
 * -merge's image of the process's profile: compact, whatever -classic
 * says (merge.c expands it into memory that holds only what ran: a 9 MB
 * text's 2.3 MB of classic bytes in a memfd cost a page for each 4 KB
 * read, 10 ms a process).
 */
static int image;

/* The whole file: header (rewritten once nfns is known), cells, bins. */
static int
fill(struct __mon_wbuf *w, void *arg)
{
	const struct thread *th = arg;
	struct __mon_hist_counts c;
	struct hdr h;
	uintptr_t lo, hi;
	size_t nbins;

	memset(&h, 0, sizeof(h));
	w->compact = !__mon_env_get()->classic || image;
	__mon_outfile_put(w, &h, sizeof(h));
	if (th == NULL) {
		__mon_cells_fold();
		__mon_arcs_fold();
		__mon_hist_counts(&c);
	} else {
		__mon_cells_fold_tid(th->tid, th->main);
		__mon_arcs_fold_tid(th->tid, th->main);
		thread_counts(th, &c);
	}
	h.nfns = body(w, &c, th);
	__mon_hist_get(&nbins, &lo, &hi);
	h.lpc = (char *)__mon_exe_linktime(lo);
	h.hpc = (char *)(hi - (lo - (uintptr_t)h.lpc));
	if (w->err || __mon_outfile_patch(w, 0, &h, sizeof(h)) != 0)
		return -1;
	return 0;
}

/*
 * Write the profile to path.  0, or -1 (reported once on stderr) if the
 * file could not be written whole, or another write is in progress.
 */
int
__mon_monout_write(const char *path)
{
	return __mon_outfile_write(path, fill, NULL);
}

/*
 * The profile, compact, into fd, which nothing names: what merge.c adds
 * into the merged profile.  0, or -1.
 */
int
__mon_monout_image(int fd)
{
	int rc;

	image = 1;
	rc = __mon_outfile_fd(fd, fill, NULL);
	image = 0;
	return rc;
}

/*
 * -threads: thread tid's file (sid its sequence number) at path: its
 * sets' and arc tables' counts and its samples; main: the main thread's,
 * which also has the counts no thread holds (slots taken aside, the
 * shared arc table).
 */
int
__mon_monout_thread(const char *path, long tid, long sid, int main)
{
	struct thread th = { tid, sid, main };
	int rc;

	__mon_pcs_thread(sid);
	__mon_stacks_thread(sid);
	rc = __mon_outfile_write(path, fill, &th);
	__mon_pcs_thread(0);
	__mon_stacks_thread(0);
	return rc;
}
