/* SPDX-License-Identifier: MIT */
/*
 * callgrind.c - --callgrind=FILE: the profile in callgrind's format, for
 * callgrind_annotate and KCachegrind.  Two events, ns (the time) and
 * Calls; each function's lines with time carry their ns, its entry line
 * its calls.  Each call site is a calls= line whose cost is the calls'
 * inclusive time: from the sampled stacks where the profile has them
 * (the count, -pg's exact one, or 1 where no arc counted it), else from
 * -pg's arcs with gprof's estimate (propagate.c).  Names and files are
 * compressed, "(id) name" once, "(id)" after.  The format is a line a
 * record and a name runs to its line's end, so every name, file and path
 * is written printable (names_put): a symbol with a newline in it cannot
 * add a record of its own.
 *
 * callgrind_annotate takes a function's inclusive cost as what the calls
 * to it cost, so a stack's time goes to one call of each function in it:
 * the call into its outermost frame (the root's from <unknown>, the
 * caller the frame pointers could not show).  A recursion is then
 * counted once, and the calls inside a cycle carry what runs under them.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>

#include "views.h"

/* The names already given an id: NULL, or their id. */
struct ids {
	const char	**name;
	size_t		 n, cap;
};

/* "(id) NAME" the first time, "(id)" after, for the key KEY=. */
static void
named(FILE *fp, const char *key, struct ids *ids, const char *name)
{
	size_t i;

	/* A few hundred files and objects: a search is enough. */
	for (i = 0; i < ids->n; i++)
		if (strcmp(ids->name[i], name) == 0) {
			fprintf(fp, "%s=(%zu)\n", key, i + 1);
			return;
		}
	if (prof_grow(&ids->name, &ids->cap, ids->n + 1,
	    sizeof(*ids->name)) != 0)
		err(1, NULL);
	ids->name[ids->n++] = name;
	fprintf(fp, "%s=(%zu) ", key, ids->n);
	names_put(fp, name);
	fputc('\n', fp);
}

/* A call site as written: the calls' count and inclusive costs. */
struct cwarc {
	long		 caller, callee;	/* rows */
	uint64_t	 site;		/* the call's table address */
	long		 count;
	double		 secs, calls;
};

struct cgw {
	FILE			*fp;
	const struct symtab	*st;
	const struct lines	*ln;
	struct ids		 obs, files;
	char			**fnname;	/* per row */
	long			*fnid;		/* per row, 0: not yet */
	long			 nfn;
	double			 ns, calls;	/* the totals written */
	struct cwarc		*arc;		/* by caller, site, callee */
	size_t			 narc, arccap;
};

static void
fn(struct cgw *w, const char *key, long k)
{
	if (w->fnid[k] != 0) {
		fprintf(w->fp, "%s=(%ld)\n", key, w->fnid[k]);
		return;
	}
	w->fnid[k] = ++w->nfn;
	fprintf(w->fp, "%s=(%ld) ", key, w->fnid[k]);
	names_put(w->fp, w->fnname[k]);
	fputc('\n', w->fp);
}

static const char *
objof(const struct cgw *w, long k)
{
	const struct symobj *o;

	if (k == REPORT_UNKNOWN(w->st))
		return "???";
	o = symtab_object_at(w->st, w->st->ent[k].addr);
	return o != NULL ? o->path : w->st->path;
}

/* The file and line of A, "???" and 0 without line information. */
static void
where(const struct cgw *w, long k, uint64_t a, const char **file, int *line)
{
	long i = k == REPORT_UNKNOWN(w->st) ? -1 : srclines_at(&w->ln->sl, a);

	*file = i >= 0 && w->ln->sl.r[i].file ? w->ln->sl.r[i].file : "???";
	*line = i >= 0 ? w->ln->sl.r[i].line : 0;
}

/*
 * Row K: its object, file and name, its lines' costs (rows V[0..N-1] of
 * lines.c, by file), and its call sites (ARC[0..NARC-1]).
 */
