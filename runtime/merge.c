/* SPDX-License-Identifier: MIT */
/*
 * merge.c - PROFFLAGS -merge: the process's profile added into its
 * program's one merged profile, merged.<prog> in PROFDIR (mon.out
 * without pids), as gcov adds each run into its .gcda, so that a
 * server's thousand short processes leave one file, not a thousand.
 *
 * Under flock() on the directory (a lock file would be one more file in
 * it), had within MERGE_WAIT: the process's own mon.out is written
 * compact into a memfd, both it and the merged file (compact or classic)
 * are read into memory as classic files, parsed, and their sum is
 * written through outfile.c,
 * whole or not at all.  A process killed while it merges leaves the
 * merged file as it was and loses its own counts only.  Two profiles
 * add up so:
 *
 *  - header and histogram: the same range; bins added, saturating (the
 *    excess counted in SATURATED);
 *  - metadata: the counts summed (samples, lost, saturated, outside,
 *    threads, unknown, stacks lost, processes), the most switches a
 *    second, the rest the merged file's;
 *  - function cells: by address, summed;
 *  - shared objects: a record matched by path, build-id, file offset and
 *    length; the process's mapping of it is moved onto the merged file's
 *    (ASLR maps each process's elsewhere), or, for an object the merged
 *    file lacks, kept where it is unless that overlaps a record there,
 *    then placed above them all; its cells, samples and stack frames
 *    move with it;
 *  - stacks: by their frames, summed.
 *
 * A merged file of another build (build-id, text range) is left alone:
 * the process's profile goes into merged.<prog>.build-<id>, the merged
 * file of its own build.  Where the two cannot be summed otherwise
 * (another rate, stride, stacks or -kernel; a file that is no profile;
 * the lock not had in time), the process's profile is written as
 * <pid>.<prog>, which prof sums with the merged one, and one line says
 * why.
 *
 * Async-signal-safe as the other writers: system calls and mmap, no
 * malloc, no stdio.
 */
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "writer.h"

#ifndef MFD_CLOEXEC
#define MFD_CLOEXEC	1U
#endif

#define MERGE_WAIT_MS	30000	/* for the lock, while no merge ends */
#define MERGE_MAX	((size_t)1 << 32)	/* a classic file's bytes */
#define PATH_CELLS	(PATH_MAX / 8 + 1)	/* a record's path, NUL too */

/* A shared object's record. */
struct mobj {
	uint64_t	 start, end, off;
	long		 buildid;
	int		 hasbid;
	const struct cnt *path;		/* its PATH cells */
	size_t		 npath;
	long		 samples;	/* OBJECT_SAMPLES */
	uint64_t	 to;		/* its start in the merged file */
	long		 out;		/* its index there */
	int		 taken;		/* the merged file's: matched */
};

/* A count at an address: a function cell, or a sample bucket of obj. */
struct item {
	long		 obj;		/* -1: the executable (samples) */
	uint64_t	 pc;
	long		 n;
};

/* A stack: its frames root first at frames[at]. */
struct stk {
	size_t		 at;
	size_t		 n;
	long		 samples;
};

/* One classic mon.out, parsed. */
struct image {
	const unsigned char *p;		/* the classic bytes, mapped */
	size_t		 len;
	uint64_t	 lpc, hpc;
	size_t		 nfns;
	const struct cnt *cell;
	const WORD	*bins;
	size_t		 nbins;
	long		 meta[MON_META_NKEYS];
	uint32_t	 has;
	const struct cnt *exepath;
	size_t		 nexepath;
	/* Counted by scan(), which fills obj on its second pass. */
	size_t		 nobj, nsample, nfunc, nstack, nframe;
	struct mobj	*obj;
};

#define HAS(im, k)	(((im)->has >> (k)) & 1U)

static void
cell_at(const struct cnt *c, uint64_t *pc, long *n)
{
	struct cnt v;

	memcpy(&v, c, sizeof(v));
	*pc = (uint64_t)(uintptr_t)v.fnpc;
	*n = v.mcnt;
}

/* Where scan() puts what it reads (NULL: it only counts). */
struct into {
	struct mobj	*obj;
	struct item	*samples, *funcs;
	struct stk	*stks;
	uint64_t	*frames;	/* from index at on */
	size_t		 at;
};

/*
 * The cells of im, each checked as prof checks them: metadata into
 * im->meta; and the records, samples, function cells, stacks and their
 * frames (each stack's kept prefix too) counted, and with to put there:
 * its records into to->obj, its samples (with record indexes of its own)
 * and function cells as items, its stacks with their frames root first.
 * One pass counts, for the arrays' sizes, and the next puts, by the same
 * steps.  0, or -1 for what is no profile of ours.
 */
