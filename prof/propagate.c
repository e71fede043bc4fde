/* SPDX-License-Identifier: MIT */
/*
 * propagate.c - gprof's estimate of the time a call costs, its callee's
 * own time and what that callee calls: a function's total time is
 * passed to its callers in proportion to the calls each made to it.
 * Functions that call each other in a cycle are one node (Tarjan's
 * strongly connected components); calls inside a cycle pass no time.
 * Only the counts are exact: a function whose calls cost unequal times
 * (a short and a long argument) misleads the estimate, as in gprof.
 */
#include <err.h>
#include <stdlib.h>

#include "model.h"

/* Tarjan's walk, without recursion (call graphs can be deep). */
struct walk {
	size_t		*first, *to;	/* out-arcs by caller (CSR): arcs */
	long		*index, *low, *comp;
	long		*stack, *path;
	size_t		*next;		/* the next out-arc to look at */
	long		 nindex, ncomp;
	size_t		 sp;
};

static void
visit(struct walk *w, const struct callgraph *cg, long v0)
{
	size_t depth = 0;
	long v, u, x;

	w->path[depth++] = v0;
	w->index[v0] = w->low[v0] = w->nindex++;
	w->stack[w->sp++] = v0;
	w->next[v0] = w->first[v0];
	while (depth > 0) {
		v = w->path[depth - 1];
		if (w->next[v] < w->first[v + 1]) {
			u = cg->arc[w->to[w->next[v]++]].callee;
			if (w->index[u] < 0) {
				w->index[u] = w->low[u] = w->nindex++;
				w->stack[w->sp++] = u;
				w->next[u] = w->first[u];
				w->path[depth++] = u;
			} else if (w->comp[u] < 0 && w->index[u] < w->low[v])
				w->low[v] = w->index[u];
			continue;
		}
		depth--;
		if (depth > 0 && w->low[v] < w->low[w->path[depth - 1]])
			w->low[w->path[depth - 1]] = w->low[v];
		if (w->low[v] != w->index[v])
			continue;
		do {			/* v roots a component: pop it */
			x = w->stack[--w->sp];
			w->comp[x] = w->ncomp;
		} while (x != v);
		w->ncomp++;
	}
}

/*
 * The estimated cost of each arc of CG, into a new array of cg->n: the
 * callee's (component's) total of SELF (per row: seconds, or calls)
 * times the arc's share of the calls into it from outside its
 * component; 0 inside a cycle.
 */
double *
propagate(const struct callgraph *cg, const double *self)
{
	size_t nrow = cg->st->nent + 1, i, j;
	double *cost, *total, *in;
	struct walk w;
	long c, d, v;

	memset(&w, 0, sizeof(w));
	if ((w.first = calloc(nrow + 1, sizeof(*w.first))) == NULL ||
	    (w.to = calloc(cg->n + 1, sizeof(*w.to))) == NULL ||
	    (w.index = malloc(nrow * sizeof(*w.index))) == NULL ||
	    (w.low = calloc(nrow, sizeof(*w.low))) == NULL ||
	    (w.comp = malloc(nrow * sizeof(*w.comp))) == NULL ||
	    (w.stack = calloc(nrow, sizeof(*w.stack))) == NULL ||
	    (w.path = calloc(nrow, sizeof(*w.path))) == NULL ||
	    (w.next = calloc(nrow, sizeof(*w.next))) == NULL ||
	    (cost = calloc(cg->n + 1, sizeof(*cost))) == NULL ||
	    (total = calloc(nrow, sizeof(*total))) == NULL ||
	    (in = calloc(nrow, sizeof(*in))) == NULL)
		err(1, NULL);
	for (i = 0; i < cg->n; i++)
		w.first[cg->arc[i].caller + 1]++;
	for (i = 0; i < nrow; i++)
		w.first[i + 1] += w.first[i];
	for (i = 0; i < cg->n; i++)
		w.to[w.first[cg->arc[i].caller] + w.next[cg->arc[i].caller]++] =
		    i;
	for (i = 0; i < nrow; i++)
		w.index[i] = w.comp[i] = -1;
	for (i = 0; i < nrow; i++)
		if (w.index[i] < 0)
			visit(&w, cg, i);

	/* Components come callees first: each total is known when used. */
	for (i = 0; i < cg->n; i++)
		if ((d = w.comp[cg->arc[i].callee]) != w.comp[cg->arc[i].caller])
			in[d] += cg->arc[i].count;
	for (i = 0; i < nrow; i++)
		total[w.comp[i]] += self[i];
	/* The rows by component (w.path is free again): a counting sort. */
	for (i = 0; i < nrow; i++)
		w.low[i] = 0;
	for (i = 0; i < nrow; i++)
		w.low[w.comp[i]]++;
	for (c = 1; c < w.ncomp; c++)
		w.low[c] += w.low[c - 1];
	for (v = (long)nrow - 1; v >= 0; v--)
		w.path[--w.low[w.comp[v]]] = v;
	for (j = 0; j < nrow; j++) {
		v = w.path[j];
		c = w.comp[v];
		for (i = w.first[v]; i < w.first[v + 1]; i++) {
			d = w.comp[cg->arc[w.to[i]].callee];
			if (d == c || in[d] <= 0)
				continue;
			cost[w.to[i]] = total[d] * cg->arc[w.to[i]].count /
			    in[d];
			total[c] += cost[w.to[i]];
		}
	}
	free(w.first);
	free(w.to);
	free(w.index);
	free(w.low);
	free(w.comp);
	free(w.stack);
	free(w.path);
	free(w.next);
	free(total);
	free(in);
	return cost;
}
