/* SPDX-License-Identifier: MIT */
/*
 * annotate.c - -A FUNC: FUNC's source, each line with the time spent in
 * its code and that time's share of FUNC's, as perf annotate's and
 * gprofng's source views show it.  Lines that compiled to no code have
 * blank columns; a source file that could not be read is said so in
 * one line, and the lines with code are still listed, by number.  The
 * model holds the functions named FUNC and their source files, each
 * read once (sources.c).
 */
#include <err.h>
#include <stdlib.h>
#include <time.h>

#include "views.h"

#define GAP_KEEP	3	/* lines kept each side of a long gap */

static void
columns(FILE *fp, const struct linerow *lr, double fsecs)
{
	if (lr == NULL)
		fprintf(fp, "%8s %6s", "", "");
	else
		fprintf(fp, "%8.2f %6.1f", lr->secs, fsecs > 0 ?
		    100.0 * lr->secs / fsecs : 0.0);
}

/* Source lines FROM to TO (1-based), without columns. */
static void
text(FILE *fp, const struct srcfile *s, size_t from, size_t to)
{
	for (; from <= to; from++)
		fprintf(fp, "%8s %6s %6zu  %.*s\n", "", "", from,
		    from <= s->n ? (int)s->llen[from - 1] : 0,
		    from <= s->n ? s->line[from - 1] : "");
}

/*
 * The lines V[0..N-1] of FILE (one row, by line), with its source (SRC)
 * if it could be read: from the line before the first with code to the
 * last, a stretch of more than 2 * GAP_KEEP + 1 lines without code
 * between two with code shortened to its ends.
 */
static void
listing(FILE *fp, const struct sources *src, const char *file,
    const struct linerow *v, size_t n, double fsecs, time_t built)
{
	const struct source *sc;
	const struct srcfile *s;
	size_t j, prev, lo, hi;

	if (file == NULL) {
		fprintf(fp, "  (no line information: rebuild with -g)\n");
		columns(fp, &v[0], fsecs);
		fprintf(fp, " %6s\n", "??");
		return;
	}
	if ((sc = sources_find(src, file)) == NULL || sc->why != NULL) {
		fputs("  (", fp);
		names_put(fp, file);
		fprintf(fp, ": %s: lines by number only)\n", sc != NULL ?
		    sc->why : "not read");
		fprintf(fp, " Seconds  %%Func   Line\n");
		for (j = 0; j < n; j++) {
			columns(fp, &v[j], fsecs);
			fprintf(fp, " %6d\n", v[j].line);
		}
		return;
	}
	s = &sc->sf;
	if (s->mtime > built) {
		fputs("  (", fp);
		names_put(fp, file);
		fputs(" is newer than the program: the lines may not match)\n",
		    fp);
	}
	fputs(" Seconds  %Func   Line  Source: ", fp);
	names_put(fp, file);
	fputc('\n', fp);
	prev = v[0].line > 1 ? (size_t)v[0].line - 2 : 0;
	for (j = 0; j < n; j++) {
		lo = prev + 1;
		hi = (size_t)v[j].line - 1;
		if (j > 0 && hi >= lo && hi - lo + 1 > 2 * GAP_KEEP + 1) {
			text(fp, s, lo, lo + GAP_KEEP - 1);
			fprintf(fp, "%8s %6s %6s  ...\n", "", "", "");
			text(fp, s, hi - GAP_KEEP + 1, hi);
		} else
			text(fp, s, lo, hi);
		columns(fp, &v[j], fsecs);
		fprintf(fp, " %6d  %.*s\n", v[j].line, (size_t)v[j].line <=
		    s->n ? (int)s->llen[v[j].line - 1] : 0, (size_t)v[j].line <=
		    s->n ? s->line[v[j].line - 1] : "");
		prev = (size_t)v[j].line;
	}
}

/* Whether two rows are of one file (NULL: no file). */
static int
samefile(const struct linerow *x, const struct linerow *y)
{
	if (x->file == NULL || y->file == NULL)
		return x->file == y->file;
	return strcmp(x->file, y->file) == 0;
}

static int
byfile(const void *a, const void *b)
{
	const struct linerow *x = a, *y = b;
	int c;

	if (x->file == NULL || y->file == NULL)
		return (x->file == NULL) - (y->file == NULL);
	if ((c = strcmp(x->file, y->file)) != 0)
		return c;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Row K's listing: its own file first, then the files inlined into it. */
static void
annotate_row(const struct model *m, const struct prof_opts *o, long k,
    FILE *fp)
{
	const struct lines *ln = &m->ln;
	const struct report *r = &m->r;
	const struct symtab *st = ln->st;
	const struct symobj *obj;
	struct linerow *v;
	const char *own = NULL;
	size_t i, j, n = 0, pass;
	time_t built;
	char *name;
	long at;

	obj = symtab_object_at(st, st->ent[k].addr);
	built = obj != NULL ? obj->mtime : st->mtime;
	if ((v = calloc(ln->n + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	for (i = 0; i < ln->n; i++)
		if (ln->rows[i].row == k)
			v[n++] = ln->rows[i];
	qsort(v, n, sizeof(*v), byfile);
	if ((at = srclines_at(&ln->sl, st->ent[k].addr)) >= 0)
		own = ln->sl.r[at].file;
	name = rows_name(st, k, o->demangle, 1);
	names_put(fp, name);
	fprintf(fp, ": %.2f s, %.1f%% of %.2f s; %ld call%s\n",
	    r->secs[k], r->total > 0 ? 100.0 * r->secs[k] / r->total : 0.0,
	    r->total, r->ncalls[k], r->ncalls[k] == 1 ? "" : "s");
	free(name);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < n; i = j) {
			for (j = i + 1; j < n && samefile(&v[i], &v[j]); j++)
				;
			/* pass 0: its own file; pass 1: the others. */
			if ((pass == 0) != (own != NULL && v[i].file != NULL &&
			    strcmp(v[i].file, own) == 0))
				continue;
			if (pass == 1)
				fprintf(fp, "\n");
			listing(fp, &m->src, v[i].file, &v[i], j - i,
			    r->secs[k], built);
		}
	free(v);
}

/*
 * -A: the listing of every function named O->annotate (two statics may
 * share a name: the model's sources have them all), or exit if there is
 * none.
 */
void
annotate_print(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	size_t i;

	for (i = 0; i < m->src.nrow; i++) {
		if (i > 0)
			fputc('\n', fp);
		annotate_row(m, o, m->src.row[i], fp);
	}
	if (m->src.nrow == 0)
		errx(1, "%s: no function %s: name one the report lists "
		    "(prof -z lists them all)", m->ln.st->path, o->annotate);
}
