/* SPDX-License-Identifier: MIT */
/*
 * flamefile.c - --flame=FILE: the report's sampled stacks as a flame
 * graph (flame.c draws it), each frame named as pprof names it, the
 * first symbol of its row, demangled unless --no-demangle.
 */
#include <err.h>
#include <errno.h>

#include "views.h"

/*
 * Write the sampled stacks of M to PATH as a flame graph titled TITLE;
 * exit on failure.  A profile without stacks gets the "no samples"
 * picture and a warning.
 */
void
flame_write(const char *path, const struct model *m, const char *title)
{
	const struct callstacks *cs = &m->r.stacks;
	const struct symtab *st = m->r.st;
	struct flamestack *fs;
	const char **names;
	char **byrow;
	size_t i, j, k, n;
	long row;
	FILE *fp;
	int any;

	if (!cs->has)
		warnx("%s: no call stacks in the profile: an empty flame "
		    "graph; rerun the program without PROFFLAGS -nostacks",
		    names_text(path));
	if ((fs = calloc(cs->nstack + 1, sizeof(*fs))) == NULL ||
	    (names = calloc(cs->nframe + 1, sizeof(*names))) == NULL ||
	    (byrow = calloc(st->nent + 1, sizeof(*byrow))) == NULL)
		err(1, NULL);
	/* Under -f, the stacks through a function it names, whole. */
	for (i = n = 0; i < cs->nstack; i++) {
		for (j = any = 0; j < cs->stack[i].depth; j++) {
			k = cs->stack[i].off + j;
			row = cs->frame[k].row;
			if (byrow[row] == NULL)
				byrow[row] = rows_label(st, row);
			names[k] = byrow[row];
			any |= rows_wanted(st, row, m->filter);
		}
		if (!any)
			continue;
		fs[n].name = &names[cs->stack[i].off];
		fs[n].depth = cs->stack[i].depth;
		fs[n++].value = cs->stack[i].secs;
	}
	if ((fp = fopen(path, "w")) == NULL)
		err(1, "%s", names_text(path));
	if (flame_svg(fp, title, fs, n) != 0 || fclose(fp) != 0)
		err(1, "%s", names_text(path));
	for (i = 0; i <= st->nent; i++)
		free(byrow[i]);
	free(byrow);
	free(names);
	free(fs);
}