static int
scan(struct image *im, const struct into *to)
{
	enum { IDLE, END, OFFSET, PATH0, PATH, SAMPLES } st = IDLE;
	struct mobj *o = NULL;
	struct stk *k = NULL;
	size_t i, depth = 0, npath = 0, at = to != NULL ? to->at : 0;
	size_t nobj = 0, nsample = 0, nfunc = 0, nstack = 0, nframe = 0;
	uint64_t key;
	long v, osamples = 0;
	int prefix = 1;

	if (im->len < sizeof(struct hdr))
		return -1;
	im->lpc = __mon_mapped_u64(im->p);
	im->hpc = __mon_mapped_u64(im->p + 8);
	im->nfns = __mon_mapped_u64(im->p + 16);
	if (im->nfns > (im->len - sizeof(struct hdr)) / sizeof(struct cnt) ||
	    (im->len - sizeof(struct hdr)) % sizeof(WORD) != 0)
		return -1;
	im->cell = (const struct cnt *)(const void *)(im->p +
	    sizeof(struct hdr));
	im->bins = (const WORD *)(const void *)(im->cell + im->nfns);
	im->nbins = (im->len - sizeof(struct hdr) - im->nfns *
	    sizeof(struct cnt)) / sizeof(WORD);
	im->has = 0;
	im->exepath = NULL;
	im->nexepath = 0;
	for (i = 0; i < im->nfns; i++) {
		cell_at(&im->cell[i], &key, &v);
		/* A function cell or an unused one (0) cuts a record. */
		if (key >= MON_META_LIMIT || key == 0) {
			if ((key != 0 && v < 0) || (st != IDLE && st != SAMPLES))
				return -1;
			st = IDLE;
			if (key == 0)
				continue;
			prefix = 0;
			if (to != NULL)
				to->funcs[nfunc] = (struct item){ -1, key, v };
			nfunc++;
			continue;
		}
		if (key < MON_META_NKEYS) {
			im->has |= 1U << key;
			im->meta[key] = v;
		}
		if (key == MON_META_MAGIC && v != MON_META_MAGIC_VALUE)
			return -1;
		if (key == MON_META_STACK) {
			if (v < 0 || (size_t)(v & 0xff) > depth)
				return -1;
			depth = (size_t)(v & 0xff);
			if (to != NULL) {
				/* Its first frames are the previous stack's. */
				if (k != NULL)
					memmove(&to->frames[at],
					    &to->frames[k->at],
					    depth * sizeof(*to->frames));
				k = &to->stks[nstack];
				*k = (struct stk){ at, depth, v >> 8 };
				at += depth;
			}
			nframe += depth;
			nstack++;
		} else if (key == MON_META_FRAME) {
			if (nstack == 0 || depth >= MON_STACK_DEPTH)
				return -1;
			depth++;
			if (to != NULL) {
				to->frames[at++] = (uint64_t)v;
				k->n++;
			}
			nframe++;
		}
		if (prefix && key == MON_META_EXE_PATH) {
			if (im->exepath == NULL)
				im->exepath = &im->cell[i];
			else if (im->exepath + im->nexepath != &im->cell[i])
				return -1;
			im->nexepath++;
		}
		if (!prefix)
			continue;
		if (st == SAMPLES) {
			if (key == MON_META_OBJECT_SAMPLES && osamples == 0 &&
			    v >= 0) {
				osamples = v;
				if (o != NULL)
					o->samples = v;
				continue;
			}
			if (key == MON_META_OBJECT_SAMPLE) {
				if (v < 0 || (v & 0xffff) == 0)
					return -1;
				if (to != NULL)
					to->samples[nsample] = (struct item){
					    (long)nobj - 1, (uint64_t)v >> 16,
					    v & 0xffff };
				nsample++;
				continue;
			}
			st = IDLE;
		}
		switch (st) {
		case IDLE:
			if (key == MON_META_EXE_SAMPLE) {
				if (v < 0 || (v & 0xffff) == 0)
					return -1;
				if (to != NULL)
					to->samples[nsample] = (struct item){
					    -1, (uint64_t)v >> 16, v & 0xffff };
				nsample++;
			} else if (key == MON_META_OBJECT) {
				if (to != NULL) {
					o = &to->obj[nobj];
					memset(o, 0, sizeof(*o));
					o->start = (uint64_t)v;
					o->out = -1;
				}
				nobj++;
				osamples = 0;
				st = END;
			}
			break;
		case END:
			if (key != MON_META_OBJECT_END)
				return -1;
			if (o != NULL)
				o->end = (uint64_t)v;
			st = OFFSET;
			break;
		case OFFSET:
			if (key != MON_META_OBJECT_OFFSET)
				return -1;
			if (o != NULL)
				o->off = (uint64_t)v;
			st = PATH0;
			npath = 0;
			break;
		case PATH0:
			st = PATH;
			if (key == MON_META_OBJECT_BUILDID) {
				if (o != NULL) {
					o->buildid = v;
					o->hasbid = 1;
				}
				break;
			}
			/* FALLTHROUGH */
		default:
			if (key != MON_META_OBJECT_PATH || ++npath > PATH_CELLS)
				return -1;
			if (o != NULL && o->path == NULL)
				o->path = &im->cell[i];
			if (o != NULL)
				o->npath++;
			if (memchr(&im->cell[i].mcnt, '\0', 8) != NULL)
				st = SAMPLES;
			break;
		}
	}
	if (st != IDLE && st != SAMPLES)
		return -1;
	if (!HAS(im, MON_META_MAGIC) || im->meta[MON_META_VERSION] !=
	    MON_FORMAT_VERSION || im->nexepath > PATH_CELLS)
		return -1;
	im->nobj = nobj;
	im->nsample = nsample;
	im->nfunc = nfunc;
	im->nstack = nstack;
	im->nframe = nframe;
	if (to != NULL)
		im->obj = to->obj;
	return 0;
}

