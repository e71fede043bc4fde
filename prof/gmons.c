/* SPDX-License-Identifier: MIT */
/*
 * gmons.c - the gmon.out files of -pg's runs, named by --gmon or found
 * beside the profiles (mdata_gmon), each read once (gmonread.c) into
 * the call graph (callgraph.c), which is checked against the report of
 * the same runs.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdlib.h>

#include "model.h"

/*
 * The arcs of the gmon.out files GMONS, or of those beside the profiles
 * FILES, into CG, checked against R.  REQUIRED (-G): exit if there are
 * none or they are not of the profiles' runs; otherwise warn, and
 * return 0 without arcs.  Returns whether CG has arcs.
 */
int
gmons_load(struct callgraph *cg, const struct report *r,
    const struct flist *gmons, const struct flist *files, int required)
{
	const struct flist *from = gmons->n > 0 ? gmons : files;
	/* What a warning says is missing: the stacks still give a graph. */
	const char *lost = r->stacks.has ? "no call counts" : "no call graph";
	struct gmonfile gf;
	struct stat sb;
	const char *e;
	char ebuf[256], *path;
	size_t i;

	callgraph_init(cg, r->st);
	for (i = 0; i < from->n; i++) {
		path = from == gmons ? strdup(gmons->v[i]) :
		    mdata_gmon(files->v[i]);
		if (path == NULL)
			err(1, NULL);
		if (from == files && stat(path, &sb) == -1) {
			if (required)
				errx(1, "%s: no %s beside it: the call graph "
				    "needs a -pg build (gcc -pg) and the "
				    "gmon.out of its run", files->v[i], path);
			free(path);
			return 0;
		}
		if ((e = gmonread_load(&gf, path, ebuf, sizeof(ebuf))) != NULL)
			errx(1, "%s: %s; rerun the -pg program to write it "
			    "again", path, e);
		/* The runtime writes one histogram to both files. */
		if (r->nbins > 0 && !gmonread_within(&gf, r->lpc, r->hpc,
		    r->nbins)) {
			if (required)
				errx(1, "%s: not of the run the profile is of: "
				    "its histogram is of another program; name "
				    "the run's: --gmon=FILE", path);
			warnx("%s: not of the run the profile is of: its "
			    "histogram is of another program: %s", path, lost);
			gmonread_close(&gf);
			free(path);
			callgraph_free(cg);
			return 0;
		}
		if (callgraph_add(cg, &gf) != 0)
			err(1, NULL);
		gmonread_close(&gf);
		free(path);
	}
	if ((e = callgraph_done(cg, r, ebuf, sizeof(ebuf))) == NULL)
		return 1;
	if (required)
		errx(1, "%s: %s; rerun the program to write both again",
		    from->n == 1 ? from->v[0] : "gmon.out", e);
	warnx("%s: %s: %s", from->n == 1 ? from->v[0] : "gmon.out", e, lost);
	callgraph_free(cg);
	return 0;
}
