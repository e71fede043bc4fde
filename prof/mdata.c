/* SPDX-License-Identifier: MIT */
/*
 * mdata.c - the profiles to sum: each mdata operand expanded (a file, a
 * PROFDIR directory of <pid>.<prog> files, a quoted glob pattern), and
 * the shared-object records they hold, which the symbol table needs
 * before any profile is added.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <glob.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prof.h"

void
mdata_add(struct flist *fl, const char *s)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 8;
		if ((fl->v = reallocarray(fl->v, fl->cap,
		    sizeof(*fl->v))) == NULL)
			err(1, NULL);
	}
	if ((fl->v[fl->n++] = strdup(s)) == NULL)
		err(1, NULL);
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "1234.prog": the per-process files a PROFDIR run leaves. */
static int
pidfile(const char *name, const char *prog)
{
	const char *p = name;

	while (isdigit((unsigned char)*p))
		p++;
	return p > name && *p == '.' && strcmp(p + 1, prog) == 0;
}

/*
 * One mdata operand: a file; a directory, meaning every <pid>.<prog> in
 * it (what PROFDIR=dir leaves after a forking run); or, if no such file
 * exists, a glob(3) pattern, for patterns quoted past the shell.
 */
void
mdata_expand(struct flist *out, const char *arg, const char *prog)
{
	struct stat sb;
	struct dirent *d;
	struct flist dir = { NULL, 0, 0 };
	char *pc, *base, *path;
	glob_t g;
	size_t i, before = out->n;
	DIR *dp;

	if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if ((pc = strdup(prog)) == NULL)
			err(1, NULL);
		base = basename(pc);
		if ((dp = opendir(arg)) == NULL)
			err(1, "%s", arg);
		while ((d = readdir(dp)) != NULL) {
			if (!pidfile(d->d_name, base))
				continue;
			if (asprintf(&path, "%s/%s", arg, d->d_name) == -1)
				err(1, NULL);
			/* Anyone may plant a FIFO in a shared PROFDIR. */
			if (fstatat(dirfd(dp), d->d_name, &sb, 0) == -1)
				warn("%s: skipped", path);
			else if (!S_ISREG(sb.st_mode))
				warnx("%s: not a regular file: skipped", path);
			else
				mdata_add(&dir, path);
			free(path);
		}
		closedir(dp);
		if (dir.n == 0)
			errx(1, "%s: no <pid>.%s profiles in this directory",
			    arg, base);
		qsort(dir.v, dir.n, sizeof(*dir.v), strpcmp);
		for (i = 0; i < dir.n; i++) {
			mdata_add(out, dir.v[i]);
			free(dir.v[i]);
		}
		free(dir.v);
		free(pc);
		return;
	}
	if (access(arg, F_OK) != 0 && strpbrk(arg, "*?[") != NULL &&
	    glob(arg, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			mdata_add(out, g.gl_pathv[i]);
		globfree(&g);
	}
	if (out->n == before)
		mdata_add(out, arg);
}

/*
 * The shared-object records of the profiles FILES, their paths copied,
 * into *OUT (*N of them); symtab_load() reads each object once.
 */
void
mdata_objects(struct monobj **out, size_t *n, const struct flist *files)
{
	struct monfile mf;
	size_t i, k, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < files->n; i++) {
		monread_open(&mf, files->v[i]);
		for (k = 0; k < mf.nobj; k++) {
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				if ((*out = reallocarray(*out, cap,
				    sizeof(**out))) == NULL)
					err(1, NULL);
			}
			(*out)[*n] = mf.obj[k];
			if (((*out)[(*n)++].path = strdup(mf.obj[k].path)) ==
			    NULL)
				err(1, NULL);
		}
		monread_close(&mf);
	}
}


/*
 * The gmon.out a -pg run wrote beside the profile MON (malloc'd): in its
 * directory, gmon.out beside mon.out; <pid>.<prog>.gmon beside a
 * PROFDIR's <pid>.<prog>.
 */
char *
mdata_gmon(const char *mon)
{
	const char *base = strrchr(mon, '/');
	char *path;
	int n;

	base = base != NULL ? base + 1 : mon;
	if (strcmp(base, MON_OUT) == 0)
		n = asprintf(&path, "%.*sgmon.out", (int)(base - mon), mon);
	else
		n = asprintf(&path, "%s.gmon", mon);
	if (n == -1)
		err(1, NULL);
	return path;
}