/* Whether records a and b are one object's mapping. */
static int
same_object(const struct mobj *a, const struct mobj *b)
{
	return a->end - a->start == b->end - b->start && a->off == b->off &&
	    a->hasbid == b->hasbid && a->buildid == b->buildid &&
	    a->npath == b->npath &&
	    memcmp(a->path, b->path, a->npath * sizeof(struct cnt)) == 0;
}

/* Where pc of the process's image b lies in the merged file. */
static uint64_t
moved(const struct image *b, uint64_t pc)
{
	size_t i;

	for (i = 0; i < b->nobj; i++)
		if (pc >= b->obj[i].start && pc < b->obj[i].end)
			return pc - b->obj[i].start + b->obj[i].to;
	return pc;
}

/*
 * The records of the sum: a's where they are, each of b's on its match
 * in a, or where it is if that overlaps none, else above all of them.
 * How many.
 */
static size_t
place(struct image *a, struct image *b)
{
	uint64_t top = 0, len;
	size_t i, j, n = 0;

	for (i = 0; i < a->nobj; i++) {
		a->obj[i].to = a->obj[i].start;
		a->obj[i].out = (long)n++;
		if (a->obj[i].end > top)
			top = a->obj[i].end;
	}
	for (j = 0; j < b->nobj; j++) {
		for (i = 0; i < a->nobj; i++)
			if (!a->obj[i].taken && same_object(&a->obj[i],
			    &b->obj[j]))
				break;
		if (i < a->nobj) {
			a->obj[i].taken = 1;
			b->obj[j].to = a->obj[i].to;
			b->obj[j].out = a->obj[i].out;
			continue;
		}
		len = b->obj[j].end - b->obj[j].start;
		b->obj[j].to = b->obj[j].start;
		for (i = 0; i < a->nobj + j; i++) {
			const struct mobj *o = i < a->nobj ? &a->obj[i] :
			    &b->obj[i - a->nobj];

			if (o->out >= 0 && o->to < b->obj[j].to + len &&
			    b->obj[j].to < o->to + (o->end - o->start)) {
				b->obj[j].to = (top + 0xfff) & ~(uint64_t)0xfff;
				break;
			}
		}
		b->obj[j].out = (long)n++;
		if (b->obj[j].to + len > top)
			top = b->obj[j].to + len;
	}
	return n;
}

static int
itemcmp(const void *x, const void *y, void *arg)
{
	const struct item *a = x, *b = y;

	(void)arg;
	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return a->pc < b->pc ? -1 : a->pc > b->pc;
}

static int
stkcmp(const void *x, const void *y, void *arg)
{
	const struct stk *a = x, *b = y;
	const uint64_t *frames = arg;
	size_t i;

	for (i = 0; i < a->n && i < b->n; i++)
		if (frames[a->at + i] != frames[b->at + i])
			return frames[a->at + i] < frames[b->at + i] ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

/* Whether the n bins at p are all zeros. */
static int
zero_bins(const WORD *p, size_t n)
{
	uint64_t any = 0;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4)
		any |= __mon_mapped_u64(p + i);
	for (; i < n; i++)
		any |= p[i];
	return any == 0;
}

static long
add(long x, long y)
{
	long r;

	return __builtin_add_overflow(x, y, &r) ? (long)(~0UL >> 1) : r;
}

/* The sum being written. */
struct sum {
	struct image	*a, *b;
	struct item	*items;		/* samples, then function cells */
	size_t		 nsamples, nfuncs;
	struct stk	*stks;
	size_t		 nstks;
	uint64_t	*frames;
	size_t		 nobj;
	long		 saturated;	/* bins' excess */
	size_t		 ncells;
	struct __mon_wbuf *w;
};

static void
put(struct sum *m, uint64_t key, long v)
{
	struct cnt c;

	c.fnpc = (char *)(uintptr_t)key;
	c.mcnt = v;
	__mon_outfile_put(m->w, &c, sizeof(c));
	m->ncells++;
}

/* Each run of equal (obj, pc) in items [i, n) of obj, summed: the end. */
static size_t
put_samples(struct sum *m, size_t i, size_t n, long obj, long key)
{
	uint64_t pc;
	long total, k;

	while (i < n && m->items[i].obj == obj) {
		pc = m->items[i].pc;
		for (total = 0; i < n && m->items[i].obj == obj &&
		    m->items[i].pc == pc; i++)
			total = add(total, m->items[i].n);
		for (; total > 0; total -= k) {
			k = total < MON_SAMPLE_MAX ? total : MON_SAMPLE_MAX;
			put(m, (uint64_t)key, (long)(pc << 16) | k);
		}
	}
	return i;
}

