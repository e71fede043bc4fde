/* SPDX-License-Identifier: MIT */
/*
 * graphview.c - -G: for each row of the report, in its order, its calls
 * and time, then its callers and its callees, one line each (call sites
 * merged): the exact count of -pg's arcs where the run left them, and
 * from the sampled stacks the time under the calls, each sample once
 * per caller and callee however often the pair recurs in its stack.
 * Functions that call each other round (odd and even) are named as one
 * cycle, <cycle N>, as gprof names them; their inclusive
 * times count each sample once, as pprof's do.  As a table, or as CSV
 * or JSON rows (--format).
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>

#include "views.h"

/* An edge of the listing: calls from one row to another. */
struct edge {
	long		 row, other;	/* listed under row */
	long		 count;		/* -pg's, 0: none */
	double		 secs;		/* the stacks' time under the calls */
	const char	*name;		/* other's */
};

static int
edgecmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	int c;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->other < y->other ? -1 : x->other > y->other;
}

static int
paircmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->other < y->other ? -1 : x->other > y->other;
}

struct edges {
	struct edge	*v;
	size_t		 n, cap;
};

static void
add(struct edges *e, long row, long other, long count, double secs)
{
	struct edge *x;

	if (prof_grow(&e->v, &e->cap, e->n + 1, sizeof(*e->v)) != 0)
		err(1, NULL);
	x = &e->v[e->n++];
	x->row = row;
	x->other = other;
	x->count = count;
	x->secs = secs;
	x->name = "";
}

/*
 * Each caller -> callee pair of the stacks once per stack (the pairs of
 * one stack in a small table of its own, cleared by a stamp).
 */
static void
stackpairs(struct edges *e, const struct callstacks *cs, int callers)
{
	enum { SLOTS = 1024 };		/* > 2 * MONSTACKS_DEPTH */
	static long key[SLOTS][2];
	static size_t stamp[SLOTS];
	const struct csframe *f;
	size_t i, j, h;
	long a, b;

	memset(stamp, 0, sizeof(stamp));
	for (i = 0; i < cs->nstack; i++) {
		f = &cs->frame[cs->stack[i].off];
		for (j = 0; j + 1 < cs->stack[i].depth; j++) {
			a = f[j].row;
			b = f[j + 1].row;
			h = (size_t)(a * 31 + b) & (SLOTS - 1);
			while (stamp[h] == i + 1 && (key[h][0] != a ||
			    key[h][1] != b))
				h = (h + 1) & (SLOTS - 1);
			if (stamp[h] == i + 1)
				continue;
			stamp[h] = i + 1;
			key[h][0] = a;
			key[h][1] = b;
			add(e, callers ? b : a, callers ? a : b, 0,
			    cs->stack[i].secs);
		}
	}
}

/*
 * The edges by row, both ways: the callers of each row (CALLERS) or its
 * callees, from the arcs (CG, or NULL) and the stacks, merged by pair,
 * most calls (then time) first; *N of them.
 */
static struct edge *
edges(const struct callgraph *cg, const struct callstacks *cs, char **names,
    int callers, size_t *np)
{
	struct edges e = { NULL, 0, 0 };
	size_t i, n = 0;

	for (i = 0; cg != NULL && i < cg->n; i++)
		add(&e, callers ? cg->arc[i].callee : cg->arc[i].caller,
		    callers ? cg->arc[i].caller : cg->arc[i].callee,
		    cg->arc[i].count, 0);
	stackpairs(&e, cs, callers);
	add(&e, LONG_MAX, 0, 0, 0);	/* room for none, and an end */
	e.n--;
	qsort(e.v, e.n, sizeof(*e.v), paircmp);
	for (i = 0; i < e.n; i++) {
		if (n > 0 && paircmp(&e.v[n - 1], &e.v[i]) == 0) {
			if (__builtin_add_overflow(e.v[n - 1].count,
			    e.v[i].count, &e.v[n - 1].count))
				e.v[n - 1].count = LONG_MAX;
			e.v[n - 1].secs += e.v[i].secs;
		} else
			e.v[n++] = e.v[i];
	}
	for (i = 0; i < n; i++)
		e.v[i].name = names[e.v[i].other];
	qsort(e.v, n, sizeof(*e.v), edgecmp);
	*np = n;
	return e.v;
}