static void
function(struct cgw *w, long k, const struct linerow *v, size_t n,
    const struct cwarc *arc, size_t narc)
{
	const char *file, *cfile, *cur;
	uint64_t a;
	size_t i;
	int line, cline;
	long ns;

	a = k == REPORT_UNKNOWN(w->st) ? 0 : w->st->ent[k].addr;
	where(w, k, a, &file, &line);
	named(w->fp, "ob", &w->obs, objof(w, k));
	named(w->fp, "fl", &w->files, file);
	fn(w, "fn", k);
	cur = file;
	for (i = 0; i < n; i++) {
		ns = lround(v[i].secs * 1e9);
		if (ns == 0 && v[i].calls == 0)
			continue;
		if (strcmp(v[i].file ? v[i].file : "???", cur) != 0) {
			cur = v[i].file ? v[i].file : "???";
			named(w->fp, strcmp(cur, file) == 0 ? "fe" : "fi",
			    &w->files, cur);
		}
		fprintf(w->fp, "%d %ld %ld\n", v[i].line, ns, v[i].calls);
		w->ns += ns;
		w->calls += v[i].calls;
	}
	if (strcmp(cur, file) != 0 && narc > 0)
		named(w->fp, "fe", &w->files, file);
	for (i = 0; i < narc; i++) {
		where(w, arc[i].callee, arc[i].callee == REPORT_UNKNOWN(w->st) ?
		    0 : w->st->ent[arc[i].callee].addr, &cfile, &cline);
		if (strcmp(objof(w, arc[i].callee), objof(w, k)) != 0)
			named(w->fp, "cob", &w->obs, objof(w, arc[i].callee));
		/* As callgrind: callgrind_annotate names cfi= apart. */
		if (strcmp(cfile, file) != 0)
			named(w->fp, "cfi", &w->files, cfile);
		fn(w, "cfn", arc[i].callee);
		/* calls=0 would make the cost the caller's own: 1 at least. */
		fprintf(w->fp, "calls=%ld %d\n", arc[i].count > 0 ?
		    arc[i].count : 1, cline);
		where(w, k, arc[i].site, &file, &line);
		fprintf(w->fp, "%d %ld %.0f\n", line, lround(arc[i].secs * 1e9),
		    arc[i].calls);
	}
	fputc('\n', w->fp);
}

static struct cwarc *
newarc(struct cgw *w, long caller, uint64_t site, long callee)
{
	struct cwarc *c;

	if (prof_grow(&w->arc, &w->arccap, w->narc + 1, sizeof(*c)) != 0)
		err(1, NULL);
	c = &w->arc[w->narc++];
	memset(c, 0, sizeof(*c));
	c->caller = caller;
	c->site = site;
	c->callee = callee;
	return c;
}

/*
 * -pg's arcs, with gprof's estimates of their inclusive calls, and of
 * their inclusive time unless the stacks have it (TIMED).
 */
static void
arcs_counted(struct cgw *w, const struct report *r,
    const struct callgraph *cg, int timed)
{
	const struct symtab *st = w->st;
	const struct cgarc *g;
	double *calls, *cost = NULL, *ccost = NULL;
	struct cwarc *c;
	size_t i;
	long k;

	if ((calls = calloc(st->nent + 1, sizeof(*calls))) == NULL)
		err(1, NULL);
	for (k = 0; k <= (long)st->nent; k++)
		calls[k] = r->ncalls[k];
	if (!timed)
		cost = propagate(cg, r->secs);
	ccost = propagate(cg, calls);
	free(calls);
	for (i = 0; i < cg->n; i++) {
		g = &cg->arc[i];
		/* <external>'s pc is its own address, not a return one. */
		c = newarc(w, g->caller, g->from - (g->caller !=
		    REPORT_UNKNOWN(st) && st->ent[g->caller].addr == g->from ?
		    0 : 1), g->callee);
		c->count = g->count;
		c->secs = timed ? 0 : cost[i];
		c->calls = ccost[i];
	}
	free(cost);
	free(ccost);
}

/*
 * The stacks' calls: each stack's time to the call into the outermost
 * frame of each function in it.
 */
static void
arcs_sampled(struct cgw *w, const struct callstacks *cs)
{
	const struct csstack *s;
	const struct csframe *f;
	size_t i, j, *seen;
	struct cwarc *c;

	if ((seen = calloc(w->st->nent + 1, sizeof(*seen))) == NULL)
		err(1, NULL);
	for (i = 0; i < cs->nstack; i++) {
		s = &cs->stack[i];
		f = &cs->frame[s->off];
		for (j = 0; j < s->depth; j++) {
			if (seen[f[j].row] == i + 1)
				continue;
			seen[f[j].row] = i + 1;
			c = j == 0 ? newarc(w, REPORT_UNKNOWN(w->st), 0,
			    f[0].row) : newarc(w, f[j - 1].row, f[j - 1].addr,
			    f[j].row);
			c->secs = s->secs;
		}
	}
	free(seen);
}

