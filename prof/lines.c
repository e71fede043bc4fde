/* SPDX-License-Identifier: MIT */
/*
 * lines.c - the report per source line, for -L, -A and the exports
 * (lineview.c prints it).  Each share of a bin that report.c gives a
 * function is split among the function's lines by bytes (srcline.c's
 * ranges cover its text exactly), so a function's lines add up to its
 * time; its calls are on the line of its entry.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>

#include "model.h"

/* Load ST's line tables (there may be none), or exit. */
void
lines_open(struct lines *ln, const struct symtab *st)
{
	char ebuf[160];
	const char *e;

	memset(ln, 0, sizeof(*ln));
	ln->st = st;
	if ((e = srclines_load(&ln->sl, st, ebuf, sizeof(ebuf))) != NULL)
		errx(1, "%s: %s", st->path, e);
	if ((ln->secs = calloc(ln->sl.n + 1, sizeof(*ln->secs))) == NULL)
		err(1, NULL);
}

/*
 * For -L and -A: exit if no function with time or calls has line
 * information, saying to rebuild with -g; warn if some called ones have
 * none (code the plugin counted but built without -g; assembly, such as
 * the runtime's stubs, is never called through the plugin's hook).
 */
void
lines_check(const struct lines *ln)
{
	const struct linerow *lr;
	size_t i, with = 0, without = 0;

	for (i = 0; i < ln->n; i++) {
		lr = &ln->rows[i];
		if (lr->row == REPORT_UNKNOWN(ln->st) ||
		    (lr->secs == 0 && lr->calls == 0))
			continue;
		if (lr->file != NULL)
			with++;
		else if (lr->calls != 0)
			without++;
	}
	if (with == 0)
		errx(1, "%s: no line information: rebuild with -g",
		    ln->st->path);
	if (without > 0)
		warnx("%s: %zu called function%s without line information "
		    "(\?\?): rebuild with -g", ln->st->path, without,
		    without == 1 ? "" : "s");
}

/* report.c's share of a bin: [LO, HI) of entry K, SECS to split. */
static void
piece(void *arg, long k, uint64_t lo, uint64_t hi, double secs)
{
	struct lines *ln = arg;
	const struct srcrange *r;
	uint64_t a, b;
	long i;

	(void)k;
	if (hi <= lo || (i = srclines_at(&ln->sl, lo)) < 0)
		return;
	for (; (size_t)i < ln->sl.n && (r = &ln->sl.r[i])->lo < hi; i++) {
		a = r->lo > lo ? r->lo : lo;
		b = r->hi < hi ? r->hi : hi;
		ln->secs[i] += secs * (double)(b - a) / (double)(hi - lo);
	}
}

/* Have R tell LN of every share it gives, from now on. */
void
lines_attach(struct lines *ln, struct report *r)
{
	r->piece = piece;
	r->piece_arg = ln;
}

/* Two rows' files: NULL (no line information) first. */
int
lines_filecmp(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

/* By row, file, line: equal keys become one row. */
static int
keycmp(const void *a, const void *b)
{
	const struct linerow *x = a, *y = b;
	int c;

	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if ((c = lines_filecmp(x->file, y->file)) != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/*
 * The line rows of R: each range's time to (row, file, line), each
 * row's calls to the line of its entry, <unknown> as one row.  Every
 * line of a shown function is a row, with time or not.
 */
void
lines_collect(struct lines *ln, const struct report *r)
{
	const struct symtab *st = ln->st;
	const struct srcrange *sr;
	struct linerow *v;
	size_t i, n = 0;
	long row, at;

	if ((v = calloc(ln->sl.n + st->nent + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	for (i = 0; i < ln->sl.n; i++) {
		sr = &ln->sl.r[i];
		if ((row = st->ent[sr->ent].row) < 0)
			continue;
		v[n++] = (struct linerow){ row, sr->file, sr->line, sr->lo,
		    ln->secs[i], 0 };
	}
	for (i = 0; i < st->nent; i++) {
		if (r->ncalls[i] == 0)
			continue;
		at = srclines_at(&ln->sl, st->ent[i].addr);
		sr = at >= 0 ? &ln->sl.r[at] : NULL;
		v[n++] = (struct linerow){ i, sr ? sr->file : NULL,
		    sr ? sr->line : 0, st->ent[i].addr, 0, r->ncalls[i] };
	}
	v[n++] = (struct linerow){ REPORT_UNKNOWN(st), NULL, 0, UINT64_MAX,
	    r->secs[REPORT_UNKNOWN(st)], r->ncalls[REPORT_UNKNOWN(st)] };
	/* qsort is not stable: the lowest address is kept by hand. */
	qsort(v, n, sizeof(*v), keycmp);
	ln->n = 0;
	for (i = 0; i < n; i++) {
		if (ln->n > 0 && keycmp(&v[ln->n - 1], &v[i]) == 0) {
			v[ln->n - 1].secs += v[i].secs;
			v[ln->n - 1].calls += v[i].calls;
			if (v[i].addr < v[ln->n - 1].addr)
				v[ln->n - 1].addr = v[i].addr;
		} else
			v[ln->n++] = v[i];
	}
	free(ln->rows);
	ln->rows = v;
}

void
lines_close(struct lines *ln)
{
	srclines_close(&ln->sl);
	free(ln->secs);
	free(ln->rows);
	memset(ln, 0, sizeof(*ln));
}
