/* SPDX-License-Identifier: MIT */
/*
 * callgraph.c - who calls whom, from the arcs of -pg's gmon.out (the
 * same run's as mon.out; gmons.c reads them), with their exact counts,
 * for -G (graphview.c) and the exports.  Arcs are named the way report.c
 * names cells (the callee by its calls row, the caller by the row its
 * time goes to, so both follow -g and -l), summed over files, and
 * checked against the profile: in a -pg run a function's count is the
 * sum of its arcs, so a gmon.out of another run is found out and
 * refused.
 */
#include <limits.h>
#include <stdlib.h>

#include "model.h"

#define EXTERNAL_NAME	"<external>"	/* runtime/gmonout.c's caller */

void
callgraph_init(struct callgraph *cg, const struct symtab *st)
{
	memset(cg, 0, sizeof(*cg));
	cg->st = st;
}

void
callgraph_free(struct callgraph *cg)
{
	free(cg->arc);
	memset(cg, 0, sizeof(*cg));
}

static int
external(const struct symtab *st, long k)
{
	return strcmp(st->names[st->ent[k].name0].name, EXTERNAL_NAME) == 0;
}

/*
 * The row that calls from the return address PC (sym < PC <= sym + size,
 * as a cell's pc), or from <external>, whose pc is its own address: see
 * the top.
 */
static long
callerof(const struct symtab *st, uint64_t pc)
{
	long k, at = symtab_lookup(st, pc + 1);

	/* Shown or not (-l), the pseudo-caller is itself. */
	if (at >= 0 && st->ent[at].addr == pc && external(st, at))
		return at;
	if ((k = symtab_lookup(st, pc)) < 0 && (k = at) < 0)
		return REPORT_UNKNOWN(st);
	return st->ent[k].row >= 0 ? st->ent[k].row : REPORT_UNKNOWN(st);
}

/* Add the arcs of GF: 0, or -1 out of memory. */
int
callgraph_add(struct callgraph *cg, const struct gmonfile *gf)
{
	const struct symtab *st = cg->st;
	struct cgarc *a;
	size_t i;
	long k, c;

	for (i = 0; i < gf->narc; i++) {
		if ((k = symtab_lookup(st, gf->arc[i].self)) < 0)
			c = REPORT_UNKNOWN(st);
		else if ((c = st->ent[k].calls) < 0)
			continue;		/* -l drops its calls */
		if (prof_grow(&cg->arc, &cg->cap, cg->n + 1,
		    sizeof(*cg->arc)) != 0)
			return -1;
		a = &cg->arc[cg->n++];
		a->caller = callerof(st, gf->arc[i].from);
		a->callee = c;
		a->from = gf->arc[i].from;
		a->count = gf->arc[i].count > LONG_MAX ? LONG_MAX :
		    (long)gf->arc[i].count;
	}
	cg->nfiles++;
	return 0;
}

static int
sitecmp(const void *a, const void *b)
{
	const struct cgarc *x = a, *y = b;

	if (x->callee != y->callee)
		return x->callee < y->callee ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->caller < y->caller ? -1 : x->caller > y->caller;
}

/* Merge the arcs of one call site (several files, split counts). */
static void
merge(struct callgraph *cg)
{
	size_t i, n = 0;

	if (cg->n == 0)
		return;
	qsort(cg->arc, cg->n, sizeof(*cg->arc), sitecmp);
	for (i = 0; i < cg->n; i++) {
		if (n > 0 && sitecmp(&cg->arc[n - 1], &cg->arc[i]) == 0) {
			if (__builtin_add_overflow(cg->arc[n - 1].count,
			    cg->arc[i].count, &cg->arc[n - 1].count))
				cg->arc[n - 1].count = LONG_MAX;
		} else
			cg->arc[n++] = cg->arc[i];
	}
	cg->n = n;
}

/* The first arc into the row CALLEE (cg->n if none). */
size_t
callgraph_first(const struct callgraph *cg, long callee)
{
	size_t lo = 0, hi = cg->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cg->arc[mid].callee < callee)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Done adding: merge the arcs, and check them against R, the profiles
 * of the same runs.  NULL, or why the arcs are not of those runs.  A
 * shared object's functions have no arcs (gmon.out is the
 * executable's), and what is in no function is not compared.
 */
const char *
callgraph_done(struct callgraph *cg, const struct report *r, char *ebuf,
    size_t esz)
{
	const struct symtab *st = cg->st;
	long *sum, bad = -1;
	size_t i, nbad = 0;
	char *name;

	merge(cg);
	if ((sum = calloc(st->nent + 1, sizeof(*sum))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < cg->n; i++)
		if (__builtin_add_overflow(sum[cg->arc[i].callee],
		    cg->arc[i].count, &sum[cg->arc[i].callee]))
			sum[cg->arc[i].callee] = LONG_MAX;
	for (i = 0; i < st->nent; i++)
		if (st->ent[i].addr < SYMTAB_OBJECT_BASE &&
		    sum[i] != r->ncalls[i] && nbad++ == 0)
			bad = i;
	if (nbad > 0) {
		name = names_text(rows_symbol(st, bad));
		prof_errf(ebuf, esz, "not of the run the profile is of: the "
		    "calls of %zu function%s differ (%s: %ld in the profile, "
		    "%ld in the arcs)", nbad, nbad == 1 ? "" : "s", name,
		    r->ncalls[bad], sum[bad]);
		free(name);
	}
	free(sum);
	return nbad > 0 ? ebuf : NULL;
}
