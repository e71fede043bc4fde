/* SPDX-License-Identifier: MIT */
/*
 * views.h - prof's views: each reads the model (model.h), built once,
 * and writes a report or a file; none reads a file.  print.c (the
 * classic report and -s), export.c (--format), lineview.c (-L),
 * annotate.c (-A), graphview.c (-G), pprof.c, callgrind.c, flame.c (a
 * flame graph) and flamefile.c (--flame).
 */
#ifndef PROF_VIEWS_H
#define PROF_VIEWS_H

#include "model.h"

/* ---------------------------------------------------------------- print */

/* -o/-x: a shared object's function shows its address in the object. */
#define PRINT_ADDR(a)	((a) % SYMTAB_OBJECT_BASE)

void		 print_report(const struct model *, const struct prof_opts *,
		    FILE *);
void		 print_summary(const struct model *, const struct prof_opts *,
		    FILE *);

/* ---------------------------------------------------------------- lineview */

char		**lineview_names(const struct symtab *,
		    const struct prof_opts *);
void		 lineview_names_free(const struct symtab *, char **);
struct linerow	*lineview_selected(const struct lines *,
		    const struct prof_opts *, char **, size_t *);
void		 lineview_print(const struct model *, const struct prof_opts *,
		    FILE *);
const char	*lineview_base(const char *);
int		 lineview_where(char *, size_t, const char *, int);

/* ---------------------------------------------------------------- export */

enum { XVAL_NULL, XVAL_STR, XVAL_NUM, XVAL_INT };

/* One value of an exported row. */
struct xval {
	int		 kind;		/* XVAL_* */
	const char	*s;
	double		 d;
	long		 l;
};

struct export {
	FILE			*fp;
	int			 format;	/* 'c' or 'j' */
	const char *const	*cols;
	size_t			 ncols, nrows;
};

void		 export_begin(struct export *, FILE *, int,
		    const struct report *, const char *const *, size_t);
void		 export_row(struct export *, const struct xval *);
void		 export_end(struct export *);
void		 export_flat(const struct model *, const struct prof_opts *,
		    FILE *);
void		 export_lines(const struct model *, const struct prof_opts *,
		    FILE *);

/* ---------------------------------------------------------------- annotate */

void		 annotate_print(const struct model *, const struct prof_opts *,
		    FILE *);

/* ---------------------------------------------------------------- graphview */

void		 graphview_print(const struct model *, const struct prof_opts *,
		    FILE *);
void		 graphview_export(const struct model *,
		    const struct prof_opts *, FILE *);

/* ---------------------------------------------------------------- pprof */

void		 pprof_write(const char *, const struct model *);

/* ---------------------------------------------------------------- callgrind */

void		 callgrind_write(const char *, const struct model *);

/* ---------------------------------------------------------------- flame */

/* One sampled stack for the flame graph: names root first. */
struct flamestack {
	const char *const	*name;	/* name[0]: main or its caller */
	size_t			 depth;
	double			 value;	/* seconds */
};

int		 flame_svg(FILE *, const char *, const struct flamestack *,
		    size_t);
void		 flame_write(const char *, const struct model *, const char *);

#endif /* PROF_VIEWS_H */
