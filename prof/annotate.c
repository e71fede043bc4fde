/* SPDX-License-Identifier: MIT */
/*
 * annotate.c - -A FUNC: FUNC's source, each line with the time spent in
 * its code and that time's share of FUNC's, as perf annotate's and
 * gprofng's source views show it.  Lines that compiled to no code have
 * blank columns; a source file that cannot be read is said so in one
 * line, and the lines with code are still listed, by number.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdlib.h>
#include <time.h>

#include "prof.h"

#define SRC_MAX		((size_t)64 << 20)	/* a source file, bytes */
#define GAP_KEEP	3	/* lines kept each side of a long gap */

/* A source file read, its lines indexed. */
struct src {
	char		*text;
	size_t		 len;
	const char	**line;		/* line[i]: line i + 1 */
	size_t		*llen;
	size_t		 n;
	time_t		 mtime;
};

static int
src_read(struct src *s, const char *path, const char **why)
{
	struct stat sb;
	size_t i, cap = 0;
	char *p, *nl;

	memset(s, 0, sizeof(*s));
	if (file_read(path, SRC_MAX, &s->text, &s->len, why) != 0)
		return -1;
	s->mtime = stat(path, &sb) == 0 ? sb.st_mtime : 0;
	for (p = s->text; p < s->text + s->len; p = nl + 1) {
		if ((nl = memchr(p, '\n', s->text + s->len - p)) == NULL)
			nl = s->text + s->len;
		if (prof_grow(&s->line, &cap, s->n + 1, sizeof(*s->line)) ||
		    (s->llen = reallocarray(s->llen, cap,
		    sizeof(*s->llen))) == NULL)
			err(1, NULL);
		s->line[s->n] = p;
		s->llen[s->n++] = nl - p;
	}
	for (i = 0; i < s->n; i++)	/* a CRLF file */
		if (s->llen[i] > 0 && s->line[i][s->llen[i] - 1] == '\r')
			s->llen[i]--;
	return 0;
}

static void
src_free(struct src *s)
{
	free(s->text);
	free(s->line);
	free(s->llen);
}

/* Whether entry K is called NAME: a symbol name, or its demangled one. */
static int
named(const struct symtab *st, long k, const char *name)
{
	const struct symentry *e = &st->ent[k];
	char *dm, *paren;
	size_t i;
	int hit = 0;

	for (i = 0; i < e->nnames && !hit; i++) {
		if (strcmp(st->names[e->name0 + i].name, name) == 0)
			return 1;
		if ((dm = names_demangle(st->names[e->name0 + i].name)) ==
		    NULL)
			continue;
		hit = strcmp(dm, name) == 0;
		if (!hit && (paren = strchr(dm, '(')) != NULL) {
			*paren = '\0';	/* "ns::foo" for "ns::foo(int)" */
			hit = strcmp(dm, name) == 0;
		}
		free(dm);
	}
	return hit;
}

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
text(FILE *fp, const struct src *s, size_t from, size_t to)
{
	for (; from <= to; from++)
		fprintf(fp, "%8s %6s %6zu  %.*s\n", "", "", from,
		    from <= s->n ? (int)s->llen[from - 1] : 0,
		    from <= s->n ? s->line[from - 1] : "");
}

/*
 * The lines V[0..N-1] of FILE (one row, by line), with the source if it
 * can be read: from the line before the first with code to the last,
 * a stretch of more than 2 * GAP_KEEP + 1 lines without code between
 * two with code shortened to its ends.
 */
static void
listing(FILE *fp, const char *file, const struct linerow *v, size_t n,
    double fsecs, time_t built)
{
	struct src s;
	const char *why;
	size_t j, prev, lo, hi;

	if (file == NULL) {
		fprintf(fp, "  (no line information: rebuild with -g)\n");
		columns(fp, &v[0], fsecs);
		fprintf(fp, " %6s\n", "??");
		return;
	}
	if (src_read(&s, file, &why) != 0) {
		fputs("  (", fp);
		names_put(fp, file);
		fprintf(fp, ": %s: lines by number only)\n", why);
		fprintf(fp, " Seconds  %%Func   Line\n");
		for (j = 0; j < n; j++) {
			columns(fp, &v[j], fsecs);
			fprintf(fp, " %6d\n", v[j].line);
		}
		return;
	}
	if (s.mtime > built) {
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
			text(fp, &s, lo, lo + GAP_KEEP - 1);
			fprintf(fp, "%8s %6s %6s  ...\n", "", "", "");
			text(fp, &s, hi - GAP_KEEP + 1, hi);
		} else
			text(fp, &s, lo, hi);
		columns(fp, &v[j], fsecs);
		fprintf(fp, " %6d  %.*s\n", v[j].line, (size_t)v[j].line <=
		    s.n ? (int)s.llen[v[j].line - 1] : 0, (size_t)v[j].line <=
		    s.n ? s.line[v[j].line - 1] : "");
		prev = (size_t)v[j].line;
	}
	src_free(&s);
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
annotate_row(const struct lines *ln, const struct report *r,
    const struct prof_opts *o, long k, FILE *fp)
{
	const struct symtab *st = ln->st;
	const struct symobj *obj;
	struct linerow *v;
	struct stat sb;
	const char *own = NULL;
	size_t i, j, n = 0, pass;
	time_t built;
	char *name;
	long at;

	obj = symtab_object_at(st, st->ent[k].addr);
	built = fstat(obj != NULL ? obj->fd : st->fd, &sb) == 0 ?
	    sb.st_mtime : 0;
	if ((v = calloc(ln->n + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	for (i = 0; i < ln->n; i++)
		if (ln->rows[i].row == k)
			v[n++] = ln->rows[i];
	qsort(v, n, sizeof(*v), byfile);
	if ((at = srclines_at(&ln->sl, st->ent[k].addr)) >= 0)
		own = ln->sl.r[at].file;
	name = names_row(st, k, o->demangle);
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
			listing(fp, v[i].file, &v[i], j - i, r->secs[k],
			    built);
		}
	free(v);
}

/*
 * -A: the listing of every function named O->annotate (two statics may
 * share a name), or exit if there is none.
 */
void
annotate_print(const struct lines *ln, const struct report *r,
    const struct prof_opts *o, FILE *fp)
{
	const struct symtab *st = ln->st;
	size_t i, found = 0;
	long k, last = -1;

	for (i = 0; i < st->nent; i++) {
		if (!named(st, i, o->annotate) || (k = st->ent[i].row) < 0 ||
		    k == last)
			continue;
		if (found++ > 0)
			fputc('\n', fp);
		annotate_row(ln, r, o, k, fp);
		last = k;
	}
	if (found == 0)
		errx(1, "%s: no function %s", st->path, o->annotate);
}
