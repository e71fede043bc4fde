/* SPDX-License-Identifier: MIT */
/*
 * lineview.c - -L: the report per source line (lines.c collects it),
 * its rows in the report's order, each with its time, calls and
 * file:line.
 */
#include <err.h>
#include <limits.h>
#include <stdlib.h>

#include "views.h"

/* A file's name without its directories: what -L prints. */
const char *
lineview_base(const char *path)
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
lineview_where(char *buf, size_t size, const char *file, int line)
{
	char *base;
	int len;

	if (file == NULL)
		return snprintf(buf, size, "??");
	base = names_text(lineview_base(file));
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
	if ((c = lines_filecmp(x->file, y->file)) != 0)
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

/*
 * Each row's name as the report prints it (rows_name), by entry; for
 * CSV and JSON the name alone, without what tells it from another of
 * its name: their file and object columns do.
 */
char **
lineview_names(const struct symtab *st, const struct prof_opts *o)
{
	char **names;
	size_t i;

	if ((names = calloc(st->nent + 1, sizeof(*names))) == NULL)
		err(1, NULL);
	for (i = 0; i <= st->nent; i++)
		if (i == st->nent || st->ent[i].shown)
			names[i] = rows_name(st, i, o->demangle,
			    o->format == 0);
	return names;
}

void
lineview_names_free(const struct symtab *st, char **names)
{
	size_t i;

	for (i = 0; i <= st->nent; i++)
		free(names[i]);
	free(names);
}

/*
 * The rows -L prints, in O's order (*N of them; free() the array):
 * those with time or calls, every one under -z.  NAMES: lineview_names().
 */
struct linerow *
lineview_selected(const struct lines *ln, const struct prof_opts *o,
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
		if (!rows_wanted(ln->st, ln->rows[i].row, o->filter))
			continue;
		v[n++] = ln->rows[i];
	}
	qsort_r(v, n, sizeof(*v), o->sort == 't' ? bytime : o->sort == 'c' ?
	    bycalls : o->sort == 'a' ? byaddr : byname, names);
	*np = n;
	return v;
}

/*
 * -L: the report per source line, its rows as lineview_selected(); the
 * #Calls and Line columns as wide as their widest value.
 */
void
lineview_print(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	const struct lines *ln = &m->ln;
	const struct report *r = &m->r;
	struct linerow *v;
	char **names, where[PATH_MAX + 16];
	size_t i, n;
	int w = 4, cw = 7, len;
	double cum = 0;

	names = lineview_names(ln->st, o);
	v = lineview_selected(ln, o, names, &n);
	for (i = 0; i < n; i++) {
		if ((len = lineview_where(where, sizeof(where), v[i].file,
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
		lineview_where(where, sizeof(where), v[i].file, v[i].line);
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
	lineview_names_free(ln->st, names);
	free(v);
}
