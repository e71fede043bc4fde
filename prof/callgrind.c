/* SPDX-License-Identifier: MIT */
/*
 * callgrind.c - --callgrind=FILE: the profile in callgrind's format, for
 * callgrind_annotate and KCachegrind.  Two events, ns (the time) and
 * Calls; each function's lines with time carry their ns, its entry line
 * its calls.  With -pg's arcs, each call site is a calls= line (the
 * exact count) whose cost is gprof's estimate of the calls' time
 * (propagate.c), so that inclusive times can be shown.  Names and files
 * are compressed, "(id) name" once, "(id)" after.  The format is a line
 * a record and a name runs to its line's end, so every name, file and
 * path is written printable (names_put): a symbol with a newline in it
 * cannot add a record of its own.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>

#include "prof.h"

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

struct cgw {
	FILE			*fp;
	const struct symtab	*st;
	const struct lines	*ln;
	struct ids		 obs, files;
	char			**fnname;	/* per row */
	long			*fnid;		/* per row, 0: not yet */
	long			 nfn;
	double			 ns, calls;	/* the totals written */
	double			*cost, *ccost;	/* per arc: its seconds, calls */
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
 * lines.c, by file), and its call sites (the arcs CALLS[0..NCALLS-1] of
 * CG, their costs in w->cost and w->ccost).
 */
static void
function(struct cgw *w, long k, const struct linerow *v, size_t n,
    const struct callgraph *cg, const size_t *calls, size_t ncalls)
{
	const char *file, *cfile, *cur;
	uint64_t a;
	size_t i, j;
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
	if (strcmp(cur, file) != 0 && ncalls > 0)
		named(w->fp, "fe", &w->files, file);
	for (j = 0; j < ncalls; j++) {
		i = calls[j];
		where(w, cg->arc[i].callee, cg->arc[i].callee ==
		    REPORT_UNKNOWN(w->st) ? 0 : w->st->ent[cg->arc[i].callee].addr,
		    &cfile, &cline);
		if (strcmp(objof(w, cg->arc[i].callee), objof(w, k)) != 0)
			named(w->fp, "cob", &w->obs, objof(w,
			    cg->arc[i].callee));
		/* As callgrind: callgrind_annotate names cfi= apart. */
		if (strcmp(cfile, file) != 0)
			named(w->fp, "cfi", &w->files, cfile);
		fn(w, "cfn", cg->arc[i].callee);
		fprintf(w->fp, "calls=%ld %d\n", cg->arc[i].count, cline);
		/* <external>'s pc is its own address, not a return one. */
		where(w, k, cg->arc[i].from - (a == cg->arc[i].from ? 0 : 1),
		    &file, &line);
		fprintf(w->fp, "%d %ld %.0f\n", line, lround(w->cost[i] * 1e9),
		    w->ccost[i]);
	}
	fputc('\n', w->fp);
}

/* By caller: the arcs of one function together. */
static int
bycaller(const void *a, const void *b, void *arg)
{
	const struct callgraph *cg = arg;
	const struct cgarc *x = &cg->arc[*(const size_t *)a];
	const struct cgarc *y = &cg->arc[*(const size_t *)b];

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/*
 * Write R (its lines LN, the arcs CG or NULL) to PATH in callgrind's
 * format; exit on failure.
 */
void
callgrind_write(const char *path, const struct report *r,
    const struct lines *ln, const struct callgraph *cg)
{
	const struct symtab *st = r->st;
	struct cgw w;
	size_t i, j, c, c0, narc = cg != NULL ? cg->n : 0, *order;
	double *calls;
	const char *raw;
	long k;
	int any;

	memset(&w, 0, sizeof(w));
	w.st = st;
	w.ln = ln;
	if ((w.fp = fopen(path, "w")) == NULL)
		err(1, "%s", path);
	if ((w.fnname = calloc(st->nent + 1, sizeof(*w.fnname))) == NULL ||
	    (w.fnid = calloc(st->nent + 1, sizeof(*w.fnid))) == NULL ||
	    (order = calloc(narc + 1, sizeof(*order))) == NULL)
		err(1, NULL);
	for (k = 0; k <= (long)st->nent; k++) {
		raw = names_first(st, k);
		if ((w.fnname[k] = names_demangle(raw)) == NULL &&
		    (w.fnname[k] = strdup(raw)) == NULL)
			err(1, NULL);
	}
	/* Inclusive costs, both events: gprof's estimate (propagate.c). */
	if (cg != NULL) {
		if ((calls = calloc(st->nent + 1, sizeof(*calls))) == NULL)
			err(1, NULL);
		for (k = 0; k <= (long)st->nent; k++)
			calls[k] = r->ncalls[k];
		w.cost = propagate(cg, r->secs);
		w.ccost = propagate(cg, calls);
		free(calls);
	}
	for (i = 0; i < narc; i++)
		order[i] = i;
	qsort_r(order, narc, sizeof(*order), bycaller, (void *)cg);
	fprintf(w.fp, "# callgrind format\nversion: 1\ncreator: monprof prof "
	    "%s\ncmd: ", PROF_VERSION);
	names_put(w.fp, st->path);
	fprintf(w.fp, "\npositions: line\nevent: ns : Time (ns)\n"
	    "event: Calls : Calls\nevents: ns Calls\n\n");
	/* Rows with lines (lines.c's, by row) or calls to make. */
	for (i = c = 0, k = 0; k <= (long)st->nent; k++, i = j) {
		for (j = i, any = 0; j < ln->n && ln->rows[j].row == k; j++)
			any |= lround(ln->rows[j].secs * 1e9) != 0 ||
			    ln->rows[j].calls != 0;
		for (c0 = c; c < narc && cg->arc[order[c]].caller == k; c++)
			;
		if (any || c > c0)
			function(&w, k, &ln->rows[i], j - i, cg, &order[c0],
			    c - c0);
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
	free(order);
	free(w.cost);
	free(w.ccost);
}