/* Object k of the sum's record, from whichever image has it. */
static void
put_record(struct sum *m, long k, size_t *si)
{
	const struct mobj *o = NULL, *x;
	long samples = 0;
	size_t i;

	for (i = 0; i < m->a->nobj + m->b->nobj; i++) {
		x = i < m->a->nobj ? &m->a->obj[i] :
		    &m->b->obj[i - m->a->nobj];
		if (x->out != k)
			continue;
		if (o == NULL)
			o = x;
		samples = add(samples, x->samples);
	}
	put(m, MON_META_OBJECT, (long)o->to);
	put(m, MON_META_OBJECT_END, (long)(o->to + (o->end - o->start)));
	put(m, MON_META_OBJECT_OFFSET, (long)o->off);
	if (o->hasbid)
		put(m, MON_META_OBJECT_BUILDID, o->buildid);
	for (i = 0; i < o->npath; i++)
		put(m, MON_META_OBJECT_PATH, o->path[i].mcnt);
	put(m, MON_META_OBJECT_SAMPLES, samples);
	*si = put_samples(m, *si, m->nsamples, k, MON_META_OBJECT_SAMPLE);
}

/* The stacks, each once, summed, sharing prefixes as monout.c does. */
static void
put_stacks(struct sum *m)
{
	const struct stk *prev = NULL, *s;
	size_t i, j, keep;
	long samples;

	for (i = 0; i < m->nstks; i = j) {
		s = &m->stks[i];
		samples = 0;
		for (j = i; j < m->nstks && stkcmp(s, &m->stks[j],
		    m->frames) == 0; j++)
			samples = add(samples, m->stks[j].samples);
		if (samples > (long)(~0UL >> 9))
			samples = (long)(~0UL >> 9);
		keep = 0;
		while (prev != NULL && keep < s->n && keep < prev->n &&
		    keep < 255 && m->frames[s->at + keep] ==
		    m->frames[prev->at + keep])
			keep++;
		put(m, MON_META_STACK, samples << 8 | (long)keep);
		for (; keep < s->n; keep++)
			put(m, MON_META_FRAME, (long)m->frames[s->at + keep]);
		prev = s;
	}
}

/* a's value of key, or b's where a has none. */
static long
either(const struct sum *m, int key)
{
	return HAS(m->a, key) ? m->a->meta[key] : m->b->meta[key];
}

static long
both(const struct sum *m, int key)
{
	return add(m->a->meta[key], m->b->meta[key]);
}

/* The processes a profile holds: 1 unless merged. */
static long
processes(const struct image *im)
{
	return HAS(im, MON_META_PROCESSES) ? im->meta[MON_META_PROCESSES] : 1;
}

/* outfile.c's fill: the sum, header patched once its cells are put. */
static int
fill_sum(struct __mon_wbuf *w, void *arg)
{
	struct sum *m = arg;
	const struct image *a = m->a, *b = m->b;
	const struct image *ep = a->nexepath > 0 ? a : b;
	struct hdr h;
	size_t i, si = 0;
	long k, switches;
	WORD bins[512];
	unsigned x;

	m->w = w;
	m->ncells = 0;
	w->compact = !__mon_env_get()->classic;
	memset(&h, 0, sizeof(h));
	__mon_outfile_put(w, &h, sizeof(h));
	put(m, MON_META_MAGIC, MON_META_MAGIC_VALUE);
	put(m, MON_META_VERSION, MON_FORMAT_VERSION);
	put(m, MON_META_RATE, either(m, MON_META_RATE));
	put(m, MON_META_SAMPLER, either(m, MON_META_SAMPLER));
	put(m, MON_META_SATURATED, add(both(m, MON_META_SATURATED),
	    m->saturated));
	put(m, MON_META_OUTSIDE, both(m, MON_META_OUTSIDE));
	put(m, MON_META_BIAS, either(m, MON_META_BIAS));
	put(m, MON_META_BUILDID, either(m, MON_META_BUILDID));
	put(m, MON_META_PID, b->meta[MON_META_PID]);
	put(m, MON_META_SAMPLES, both(m, MON_META_SAMPLES));
	put(m, MON_META_LOST, both(m, MON_META_LOST));
	put(m, MON_META_THREADS, both(m, MON_META_THREADS));
	put(m, MON_META_STRIDE, either(m, MON_META_STRIDE));
	put(m, MON_META_PROCESSES, add(processes(a), processes(b)));
	switches = a->meta[MON_META_SWITCHES] > b->meta[MON_META_SWITCHES] ?
	    a->meta[MON_META_SWITCHES] : b->meta[MON_META_SWITCHES];
	if (switches > 0) {
		put(m, MON_META_SWITCHES, switches);
		k = switches == a->meta[MON_META_SWITCHES] ?
		    a->meta[MON_META_STAYED] : b->meta[MON_META_STAYED];
		if (k != 0)
			put(m, MON_META_STAYED, k);
	}
	if (HAS(a, MON_META_KERNEL) || HAS(b, MON_META_KERNEL))
		put(m, MON_META_KERNEL, either(m, MON_META_KERNEL));
	for (i = 0; i < ep->nexepath; i++)
		put(m, MON_META_EXE_PATH, ep->exepath[i].mcnt);
	si = put_samples(m, 0, m->nsamples, -1, MON_META_EXE_SAMPLE);
	for (k = 0; k < (long)m->nobj; k++)
		put_record(m, k, &si);
	put(m, MON_META_EXE_SAMPLES, both(m, MON_META_EXE_SAMPLES));
	put(m, MON_META_UNKNOWN, both(m, MON_META_UNKNOWN));
	if (HAS(a, MON_META_STACKS_LOST) || HAS(b, MON_META_STACKS_LOST)) {
		put(m, MON_META_STACKS_LOST, both(m, MON_META_STACKS_LOST));
		put_stacks(m);
	}
	for (i = m->nsamples; i < m->nsamples + m->nfuncs; ) {
		uint64_t pc = m->items[i].pc;

		for (k = 0; i < m->nsamples + m->nfuncs &&
		    m->items[i].pc == pc; i++)
			k = add(k, m->items[i].n);
		put(m, pc, k);
	}
	for (i = 0; i < a->nbins; i += k) {
		k = (long)(a->nbins - i < 512 ? a->nbins - i : 512);
		/* Most of a large text's bins are zeros in both. */
		if (zero_bins(a->bins + i, (size_t)k) ||
		    zero_bins(b->bins + i, (size_t)k)) {
			__mon_outfile_put(w, zero_bins(a->bins + i, (size_t)k) ?
			    b->bins + i : a->bins + i, (size_t)k * sizeof(WORD));
			continue;
		}
		for (x = 0; x < (unsigned)k; x++) {
			unsigned s = (unsigned)a->bins[i + x] + b->bins[i + x];

			bins[x] = (WORD)(s > 65535 ? 65535 : s);
		}
		__mon_outfile_put(w, bins, (size_t)k * sizeof(WORD));
	}
	__mon_outfile_flush(w);
	h.lpc = (char *)(uintptr_t)a->lpc;
	h.hpc = (char *)(uintptr_t)a->hpc;
	h.nfns = m->ncells;
	if (w->err || __mon_outfile_patch(w, 0, &h, sizeof(h)) != 0)
		return -1;
	return 0;
}

