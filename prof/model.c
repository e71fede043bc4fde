/* SPDX-License-Identifier: MIT */
/*
 * model.c - the one profile model every view reads, built once, in the
 * order its parts need each other: the profiles read (profiles.c), the
 * symbol table of the program and of the objects they name (with its
 * line tables when a view needs them), the report that sums the
 * profiles, then -pg's arcs (gmons.c), the inlined calls, and -A's
 * source files.  Every input is read once, here; the views read none.
 */
#include <err.h>
#include <stdlib.h>

#include "model.h"

/* -O NAME: one of the report's objects, or one line and exit 1. */
static void
object_known(const struct symtab *st, const char *name)
{
	size_t k;

	for (k = 0; k < st->nent; k++)
		if (__mon_match_object(name, symtab_entry_object(st, (long)k)))
			return;
	errx(1, "-O %s: no such object in the profile: name the executable "
	    "or a shared object the profile records (prof -s lists those "
	    "with samples)", names_text(name));
}

/*
 * Build M for the options O from the profiles the operands MARGS name
 * (of the program PROG; NULL: the one they record) and the gmon.out
 * files GMONS (--gmon; none: those beside the profiles); exit with a
 * message on what cannot be read.
 */
void
model_build(struct model *m, const struct prof_opts *o, const char *prog,
    const struct flist *margs, const struct flist *gmons)
{
	struct profiles pf;
	size_t i;

	memset(m, 0, sizeof(*m));
	m->demangle = o->demangle;
	m->filter = o->filter;
	/* No program named: a directory's profiles of any program. */
	for (i = 0; i < margs->n; i++)
		mdata_expand(&m->files, margs->v[i], prog);
	m->prog = profiles_read(&pf, &m->files, margs, prog, "a.out");
	symtab_open(&m->st, m->prog, pf.obj, pf.nobj, o->locals);
	rows_labels(&m->st, o->demangle);
	if (o->object != NULL)
		object_known(&m->st, o->object);
	report_init(&m->r, &m->st);
	if ((m->haslines = o->lines || o->annotate != NULL ||
	    o->pprof != NULL || o->callgrind != NULL) != 0) {
		lines_open(&m->ln, &m->st);
		lines_attach(&m->ln, &m->r);
	}
	profiles_add(&pf, &m->r);
	profiles_free(&pf);
	report_done(&m->r);
	rows_clashes(&m->st, &m->r, o->zero);
	if (o->inclusive && !m->r.stacks.has)
		warnx("%s: no call stacks in the profile (run with PROFFLAGS "
		    "-nostacks, or by an older runtime): no inclusive times; "
		    "rerun it without -nostacks",
		    m->files.n == 1 ? names_text(m->files.v[0]) : "profiles");
	/* gcc -flto makes local every function not needed outside prog. */
	if (!o->locals && m->r.cells_dropped > 0 &&
	    m->r.cells_dropped >= m->r.cells_used)
		warnx("%s: %zu of %zu call counts are in local functions, "
		    "not shown with -l: leave out -l to see them", m->prog, m->r.cells_dropped,
		    m->r.cells_dropped + m->r.cells_used);
	if (m->haslines)
		lines_collect(&m->ln, &m->r);
	if (o->lines || o->annotate != NULL)
		lines_check(&m->ln);
	/*
	 * -G: the stacks give a graph, -pg's arcs its counts: without
	 * stacks, or with --gmon named, the arcs must be there.  The
	 * exports: the arcs when the run left them, quietly none otherwise.
	 */
	if (o->graph || o->pprof != NULL || o->callgrind != NULL)
		m->hasarcs = gmons_load(&m->cg, &m->r, gmons, &m->files,
		    o->graph && (!m->r.stacks.has || gmons->n > 0));
	if (o->pprof != NULL) {
		if (inlines_open(&m->inl, &m->ln.sl, &m->st) != 0)
			err(1, NULL);
		m->hasinl = 1;
	}
	if (o->annotate != NULL)
		sources_load(&m->src, &m->ln, o->annotate);
}

void
model_free(struct model *m)
{
	size_t i;

	sources_free(&m->src);
	if (m->hasinl)
		inlines_close(&m->inl);
	callgraph_free(&m->cg);		/* arcs a failed load left too */
	if (m->haslines)
		lines_close(&m->ln);
	report_free(&m->r);
	symtab_close(&m->st);
	for (i = 0; i < m->files.n; i++)
		free(m->files.v[i]);
	free(m->files.v);
	free(m->prog);
	memset(m, 0, sizeof(*m));
}