/* The first edge of ROW in V (by row), or N. */
static size_t
first(const struct edge *v, size_t n, long row)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v[mid].row < row)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The cycles of the callee edges OUT (by row): cyc[row] = N > 0 for the
 * rows of the Nth strongly connected component of more than one row (a
 * function that only calls itself is no cycle, as in gprof); Tarjan's
 * algorithm, with a stack of its own (a recursion as deep as the
 * program's would not do).  How many.
 */
static int
cycles(const struct edge *out, size_t nout, size_t nrows, int *cyc)
{
	long *index, *low, *stk, *call, row, w;
	size_t *at, top = 0, depth = 0, i, k, pos;
	long next = 1;
	int ncyc = 0, named;

	index = calloc(nrows, sizeof(*index));
	low = calloc(nrows, sizeof(*low));
	stk = calloc(nrows, sizeof(*stk));
	call = calloc(nrows, sizeof(*call));
	at = calloc(nrows, sizeof(*at));
	if (!index || !low || !stk || !call || !at)
		err(1, NULL);
	for (k = 0; k < nrows; k++) {
		if (index[k] != 0)
			continue;
		call[depth] = (long)k;
		at[depth++] = first(out, nout, (long)k);
		index[k] = low[k] = next++;
		stk[top++] = (long)k;
		while (depth > 0) {
			row = call[depth - 1];
			i = at[depth - 1]++;
			if (i < nout && out[i].row == row) {
				w = out[i].other;
				if (index[w] == 0) {
					index[w] = low[w] = next++;
					stk[top++] = w;
					call[depth] = w;
					at[depth++] = first(out, nout, w);
				} else if (index[w] > 0 && index[w] < low[row])
					low[row] = index[w];
				continue;
			}
			/* row is done: the root of a component? */
			if (low[row] == index[row]) {
				for (pos = top; stk[pos - 1] != row; pos--)
					continue;
				named = top - pos + 1 > 1;
				ncyc += named;
				while (top >= pos) {
					w = stk[--top];
					index[w] = -1;	/* off the stack */
					cyc[w] = named ? ncyc : 0;
				}
			}
			depth--;
			if (depth > 0 && low[row] < low[call[depth - 1]])
				low[call[depth - 1]] = low[row];
		}
	}
	free(index);
	free(low);
	free(stk);
	free(call);
	free(at);
	return ncyc;
}

/* The rows -G lists: the report's, and those with time under them. */
static struct row *
graphrows(const struct report *r, const struct prof_opts *o, size_t *np)
{
	struct prof_opts go = *o;

	go.inclusive = r->stacks.has;
	return rows_get(r, &go, np);
}

/* What the listing and the export share. */
struct view {
	char		**names;	/* per row */
	struct edge	*in, *out;	/* callers, callees of each row */
	size_t		 nin, nout;
	int		*cyc;		/* per row: its cycle, 0 none */
	struct row	*rows;
	size_t		 n;
};

static void
view_open(struct view *v, const struct callgraph *cg, const struct report *r,
    const struct prof_opts *o)
{
	const struct symtab *st = r->st;
	size_t k;

	if ((v->names = calloc(st->nent + 1, sizeof(*v->names))) == NULL ||
	    (v->cyc = calloc(st->nent + 1, sizeof(*v->cyc))) == NULL)
		err(1, NULL);
	for (k = 0; k <= st->nent; k++)
		v->names[k] = rows_name(st, k, o->demangle, 1);
	v->in = edges(cg, &r->stacks, v->names, 1, &v->nin);
	v->out = edges(cg, &r->stacks, v->names, 0, &v->nout);
	cycles(v->out, v->nout, st->nent + 1, v->cyc);
	v->rows = graphrows(r, o, &v->n);
}

static void
view_close(struct view *v, const struct symtab *st)
{
	size_t k;

	for (k = 0; k <= st->nent; k++)
		free(v->names[k]);
	free(v->names);
	free(v->cyc);
	free(v->rows);
	free(v->in);
	free(v->out);
}

/* The edges of ROW in V (by row), under the heading WHAT. */
static void
list(FILE *fp, const char *what, const struct edge *v, size_t n, long row,
    int timed)
{
	size_t lo = first(v, n, row), i;

	for (i = lo; i < n && v[i].row == row; i++) {
		if (i == lo)
			fprintf(fp, "    %s:\n", what);
		if (v[i].count != 0)
			fprintf(fp, "    %10ld  ", v[i].count);
		else
			fprintf(fp, "    %10s  ", "");
		if (timed)
			fprintf(fp, "%7.2f s  ", v[i].secs);
		names_put(fp, v[i].name);
		fputc('\n', fp);
	}
}

/*
 * -G: for each row of the report, in its order, its calls, time and
 * cycle, then its callers and callees with their counts (-pg's arcs,
 * where the model has them) and the time under them.
 */
void
graphview_print(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	const struct report *r = &m->r;
	int timed = r->stacks.has;
	struct view v;
	size_t i;
	long row;

	view_open(&v, m->hasarcs ? &m->cg : NULL, r, o);
	for (i = 0; i < v.n; i++) {
		row = v.rows[i].k;
		if (i > 0)
			fputc('\n', fp);
		names_put(fp, v.names[row]);
		fprintf(fp, ": %ld call%s", r->ncalls[row],
		    r->ncalls[row] == 1 ? "" : "s");
		if (v.cyc[row] != 0)
			fprintf(fp, ", <cycle %d>", v.cyc[row]);
		fprintf(fp, ", %.2f s (%.1f%%)", r->secs[row], r->total > 0 ?
		    100.0 * r->secs[row] / r->total : 0.0);
		if (timed)
			fprintf(fp, ", %.2f s inclusive (%.1f%%)",
			    v.rows[i].incl, r->total > 0 ? 100.0 *
			    v.rows[i].incl / r->total : 0.0);
		fputc('\n', fp);
		list(fp, "callers", v.in, v.nin, row, timed);
		list(fp, "callees", v.out, v.nout, row, timed);
	}
	view_close(&v, r->st);
}

/* One exported edge (or the function's own row, OTHER < 0). */
static void
xedge(struct export *x, const struct view *v, const struct report *r,
    long row, const char *rel, const struct edge *e)
{
	struct xval c[7];
	char cycle[32];

	snprintf(cycle, sizeof(cycle), "<cycle %d>", v->cyc[row]);
	c[0] = (struct xval){ .kind = XVAL_STR, .s = v->names[row] };
	c[1] = (struct xval){ .kind = v->cyc[row] ? XVAL_STR : XVAL_NULL,
	    .s = cycle };
	c[2] = (struct xval){ .kind = XVAL_STR, .s = rel };
	c[3] = (struct xval){ .kind = e != NULL ? XVAL_STR : XVAL_NULL,
	    .s = e != NULL ? e->name : NULL };
	if (e == NULL) {
		c[4] = (struct xval){ .kind = XVAL_INT, .l = r->ncalls[row] };
		c[5] = (struct xval){ .kind = XVAL_NUM, .d = r->secs[row] };
		c[6] = (struct xval){ .kind = r->stacks.has ? XVAL_NUM :
		    XVAL_NULL, .d = r->stacks.incl[row] };
	} else {
		c[4] = (struct xval){ .kind = e->count ? XVAL_INT : XVAL_NULL,
		    .l = e->count };
		c[5] = (struct xval){ .kind = XVAL_NULL };
		c[6] = (struct xval){ .kind = r->stacks.has ? XVAL_NUM :
		    XVAL_NULL, .d = e->secs };
	}
	export_row(x, c);
}

/*
 * -G --format=csv|json: per row of the listing, the function's own row
 * (relation "function": its calls, seconds and inclusive seconds), then
 * one per caller and per callee (the calls, null without -pg's arcs,
 * and the time under them).
 */
void
graphview_export(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	static const char *const cols[] = { "name", "cycle", "relation",
	    "other", "calls", "seconds", "inclusive" };
	const struct report *r = &m->r;
	struct export x;
	struct view v;
	size_t i, j;
	long row;

	view_open(&v, m->hasarcs ? &m->cg : NULL, r, o);
	export_begin(&x, fp, o->format, r, cols, 7);
	for (i = 0; i < v.n; i++) {
		row = v.rows[i].k;
		xedge(&x, &v, r, row, "function", NULL);
		for (j = first(v.in, v.nin, row); j < v.nin &&
		    v.in[j].row == row; j++)
			xedge(&x, &v, r, row, "caller", &v.in[j]);
		for (j = first(v.out, v.nout, row); j < v.nout &&
		    v.out[j].row == row; j++)
			xedge(&x, &v, r, row, "callee", &v.out[j]);
	}
	export_end(&x);
	view_close(&v, r->st);
}