/*
 * Why a (the merged file) and b (this process's) cannot be summed: 0
 * they can; 1 another build or text, -1 other settings.
 */
static int
apart(const struct image *a, const struct image *b)
{
	if (a->meta[MON_META_BUILDID] != b->meta[MON_META_BUILDID] ||
	    a->lpc != b->lpc || a->hpc != b->hpc || a->nbins != b->nbins)
		return 1;
	if (a->meta[MON_META_RATE] != b->meta[MON_META_RATE] ||
	    a->meta[MON_META_STRIDE] != b->meta[MON_META_STRIDE] ||
	    HAS(a, MON_META_STACKS_LOST) != HAS(b, MON_META_STACKS_LOST) ||
	    HAS(a, MON_META_KERNEL) != HAS(b, MON_META_KERNEL) ||
	    a->meta[MON_META_KERNEL] != b->meta[MON_META_KERNEL])
		return -1;
	return 0;
}

static void
release(struct image *im)
{
	__mon_mapped_free(im->p, im->len);
	memset(im, 0, sizeof(*im));
}

/*
 * The profile at fd into im: classic as it is, a compact one expanded,
 * up to more bytes than it holds (a merged file has no zero cells: its
 * classic form is its cells and the histogram, which the process's own
 * profile has as many bins of; a damaged length asks for no more).  0,
 * or -1 for what is no profile.
 */
static int
load(int fd, struct image *im, size_t more)
{
	const unsigned char *c;
	unsigned char *x;
	uint64_t classic, off, len;
	size_t at, size;

	memset(im, 0, sizeof(*im));
	if ((c = __mon_mapped_file(fd, sizeof(struct hdr), MERGE_MAX,
	    &size)) == NULL)
		return -1;
	if (__mon_mapped_u64(c) != MON_COMPACT_MAGIC) {
		im->p = c;
		im->len = size;
		return 0;
	}
	classic = __mon_mapped_u64(c + 8);
	if (classic < sizeof(struct hdr) || classic > MERGE_MAX ||
	    (classic > size && classic - size > more) ||
	    (x = __mon_mapped_anon(classic)) == NULL) {
		__mon_mapped_free(c, size);
		return -1;
	}
	for (at = MON_COMPACT_HDR; at < size; at += len) {
		if (size - at < MON_COMPACT_RUN)
			break;
		off = __mon_mapped_u64(c + at);
		len = __mon_mapped_u64(c + at + 8);
		at += MON_COMPACT_RUN;
		if (len == 0 || len > size - at || off > classic ||
		    len > classic - off)
			break;
		memcpy(x + off, c + at, len);
	}
	__mon_mapped_free(c, size);
	im->p = x;
	im->len = classic;
	return at == size ? 0 : (release(im), -1);
}

