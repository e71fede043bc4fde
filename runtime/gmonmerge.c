/* SPDX-License-Identifier: MIT */
/*
 * gmonmerge.c - PROFFLAGS -merge under -pg: a process's gmon.out added
 * into the program's merged gmon.out, beside the merged mon.out and
 * under the same lock (merge.c).  The histograms' records are laid over
 * one range, their bins added (saturating), and written again as
 * gmonout.c writes a process's; the arcs are summed by (caller, callee).
 * Both files hold link-time addresses of the executable only, so
 * nothing moves.  Async-signal-safe: system calls and mmap.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "writer.h"

#define GMON_MAX	((size_t)1 << 32)

/* A histogram record, the bins where they lie in the file. */
struct hrec {
	uint64_t	 low, high;
	uint32_t	 size, rate;
	const unsigned char *bins;
};

struct arc {
	uint64_t	 from, self;
	long		 n;
};

/* One gmon.out, mapped and counted. */
struct gfile {
	const unsigned char *p;
	size_t		 len;
	size_t		 nhist, narcs;
	uint64_t	 low, high;	/* the records' span */
	struct hrec	*hist;
	struct arc	*arcs;
};

/*
 * The records of g, counted (fill 0) or read into g->hist and g->arcs
 * (fill 1).  0, or -1 for what is no gmon.out of ours.
 */
static int
records(struct gfile *g, int fill)
{
	const unsigned char *p = g->p, *end = g->p + g->len;
	struct gmon_hist hh;
	struct gmon_arc ha;
	size_t nh = 0, na = 0;

	if (g->len < GMON_HDR || memcmp(p, "gmon", 4) != 0 ||
	    __mon_mapped_u32(p + 4) != 1)
		return -1;
	for (p += GMON_HDR; p < end; ) {
		if (*p == GMON_TAG_TIME_HIST &&
		    (size_t)(end - p) > sizeof(hh)) {
			memcpy(&hh, p + 1, sizeof(hh));
			if ((size_t)(end - p - 1 - sizeof(hh)) / 2 <
			    hh.hist_size || hh.hist_size == 0 ||
			    hh.high_pc <= hh.low_pc)
				return -1;
			if (fill)
				g->hist[nh] = (struct hrec){ hh.low_pc,
				    hh.high_pc, hh.hist_size, hh.prof_rate,
				    p + 1 + sizeof(hh) };
			if (nh == 0 || hh.low_pc < g->low)
				g->low = hh.low_pc;
			if (nh == 0 || hh.high_pc > g->high)
				g->high = hh.high_pc;
			nh++;
			p += 1 + sizeof(hh) + 2 * (size_t)hh.hist_size;
		} else if (*p == GMON_TAG_CG_ARC &&
		    (size_t)(end - p) > sizeof(ha)) {
			memcpy(&ha, p + 1, sizeof(ha));
			if (fill)
				g->arcs[na] = (struct arc){ ha.from_pc,
				    ha.self_pc, (long)ha.count };
			na++;
			p += 1 + sizeof(ha);
		} else
			return -1;
	}
	g->nhist = nh;
	g->narcs = na;
	return 0;
}

static int
arccmp(const void *x, const void *y, void *arg)
{
	const struct arc *a = x, *b = y;

	(void)arg;
	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	return a->self < b->self ? -1 : a->self > b->self;
}

/* The sum being written. */
struct gsum {
	struct gfile	*a, *b;
	WORD		*bins;		/* over [low, low + span) */
	size_t		 nbins;
	uint64_t	 low, span;
	long		 rate;
	int		 one;		/* one record: bins of fractional size */
	struct arc	*arcs;		/* both files' */
	size_t		 narcs;
};

static int
fill_sum(struct __mon_wbuf *w, void *arg)
{
	struct gsum *m = arg;
	size_t i, j;
	long n;

	__mon_gmonout_header(w);
	__mon_gmonout_hist(w, m->bins, m->nbins, (uintptr_t)m->low,
	    (uintptr_t)m->span, m->rate, m->nbins, m->nbins,
	    m->one || __mon_env_get()->classic);
	for (i = 0; i < m->narcs; i = j) {
		for (n = 0, j = i; j < m->narcs && arccmp(&m->arcs[i],
		    &m->arcs[j], NULL) == 0; j++)
			n = __builtin_add_overflow(n, m->arcs[j].n, &n) ?
			    (long)(~0UL >> 1) : n;
		__mon_gmonout_arc(w, (uintptr_t)m->arcs[i].from,
		    (uintptr_t)m->arcs[i].self, n);
	}
	__mon_outfile_flush(w);
	return w->err ? -1 : 0;
}

/* Whether record h lies on m's bins (each bar bytes). */
static int
fits(const struct gsum *m, const struct hrec *h, uint64_t bar)
{
	if (h->rate != (uint32_t)m->rate)
		return 0;
	if (m->one)
		return h->low == m->low && h->high - h->low == m->span &&
		    h->size == m->nbins;
	return h->high - h->low == (uint64_t)h->size * bar &&
	    h->low >= m->low && (h->low - m->low) % bar == 0 &&
	    h->high <= m->low + m->span;
}

