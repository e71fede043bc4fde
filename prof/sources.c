/* SPDX-License-Identifier: MIT */
/*
 * sources.c - what -A FUNC lists, in the model: the rows FUNC names (a
 * symbol's name or its demangled one; two statics may share a name),
 * and the source files of their lines, each read once (srcfile.c); a
 * file that cannot be read keeps why, which the listing says.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

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

static int
pathcmp(const void *a, const void *b)
{
	return strcmp(((const struct source *)a)->path,
	    ((const struct source *)b)->path);
}

/*
 * The rows named FUNC among LN's (each once, in the table's order), and
 * the source files of their lines, each read once.
 */
void
sources_load(struct sources *src, const struct lines *ln, const char *func)
{
	const struct symtab *st = ln->st;
	size_t i, j, n, rowcap = 0, filecap = 0;
	const char *why;
	long k, last = -1;

	memset(src, 0, sizeof(*src));
	for (i = 0; i < st->nent; i++) {
		if (!named(st, i, func) || (k = st->ent[i].row) < 0 ||
		    k == last)
			continue;
		if (prof_grow(&src->row, &rowcap, src->nrow + 1,
		    sizeof(*src->row)) != 0)
			err(1, NULL);
		src->row[src->nrow++] = last = k;
	}
	for (i = 0; i < src->nrow; i++)
		for (j = 0; j < ln->n; j++) {
			if (ln->rows[j].row != src->row[i] ||
			    ln->rows[j].file == NULL)
				continue;
			if (prof_grow(&src->file, &filecap, src->nfile + 1,
			    sizeof(*src->file)) != 0)
				err(1, NULL);
			src->file[src->nfile++].path = ln->rows[j].file;
		}
	if (src->nfile > 0)
		qsort(src->file, src->nfile, sizeof(*src->file), pathcmp);
	for (i = n = 0; i < src->nfile; i++)
		if (n == 0 || strcmp(src->file[n - 1].path,
		    src->file[i].path) != 0)
			src->file[n++] = src->file[i];
	src->nfile = n;
	/* strerror()'s text may be rewritten by the next call: a copy. */
	for (i = 0; i < src->nfile; i++)
		if (srcfile_read(&src->file[i].sf, src->file[i].path,
		    &why) == 0)
			src->file[i].why = NULL;
		else if ((src->file[i].why = strdup(why)) == NULL)
			err(1, NULL);
}

/* The source file PATH, read or not, or NULL if -A lists none such. */
const struct source *
sources_find(const struct sources *src, const char *path)
{
	struct source key = { .path = path };

	if (src->nfile == 0)
		return NULL;
	return bsearch(&key, src->file, src->nfile, sizeof(*src->file),
	    pathcmp);
}

void
sources_free(struct sources *src)
{
	size_t i;

	for (i = 0; i < src->nfile; i++) {
		srcfile_free(&src->file[i].sf);
		free(src->file[i].why);
	}
	free(src->file);
	free(src->row);
	memset(src, 0, sizeof(*src));
}