/* This process's mon.out, compact through a memfd, into im. */
static int
own(struct image *im)
{
	int fd, rc = -1;

	memset(im, 0, sizeof(*im));
	fd = (int)syscall(SYS_memfd_create, "monprof", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (__mon_monout_image(fd) == 0)
		rc = load(fd, im, MERGE_MAX);
	close(fd);
	return rc;
}

/*
 * path's directory locked: its fd, or -1 (*busy: another process held
 * it for MERGE_WAIT_MS while nobody's merge ended).  Processes that exit
 * together queue for it; each merge that ends renames a file in the
 * directory, which changes its mtime, and the wait begins again: on a
 * loaded machine 300 of them took longer than the 30 s one waited at
 * most before (44 wrote apart), where a holder that is stuck (stopped,
 * say) changes nothing.  A waiter looks again after a nap that doubles
 * from 1 ms to 32 ms: 299 waiters that looked every millisecond made
 * some 900,000 system calls a second, which on two loaded CPUs left
 * the holder so little time that no merge ended in 30 s (e2e 365 beside
 * two busy processes and e2e 423: 49 to 223 of 300 wrote apart).  The
 * wait is counted in time, not in looks.
 */
static int
lock_dir(const char *path, int *busy)
{
	struct timespec nap = { 0, 1000000L }, now, since;
	struct stat sb;
	struct timespec seen = { 0, 0 };
	char dir[PATH_MAX];
	long r = 0;
	int fd;

	*busy = 0;
	if (__mon_name_dir(path, dir, sizeof(dir)) != 0 ||
	    (fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &since);
	/*
	 * The error from the instruction's return, not errno, which the
	 * writer process shares with a thread of the program (final.c).
	 */
	for (;;) {
		if ((r = __mon_sys(SYS_flock, fd, LOCK_EX | LOCK_NB, 0, 0, 0,
		    0)) == 0)
			return fd;
		if (r != -EWOULDBLOCK && r != -EINTR)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (fstat(fd, &sb) == 0 && (sb.st_mtim.tv_sec != seen.tv_sec ||
		    sb.st_mtim.tv_nsec != seen.tv_nsec)) {
			seen = sb.st_mtim;
			since = now;
		} else if ((now.tv_sec - since.tv_sec) * 1000L +
		    (now.tv_nsec - since.tv_nsec) / 1000000L >= MERGE_WAIT_MS)
			break;
		nanosleep(&nap, NULL);
		if (nap.tv_nsec < 32000000L)
			nap.tv_nsec *= 2;
	}
	*busy = r == -EWOULDBLOCK;
	close(fd);
	return -1;
}

/* The arrays of a sum, in one mapping: 0, or -1. */
static int
arrays(struct sum *m, void **map, size_t *maplen)
{
	struct image *a = m->a, *b = m->b;
	struct into ta, tb;
	size_t nobj = a->nobj + b->nobj, nitems, nstks, nframes, len;
	char *p;

	nitems = a->nsample + b->nsample + a->nfunc + b->nfunc;
	nstks = a->nstack + b->nstack;
	nframes = a->nframe + b->nframe;
	len = nobj * sizeof(struct mobj) + nitems * sizeof(struct item) +
	    nstks * sizeof(struct stk) + nframes * sizeof(uint64_t);
	if ((p = __mon_mapped_anon(len)) == NULL)
		return -1;
	*map = p;
	*maplen = len;
	a->obj = (struct mobj *)(void *)p;
	b->obj = a->obj + a->nobj;
	m->items = (struct item *)(void *)(b->obj + b->nobj);
	m->stks = (struct stk *)(void *)(m->items + nitems);
	m->frames = (uint64_t *)(void *)(m->stks + nstks);
	/* Samples of both first, then function cells of both. */
	ta = (struct into){ a->obj, m->items, m->items + a->nsample +
	    b->nsample, m->stks, m->frames, 0 };
	tb = (struct into){ b->obj, m->items + a->nsample, ta.funcs + a->nfunc,
	    m->stks + a->nstack, m->frames, a->nframe };
	/* An empty() profile has no cells to put (nor a header to read). */
	if (a->cell != NULL)
		scan(a, &ta);
	scan(b, &tb);
	m->nsamples = a->nsample + b->nsample;
	m->nfuncs = a->nfunc + b->nfunc;
	m->nstks = nstks;
	return 0;
}

/* b's addresses moved to where the sum has its objects, then sorted. */
static void
arrange(struct sum *m)
{
	struct image *b = m->b;
	struct item *it;
	size_t i, j, k;
	unsigned s;

	m->nobj = place(m->a, b);
	for (i = 0; i < m->a->nsample; i++) {
		it = &m->items[i];
		if (it->obj >= 0)
			it->obj = m->a->obj[it->obj].out;
	}
	for (; i < m->nsamples; i++) {
		it = &m->items[i];
		if (it->obj >= 0)
			it->obj = b->obj[it->obj].out;
	}
	for (i = m->nsamples + m->a->nfunc; i < m->nsamples + m->nfuncs; i++)
		m->items[i].pc = moved(b, m->items[i].pc);
	for (i = m->a->nstack; i < m->nstks; i++)
		for (j = 0; j < m->stks[i].n; j++)
			m->frames[m->stks[i].at + j] = moved(b,
			    m->frames[m->stks[i].at + j]);
	__mon_sort_heap(m->items, m->nsamples, sizeof(*m->items), itemcmp,
	    NULL);
	__mon_sort_heap(m->items + m->nsamples, m->nfuncs, sizeof(*m->items),
	    itemcmp, NULL);
	__mon_sort_heap(m->stks, m->nstks, sizeof(*m->stks), stkcmp,
	    m->frames);
	m->saturated = 0;
	for (i = 0; i < m->a->nbins; i += j) {
		j = m->a->nbins - i < 512 ? m->a->nbins - i : 512;
		if (zero_bins(m->a->bins + i, j) || zero_bins(b->bins + i, j))
			continue;
		for (k = i; k < i + j; k++) {
			s = (unsigned)m->a->bins[k] + b->bins[k];
			if (s > 65535)
				m->saturated += s - 65535;
		}
	}
}

/* One line: "monprof: <path>: <why>; <what was done>". */
static void
say(const char *path, const char *why, const char *done)
{
	char line[PATH_MAX + 512];
	size_t at = 0, i, n;
	const char *part[] = { "monprof: ", path, ": ", why, "; ", done, "\n" };

	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		n = strlen(part[i]);
		if (n > sizeof(line) - at)
			n = sizeof(line) - at;
		memcpy(line + at, part[i], n);
		at += n;
	}
	__mon_err_write(line, at);
}

enum { MERGED, ANOTHER_BUILD, APART };

/*
 * a, an empty profile of b's program: no cells, its bins all zeros (its
 * only bytes, so release() lets them go).
 */
static int
empty(const struct image *b, struct image *a)
{
	memset(a, 0, sizeof(*a));
	a->lpc = b->lpc;
	a->hpc = b->hpc;
	a->nbins = b->nbins;
	a->meta[MON_META_PROCESSES] = 0;
	a->has = 1U << MON_META_PROCESSES;
	a->len = b->nbins * sizeof(WORD);
	if ((a->p = __mon_mapped_anon(a->len)) == NULL)
		return -1;
	a->bins = (const WORD *)(const void *)a->p;
	return 0;
}

/* a and b summed into path (a released): MERGED, *rc the write's. */
static int
sum_into(const char *path, struct image *a, struct image *b, int *rc,
    const char **why)
{
	struct sum m;
	void *map;
	size_t maplen;

	memset(&m, 0, sizeof(m));
	m.a = a;
	m.b = b;
	if (arrays(&m, &map, &maplen) != 0) {
		release(a);
		*why = "no memory to merge in";
		return APART;
	}
	arrange(&m);
	*rc = __mon_outfile_replace(path, fill_sum, &m);
	__mon_mapped_free(map, maplen);
	release(a);
	return MERGED;
}

/*
 * Add the process's image b into the merged profile at path, under the
 * lock: MERGED (written, or -1 from *rc), ANOTHER_BUILD (path is another
 * build's), or APART (no sum: *why says why).
 */
static int
merge_into(const char *path, struct image *b, int *rc, const char **why,
    int *created)
{
	struct image a;
	struct stat sb;
	int fd, r;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* The first: the process's own, as the sum of it and none. */
		*created = 1;
		return empty(b, &a) == 0 ? sum_into(path, &a, b, rc, why) :
		    (*why = "no memory to merge in", APART);
	}
	if (fd < 0) {
		*why = "the merged profile cannot be read";
		return APART;
	}
	r = fstat(fd, &sb);
	if (r != 0 || !S_ISREG(sb.st_mode) || sb.st_uid != geteuid() ||
	    load(fd, &a, b->len) != 0) {
		close(fd);
		*why = r == 0 && S_ISREG(sb.st_mode) && sb.st_uid != geteuid() ?
		    "the merged profile is another user's" :
		    "the merged profile is not one monprof can add to";
		return APART;
	}
	close(fd);
	if (scan(&a, NULL) != 0) {
		release(&a);
		*why = "the merged profile is not one monprof can add to";
		return APART;
	}
	if ((r = apart(&a, b)) != 0) {
		release(&a);
		*why = "the merged profile was written with other PROFFLAGS "
		    "(rate, stride, stacks or -kernel)";
		return r > 0 ? ANOTHER_BUILD : APART;
	}
	return sum_into(path, &a, b, rc, why);
}