/*
 * The histograms of both files laid over one range and added: 0, 1 where
 * they cannot be (another text, rate or bin size: *why), -1 no memory.
 */
static int
lay(struct gsum *m, const char **why)
{
	const struct gfile *g[2] = { m->a, m->b };
	const struct hrec *h0, *h;
	uint64_t bar = 1;
	size_t i, k, x, at;
	unsigned s;

	k = m->a->nhist > 0 ? 0 : 1;
	if (g[k]->nhist == 0)
		return 0;
	h0 = &g[k]->hist[0];
	*why = "the merged gmon.out's histogram has another range, rate or "
	    "bin size";
	if (m->a->nhist > 0 && m->b->nhist > 0 && (m->a->low != m->b->low ||
	    m->a->high != m->b->high))
		return 1;
	m->low = g[k]->low;
	m->span = g[k]->high - m->low;
	m->rate = (long)h0->rate;
	if ((h0->high - h0->low) % h0->size != 0) {
		m->one = 1;
		m->nbins = h0->size;
	} else {
		bar = (h0->high - h0->low) / h0->size;
		if (m->span % bar != 0 || m->span / bar > GMON_MAX / 2)
			return 1;
		m->nbins = (size_t)(m->span / bar);
	}
	for (k = 0; k < 2; k++)
		for (i = 0; i < g[k]->nhist; i++)
			if (!fits(m, &g[k]->hist[i], bar) ||
			    (m->one && g[k]->nhist != 1))
				return 1;
	if ((m->bins = __mon_mapped_anon(m->nbins * sizeof(WORD))) == NULL)
		return -1;
	for (k = 0; k < 2; k++)
		for (i = 0; i < g[k]->nhist; i++) {
			h = &g[k]->hist[i];
			at = m->one ? 0 : (size_t)((h->low - m->low) / bar);
			for (x = 0; x < h->size; x++) {
				WORD v;

				memcpy(&v, h->bins + 2 * x, sizeof(v));
				s = (unsigned)m->bins[at + x] + v;
				m->bins[at + x] = (WORD)(s > 65535 ? 65535 : s);
			}
		}
	return 0;
}

/* The file at fd mapped into g, its records counted: 0, or -1. */
static int
map(int fd, struct gfile *g)
{
	memset(g, 0, sizeof(*g));
	g->p = __mon_mapped_file(fd, GMON_HDR, GMON_MAX, &g->len);
	if (g->p == NULL || records(g, 0) == 0)
		return g->p == NULL ? -1 : 0;
	__mon_mapped_free(g->p, g->len);
	g->p = NULL;
	return -1;
}

static void
unmap(struct gfile *g)
{
	__mon_mapped_free(g->p, g->len);
	g->p = NULL;
}

/*
 * The gmon.out at fd added into the merged gmon.out path, under the
 * caller's lock: 0 written, -1 not (reported), or 1 where the two cannot
 * be summed (*why; path untouched).
 */
int
__mon_gmonmerge_fd(const char *path, int fd, const char **why)
{
	struct gfile a, b;
	struct gsum m;
	struct stat sb;
	char *arrays;
	size_t len;
	int afd, rc = 1;

	*why = "the gmon.out to add is not one monprof can read";
	if (map(fd, &b) != 0)
		return 1;
	memset(&a, 0, sizeof(a));
	afd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (afd < 0 && errno != ENOENT) {
		*why = "the merged gmon.out cannot be read";
		goto out;
	}
	if (afd >= 0) {
		*why = "the merged gmon.out is not one monprof can add to";
		if (fstat(afd, &sb) != 0 || sb.st_uid != geteuid() ||
		    map(afd, &a) != 0) {
			close(afd);
			goto out;
		}
		close(afd);
	}
	len = (a.nhist + b.nhist) * sizeof(struct hrec) +
	    (a.narcs + b.narcs) * sizeof(struct arc);
	*why = "no memory to merge in";
	if ((arrays = __mon_mapped_anon(len)) == NULL)
		goto out;
	a.hist = (struct hrec *)(void *)arrays;
	b.hist = a.hist + a.nhist;
	a.arcs = (struct arc *)(void *)(b.hist + b.nhist);
	b.arcs = a.arcs + a.narcs;
	if (a.p != NULL)
		records(&a, 1);
	records(&b, 1);
	memset(&m, 0, sizeof(m));
	m.a = &a;
	m.b = &b;
	m.arcs = a.arcs;
	m.narcs = a.narcs + b.narcs;
	if ((rc = lay(&m, why)) == 0) {
		__mon_sort_heap(m.arcs, m.narcs, sizeof(*m.arcs), arccmp, NULL);
		rc = __mon_outfile_replace(path, fill_sum, &m);
	} else if (rc < 0) {
		*why = "no memory to merge in";
		rc = 1;
	}
	__mon_mapped_free(m.bins, m.nbins * sizeof(WORD));
	__mon_mapped_free(arrays, len);
out:
	unmap(&a);
	unmap(&b);
	return rc;
}
