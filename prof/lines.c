/* SPDX-License-Identifier: MIT */
/*
 * lines.c - -L: the report per source line.  Each share of a bin that
 * report.c gives a function is split among the function's lines by
 * bytes (srcline.c's ranges cover its text exactly), so a function's
 * lines add up to its time; its calls are on the line of its entry.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>

#include "prof.h"

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

static int
filecmp(const char *a, const char *b)
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
	if ((c = filecmp(x->file, y->file)) != 0)
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

/* A file's name without its directories: what -L prints. */
const char *
lines_base(const char *path)
{
	const char *p;

	if (path == NULL)
		return "??";
	p = strrchr(path, '/');
	return p != NULL && p[1] != '\0' ? p + 1 : path;
}

/*
 * "file.c:12" (the base name, printable: names_put()), or "??" without
 * line information.
 */
int
lines_where(char *buf, size_t size, const char *file, int line)
{
	char *base;
	int len;

	if (file == NULL)
		return snprintf(buf, size, "??");
	base = names_text(lines_base(file));
	len = snprintf(buf, size, "%s:%d", base, line);
	free(base);
	return len;
}

/* By function name (NAMES, the rows' names), file, line. */
static int
lineorder(const struct linerow *x, const struct linerow *y, char **names)
{
	int c;

	if (x->row != y->row && (c = strcmp(names[x->row],
	    names[y->row])) != 0)
		return c;
	if ((c = filecmp(x->file, y->file)) != 0)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

static int
bytime(const void *a, const void *b, void *names)
{
	const struct linerow *x = a, *y = b;

	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return lineorder(x, y, names);
}

static int
bycalls(const void *a, const void *b, void *names)
{
	const struct linerow *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	return lineorder(x, y, names);
}

static int
byaddr(const void *a, const void *b, void *names)
{
	const struct linerow *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return lineorder(x, y, names);
}

static int
byname(const void *a, const void *b, void *names)
{
	return lineorder(a, b, names);
}

/* Each row's name as the report prints it (names_row), by entry. */
char **
lines_names(const struct symtab *st, const struct prof_opts *o)
{
	char **names;
	size_t i;

	if ((names = calloc(st->nent + 1, sizeof(*names))) == NULL)
		err(1, NULL);
	for (i = 0; i <= st->nent; i++)
		if (i == st->nent || st->ent[i].shown)
			names[i] = names_row(st, i, o->demangle);
	return names;
}

void
lines_names_free(const struct symtab *st, char **names)
{
	size_t i;

	for (i = 0; i <= st->nent; i++)
		free(names[i]);
	free(names);
}

/*
 * The rows -L prints, in O's order (*N of them; free() the array):
 * those with time or calls, every one under -z.  NAMES: lines_names().
 */
struct linerow *
lines_selected(const struct lines *ln, const struct prof_opts *o,
    char **names, size_t *np)
{
	struct linerow *v;
	size_t i, n;

	if ((v = calloc(ln->n + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	for (i = n = 0; i < ln->n; i++) {
		if ((!o->zero || ln->rows[i].row == REPORT_UNKNOWN(ln->st)) &&
		    ln->rows[i].secs == 0 && ln->rows[i].calls == 0)
			continue;
		v[n++] = ln->rows[i];
	}
	qsort_r(v, n, sizeof(*v), o->sort == 't' ? bytime : o->sort == 'c' ?
	    bycalls : o->sort == 'a' ? byaddr : byname, names);
	*np = n;
	return v;
}

/*
 * -L: the report per source line, its rows as lines_selected(); the
 * #Calls and Line columns as wide as their widest value.
 */
void
lines_print(const struct lines *ln, const struct report *r,
    const struct prof_opts *o, FILE *fp)
{
	struct linerow *v;
	char **names, where[PATH_MAX + 16];
	size_t i, n;
	int w = 4, cw = 7, len;
	double cum = 0;

	names = lines_names(ln->st, o);
	v = lines_selected(ln, o, names, &n);
	for (i = 0; i < n; i++) {
		if ((len = lines_where(where, sizeof(where), v[i].file,
		    v[i].line)) > w)
			w = len;
		if ((len = snprintf(where, sizeof(where), "%ld",
		    v[i].calls)) > cw)
			cw = len;
	}
	if (!o->noheader)
		fprintf(fp, " %%Time Seconds Cumsecs %*s  %-*s  Name\n", cw,
		    "#Calls", w, "Line");
	for (i = 0; i < n; i++) {
		cum += v[i].secs;
		lines_where(where, sizeof(where), v[i].file, v[i].line);
		fprintf(fp, "%6.1f %7.2f %7.2f", r->total > 0 ?
		    100.0 * v[i].secs / r->total : 0.0, v[i].secs, cum);
		if (v[i].calls != 0)
			fprintf(fp, " %*ld", cw, v[i].calls);
		else
			fprintf(fp, " %*s", cw, "");
		fprintf(fp, "  %-*s  ", w, where);
		names_put(fp, names[v[i].row]);
		fputc('\n', fp);
	}
	lines_names_free(ln->st, names);
	free(v);
}