/*
 * b added into its program's merged profile path, or into its build's
 * beside it (then named in into), under the caller's lock: MERGED (*rc
 * the write's), else APART with *why.
 */
static int
merge_locked(const char *path, struct image *b, int *rc, const char **why,
    char *into, size_t len)
{
	int r, created = 0;

	if (strlen(path) >= len)
		return APART;
	strcpy(into, path);
	r = merge_into(path, b, rc, why, &created);
	if (r != ANOTHER_BUILD)
		return r;
	if (__mon_env_merged_path(into, len, b->meta[MON_META_BUILDID]) != 0) {
		*why = "the merged profile is another build's, and this "
		    "build's name is too long";
		return APART;
	}
	if ((r = merge_into(into, b, rc, why, &created)) == MERGED &&
	    created)
		say(path, "another build of the program wrote it",
		    "this build's processes are merged beside it");
	return r == ANOTHER_BUILD ? APART : r;
}

/*
 * The gmon.out beside the merged mon.out into (as prof finds it: gmon.out
 * beside mon.out, else .gmon added) in buf.
 */
static int
gmon_name(const char *into, char *buf, size_t len)
{
	const char *base = strrchr(into, '/');
	size_t dir;

	base = base != NULL ? base + 1 : into;
	dir = (size_t)(base - into);
	if (strcmp(base, MON_OUT) == 0) {
		if (dir + sizeof("gmon.out") > len)
			return -1;
		memcpy(buf, into, dir);
		memcpy(buf + dir, "gmon.out", sizeof("gmon.out"));
		return 0;
	}
	if (strlen(into) + sizeof(".gmon") > len)
		return -1;
	strcpy(buf, into);
	strcat(buf, ".gmon");
	return 0;
}

