/* SPDX-License-Identifier: MIT */
/*
 * mdata.c - the profiles to sum: each mdata operand expanded (a file, a
 * PROFDIR directory of <pid>.<prog> files, a quoted glob pattern), and
 * the gmon.out a -pg run wrote beside each.  profiles.c reads them.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <err.h>
#include <glob.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "input.h"
#include "../runtime/base.h"

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

/* A profile in a directory operand (profdir below). */
struct found {
	char	*path;
	size_t	 stem;		/* path's length without a salt */
	uid_t	 uid;
	int	 planted;	/* another user's, beside our profile */
};

static int
foundcmp(const void *a, const void *b)
{
	return strcmp(((const struct found *)a)->path,
	    ((const struct found *)b)->path);
}

/* The file of v[0..n) (sorted) whose path is the first len bytes of s. */
static struct found *
prefix_of(struct found *v, size_t n, const char *s, size_t len)
{
	size_t lo = 0, hi = n, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = strncmp(v[mid].path, s, len)) == 0 &&
		    v[mid].path[len] == '\0')
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/*
 * Whether NAME is a profile of any program (none is named): the
 * shortest prog for which __mon_name_is_profile() holds is taken, so
 * that a dump number or a salt after it is read as one (*STEM without
 * the salt), as for a named program.  <pid>.<prog>.gmon, the -pg
 * run's gmon.out beside it, is no profile.
 */
static int
any_profile(const char *name, size_t *stem)
{
	char prog[NAME_MAX + 1];
	const char *rest, *end;
	size_t len;

	rest = name + strspn(name, "0123456789");
	if (rest == name || *rest++ != '.' || *rest == '\0')
		return 0;
	for (end = rest; ; end++) {
		if (*end != '.' && *end != '\0')
			continue;
		len = (size_t)(end - rest);
		if (len > 0 && len < sizeof(prog)) {
			memcpy(prog, rest, len);
			prog[len] = '\0';
			if (__mon_name_is_profile(name, prog, stem))
				return len < 5 ||
				    strcmp(prog + len - 5, ".gmon") != 0;
		}
		if (*end == '\0')
			return 0;
	}
}

/*
 * Whether NAME is PROFFLAGS -merge's profile of prog (NULL: of any
 * program): merged.<prog>, or merged.<prog>.build-<id> for another
 * build; its gmon.out beside it (.gmon added) is none.
 */
static int
merged(const char *name, const char *prog)
{
	char any[NAME_MAX + 1];
	size_t n, b = strlen(MON_MERGED_BUILD) + 16;

	if (prog != NULL)
		return __mon_name_is_merged(name, prog);
	n = strlen(MON_MERGED_PREFIX);
	if (strncmp(name, MON_MERGED_PREFIX, n) != 0 ||
	    strlen(name + n) >= sizeof(any))
		return 0;
	strcpy(any, name + n);
	n = strlen(any);
	if (n > b && strncmp(any + n - b, MON_MERGED_BUILD,
	    strlen(MON_MERGED_BUILD)) == 0)
		any[n - b] = '\0';
	n = strlen(any);
	return n > 0 && (n < 5 || strcmp(any + n - 5, ".gmon") != 0) &&
	    __mon_name_is_merged(name, any);
}

/*
 * Every profile program prog (NULL: any program) left in directory
 * dir, named as the runtime names them (runtime/name.c): <pid>.<prog>
 * with prog cut, -sigdump's numbered dumps (<pid>.<prog>.<n>, each an
 * interval, so all are summed), -merge's merged.<prog> (and its other
 * builds', which the report refuses by build-id), and <name>.<salt>, where the runtime
 * put a profile whose name was another user's file: that file is left
 * out.
 */