static int
arccmp(const void *a, const void *b)
{
	const struct cwarc *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->site != y->site)
		return x->site < y->site ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* By caller and callee, then site. */
static int
paircmp(const void *a, const void *b)
{
	const struct cwarc *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

/*
 * The call sites, by caller, site and callee, each once.  A sampled call
 * whose caller calls its callee from one site that -pg counted goes to
 * that site: the two name the site's address differently (the return
 * address, the call instruction's).
 */
static void
arcs(struct cgw *w, const struct report *r, const struct callgraph *cg)
{
	struct cwarc *a = NULL, *counted = NULL;
	size_t i, j, k, n;

	if (cg != NULL)
		arcs_counted(w, r, cg, r->stacks.has);
	if (r->stacks.has)
		arcs_sampled(w, &r->stacks);
	qsort(w->arc, w->narc, sizeof(*w->arc), paircmp);
	for (i = 0; i < w->narc; i = j) {
		for (j = i, n = 0; j < w->narc && w->arc[j].caller ==
		    w->arc[i].caller && w->arc[j].callee == w->arc[i].callee;
		    j++)
			if (w->arc[j].count > 0) {
				n++;
				counted = &w->arc[j];
			}
		for (k = i; n == 1 && k < j; k++)
			if (w->arc[k].count == 0)
				w->arc[k].site = counted->site;
	}
	qsort(w->arc, w->narc, sizeof(*w->arc), arccmp);
	for (i = n = 0; i < w->narc; i++) {
		a = n > 0 ? &w->arc[n - 1] : NULL;
		if (a != NULL && arccmp(a, &w->arc[i]) == 0) {
			a->count += w->arc[i].count;
			a->secs += w->arc[i].secs;
			a->calls += w->arc[i].calls;
		} else
			w->arc[n++] = w->arc[i];
	}
	w->narc = n;
}

/*
 * Write the model M (its report, its lines, -pg's arcs where it has
 * them) to PATH in callgrind's format; exit on failure.
 */
void
callgrind_write(const char *path, const struct model *m)
{
	const struct report *r = &m->r;
	const struct lines *ln = &m->ln;
	const struct callgraph *cg = m->hasarcs ? &m->cg : NULL;
	const struct symtab *st = r->st;
	struct cgw w;
	size_t i, j, c, c0, nk;
	long k;
	int any, wanted;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.ln = ln;
	if ((w.fp = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	if ((w.fnname = calloc(st->nent + 1, sizeof(*w.fnname))) == NULL ||
	    (w.fnid = calloc(st->nent + 1, sizeof(*w.fnid))) == NULL)
		err(1, NULL);
	for (k = 0; k <= (long)st->nent; k++)
		w.fnname[k] = rows_label(st, k);
	arcs(&w, r, cg);
	fprintf(w.fp, "# callgrind format\nversion: 1\ncreator: monprof prof "
	    "%s\ncmd: ", PROF_VERSION);
	names_put(w.fp, st->path);
	fprintf(w.fp, "\npositions: line\nevent: ns : Time (ns)\n"
	    "event: Calls : Calls\nevents: ns Calls\n\n");
	/*
	 * Rows with lines (lines.c's, by row) or calls to make.  Under -f,
	 * a function it does not name keeps only its calls to one it does,
	 * so that their inclusive time stays whole, and none of its own.
	 */
	for (i = c = 0, k = 0; k <= (long)st->nent; k++, i = j) {
		wanted = rows_wanted(st, k, m->filter);
		for (j = i, any = 0; j < ln->n && ln->rows[j].row == k; j++)
			any |= wanted && (lround(ln->rows[j].secs * 1e9) != 0 ||
			    ln->rows[j].calls != 0);
		for (c0 = c, nk = 0; c < w.narc && w.arc[c].caller == k; c++)
			if (wanted || rows_wanted(st, w.arc[c].callee,
			    m->filter))
				w.arc[c0 + nk++] = w.arc[c];
		if (any || nk > 0)
			function(&w, k, &ln->rows[i], any ? j - i : 0,
			    &w.arc[c0], nk);
	}
	fprintf(w.fp, "totals: %.0f %.0f\n", w.ns, w.calls);
	if (fclose(w.fp) != 0)
		err(1, "%s", path);
	for (k = 0; k <= (long)st->nent; k++)
		free(w.fnname[k]);
	free(w.fnname);
	free(w.fnid);
	free(w.obs.name);
	free(w.files.name);
	free(w.arc);
}