/*
 * -pg: the process's gmon.out added into the merged one beside into, or
 * written apart (<pid>.<prog>.gmon) with a line that says why.  0, or
 * -1 (reported).
 */
static int
merge_gmon(const char *into)
{
	char path[PATH_MAX], own_gmon[PATH_MAX];
	const char *why = "its own gmon.out could not be taken apart for it";
	int fd, rc = 1;

	if (gmon_name(into, path, sizeof(path)) != 0 ||
	    __mon_env_own_path(own_gmon, sizeof(own_gmon)) != 0 ||
	    strlen(own_gmon) + sizeof(".gmon") > sizeof(own_gmon)) {
		__mon_err_errno("cannot name gmon.out", "", ENAMETOOLONG);
		return -1;
	}
	strcat(own_gmon, ".gmon");
	fd = (int)syscall(SYS_memfd_create, "monprof", MFD_CLOEXEC);
	if (fd >= 0 && __mon_gmonout_image(fd) == 0)
		rc = __mon_gmonmerge_fd(path, fd, &why);
	if (fd >= 0)
		close(fd);
	if (rc <= 0)
		return rc;
	say(path, why, "this process's gmon.out is written apart, as "
	    "<pid>.<prog>.gmon");
	return __mon_gmonout_write(own_gmon);
}

/*
 * PROFFLAGS -merge, at the exit: the process's profile (and gmon.out)
 * added into its program's merged one, or written as <pid>.<prog> with a
 * line that says why not.  0, or -1 (reported).
 */
int
__mon_merge_write(void)
{
	char path[PATH_MAX], own_path[PATH_MAX], into[PATH_MAX];
	struct image b;
	const char *why = "its own profile could not be taken apart for it";
	int fd = -1, rc = -1, r = APART, busy;

	if (__mon_env_merged_path(path, sizeof(path), 0) != 0 ||
	    __mon_env_own_path(own_path, sizeof(own_path)) != 0) {
		__mon_err_errno("cannot name the profile", "", ENAMETOOLONG);
		return -1;
	}
	if (own(&b) == 0 && scan(&b, NULL) == 0 &&
	    (fd = lock_dir(path, &busy)) < 0)
		why = busy ? "the merged profile stayed locked by another "
		    "process for 30 s, whose merge did not end" :
		    "its directory cannot be locked";
	if (fd >= 0)
		r = merge_locked(path, &b, &rc, &why, into, sizeof(into));
	release(&b);
	if (r == MERGED) {
		if (__mon_arcs_used() && merge_gmon(into) != 0)
			rc = -1;
		close(fd);
		return rc;
	}
	if (fd >= 0)
		close(fd);
	say(path, why, "this process's profile is written apart, as "
	    "<pid>.<prog>");
	rc = __mon_monout_write(own_path);
	if (!__mon_arcs_used())
		return rc;
	if (strlen(own_path) + sizeof(".gmon") > sizeof(own_path)) {
		__mon_err_errno("cannot name gmon.out", "", ENAMETOOLONG);
		return -1;
	}
	strcat(own_path, ".gmon");
	return __mon_gmonout_write(own_path) != 0 ? -1 : rc;
}

/*
 * The profile at fd (compact or classic) added into the merged profile
 * path, as a process adds its own, and with gfd >= 0 the gmon.out at
 * gfd beside it: for tests, which merge profiles written apart and
 * compare.  0, or -1 (reported).
 */
int
__mon_merge_file(const char *path, int fd, int gfd)
{
	char into[PATH_MAX], gpath[PATH_MAX];
	struct image b;
	const char *why = "the profile to add is not one monprof can read";
	int lock = -1, rc = -1, r = APART, busy;

	memset(&b, 0, sizeof(b));
	if (load(fd, &b, MERGE_MAX) == 0 &&
	    scan(&b, NULL) == 0 && (lock = lock_dir(path, &busy)) >= 0)
		r = merge_locked(path, &b, &rc, &why, into, sizeof(into));
	release(&b);
	if (r == MERGED && gfd >= 0 && (gmon_name(into, gpath,
	    sizeof(gpath)) != 0 || __mon_gmonmerge_fd(gpath, gfd, &why) != 0)) {
		say(gpath, why, "its gmon.out not added");
		rc = -1;
	}
	if (lock >= 0)
		close(lock);
	if (r == MERGED)
		return rc;
	say(path, why, "nothing added");
	return -1;
}