static void
profdir(struct flist *out, const char *dir, const char *prog)
{
	struct stat sb;
	struct dirent *d;
	struct found *v = NULL;
	struct found *planted;
	size_t n = 0, cap = 0, stem, i;
	char *t, *t2;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		err(1, "%s", dir);
	while ((d = readdir(dp)) != NULL) {
		if (merged(d->d_name, prog))
			stem = strlen(d->d_name);
		else if (prog != NULL ? !__mon_name_is_profile(d->d_name, prog,
		    &stem) : !any_profile(d->d_name, &stem))
			continue;
		if (prof_grow(&v, &cap, n + 1, sizeof(*v)) != 0)
			err(1, NULL);
		if (asprintf(&v[n].path, "%s/%s", dir, d->d_name) == -1)
			err(1, NULL);
		/* Anyone may plant a FIFO in a shared PROFDIR. */
		if (fstatat(dirfd(dp), d->d_name, &sb, 0) == -1) {
			t = names_text(v[n].path);
			warn("%s: skipped; remove it, or make it readable", t);
			free(t);
		} else if (!S_ISREG(sb.st_mode)) {
			t = names_text(v[n].path);
			warnx("%s: not a regular file: skipped; remove it from "
			    "the directory", t);
			free(t);
		} else {
			v[n].stem = strlen(v[n].path) - strlen(d->d_name) +
			    stem;
			v[n].uid = sb.st_uid;
			v[n++].planted = 0;
			continue;
		}
		free(v[n].path);
	}
	closedir(dp);
	if (n == 0)
		errx(1, "%s: no <pid>.%s profiles in this directory: run "
		    "the program with PROFDIR=%s, or name the directory it "
		    "wrote them in", dir, prog != NULL ? prog : "<prog>", dir);
	qsort(v, n, sizeof(*v), foundcmp);
	for (i = 0; i < n; i++) {
		if (v[i].path[v[i].stem] == '\0' || (planted = prefix_of(v, n,
		    v[i].path, v[i].stem)) == NULL || planted->uid == v[i].uid)
			continue;
		t = names_text(planted->path);
		t2 = names_text(v[i].path);
		warnx("%s: another user's file (the profile is %s): skipped; "
		    "remove it, as anyone may write a shared PROFDIR", t, t2);
		free(t);
		free(t2);
		planted->planted = 1;
	}
	for (i = 0; i < n; i++) {
		if (!v[i].planted)
			mdata_add(out, v[i].path);
		free(v[i].path);
	}
	free(v);
}

/*
 * One mdata operand: a file; a directory, meaning every profile prog
 * (NULL: any program) left in it (profdir); or, if no such file exists,
 * a glob(3) pattern, for patterns quoted past the shell.
 */
void
mdata_expand(struct flist *out, const char *arg, const char *prog)
{
	struct stat sb;
	char *pc = NULL;
	glob_t g;
	size_t i, before = out->n;

	if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if (prog != NULL && (pc = strdup(prog)) == NULL)
			err(1, NULL);
		profdir(out, arg, pc != NULL ? basename(pc) : NULL);
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
 * The gmon.out a -pg run wrote beside the profile MON (malloc'd), as
 * runtime/name.c names it: gmon.out beside mon.out, <pid>.<prog>.gmon
 * beside <pid>.<prog>, and for a numbered dump the same number after
 * it: gmon.out.<n>, <pid>.<prog>.gmon.<n> (if it is there: prog itself
 * may end in .<digits>).
 */
char *
mdata_gmon(const char *mon)
{
	const char *base = strrchr(mon, '/');
	struct stat sb;
	char *path, *seq;
	size_t end;

	base = base != NULL ? base + 1 : mon;
	end = __mon_name_unseq(base);
	if (end == strlen(MON_OUT) && strncmp(base, MON_OUT, end) == 0) {
		if (asprintf(&path, "%.*sgmon.out%s", (int)(base - mon), mon,
		    base + end) == -1)
			err(1, NULL);
		return path;
	}
	if (asprintf(&path, "%s.gmon", mon) == -1)
		err(1, NULL);
	if (base[end] == '\0' || stat(path, &sb) == 0)
		return path;
	if (asprintf(&seq, "%.*s.gmon%s", (int)(base + end - mon), mon,
	    base + end) == -1)
		err(1, NULL);
	if (stat(seq, &sb) != 0) {
		free(seq);
		return path;
	}
	free(path);
	return seq;
}
