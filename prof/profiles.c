/* SPDX-License-Identifier: MIT */
/*
 * profiles.c - the profiles to sum, read before the symbol table is
 * loaded, which needs the shared-object records of them all first: the
 * program they record when none is named, then each added to the report
 * and let go, with one line of each kind of warning however many
 * profiles have it (a directory of hundreds of profiles gives one line
 * of each kind, not one a file).  A profile is held as what it
 * recorded, its cells and bins that are not zero (monread_compact), not
 * as its size, and only while those held take at most PROFILES_HOLD
 * bytes: the rest are read again to be added, so that prof's memory is
 * bounded by the program, not by the number of files (a PROFDIR of
 * 10,000 profiles), at the cost of a second read of those.
 */
#include <err.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

/* Bytes of profiles held between the two reads. */
#define PROFILES_HOLD	(32UL << 20)

/*
 * No program named: profile I (MF) of FILES must record the program the
 * first one records (*PROG, malloc'd; NULL: none).  Profiles of
 * different programs are not summed: nothing tells which program the
 * user meant, and a report of each would be reports of programs the
 * user did not ask for, so prof exits with one line naming two of them
 * and how to choose (MARGS, the mdata operands, go in what it says to
 * run).
 */
static void
recorded(const struct monfile *mf, size_t i, char **prog,
    const struct flist *files, const struct flist *margs)
{
	const char *more = margs->n > 1 ? " ..." : "";
	char *t[4];

	if (i == 0 && mf->exepath != NULL &&
	    (*prog = strdup(mf->exepath)) == NULL)
		err(1, NULL);
	if (i > 0 && (*prog == NULL ? mf->exepath != NULL :
	    mf->exepath == NULL || strcmp(*prog, mf->exepath) != 0)) {
		t[0] = names_text(files->v[0]);
		t[1] = names_text(*prog != NULL ? *prog : "none");
		t[2] = names_text(files->v[i]);
		t[3] = names_text(mf->exepath != NULL ? mf->exepath : "none");
		errx(1, "%s records the program %s, %s %s: profiles of "
		    "different programs are not summed; name the one to "
		    "report: prof PROG %s%s", t[0], t[1], t[2], t[3],
		    margs->v[0], more);
	}
}

/*
 * No program named: the executable the profiles record (PROG, malloc'd),
 * its build-id checked later as any program's; DEF if none records one
 * (a classic mon.out).  A program that is gone is not replaced with DEF
 * (another program): one line names the path the profile records.
 */
static char *
program(char *prog, const struct flist *files, const struct flist *margs,
    const char *def)
{
	const char *more = margs->n > 1 ? " ..." : "", *why;
	char *t[2];

	if (prog == NULL) {
		if ((prog = strdup(def)) == NULL)
			err(1, NULL);
		return prog;
	}
	if (access(prog, R_OK) != 0) {
		why = strerror(errno);
		t[0] = names_text(files->v[0]);
		t[1] = names_text(prog);
		errx(1, "%s: the program it records, %s: %s; if it is "
		    "elsewhere, name it: prof PROG %s%s", t[0], t[1], why,
		    margs->v[0], more);
	}
	return prog;
}

/* The slot of (PATH, BUILDID) in PF's hash of objects: its index + 1, or 0. */
static size_t *
objslot(struct profiles *pf, const char *path, long buildid)
{
	size_t h = 14695981039346656037UL, i;
	const unsigned char *p;
	const struct monobj *o;

	for (p = (const unsigned char *)path; *p != '\0'; p++)
		h = (h ^ *p) * 1099511628211UL;
	h ^= (size_t)buildid;
	for (i = h & (pf->nslot - 1);; i = (i + 1) & (pf->nslot - 1)) {
		if (pf->slot[i] == 0)
			return &pf->slot[i];
		o = &pf->obj[pf->slot[i] - 1];
		if (o->buildid == buildid && strcmp(o->path, path) == 0)
			return &pf->slot[i];
	}
}

/*
 * MF's shared-object records into PF, each (path, build-id) once, in
 * the order first seen (the symbol table reads them so), named where
 * any profile names it: a library sampled in one profile of many.
 */
static void
objects_add(struct profiles *pf, const struct monfile *mf)
{
	size_t k, i, *sl, *old, nold;
	char *path;

	for (k = 0; k < mf->nobj; k++) {
		if (2 * (pf->nobj + 1) > pf->nslot) {
			old = pf->slot;
			nold = pf->nslot;
			pf->nslot = nold == 0 ? 64 : 2 * nold;
			if ((pf->slot = calloc(pf->nslot,
			    sizeof(*pf->slot))) == NULL)
				err(1, NULL);
			for (i = 0; i < pf->nobj; i++)
				*objslot(pf, pf->obj[i].path,
				    pf->obj[i].buildid) = i + 1;
			free(old);
		}
		sl = objslot(pf, mf->obj[k].path, mf->obj[k].buildid);
		if (*sl != 0) {
			pf->obj[*sl - 1].named |= mf->obj[k].named;
			continue;
		}
		if (prof_grow(&pf->obj, &pf->objcap, pf->nobj + 1,
		    sizeof(*pf->obj)) != 0 ||
		    (path = strdup(mf->obj[k].path)) == NULL)
			err(1, NULL);
		pf->obj[pf->nobj] = mf->obj[k];
		pf->obj[pf->nobj].path = path;
		*sl = ++pf->nobj;
	}
}

/*
 * Read each profile FILES names, or exit naming the file and the
 * problem, and gather their shared-object records (pf->obj), which the
 * symbol table needs; hold each in PF while PROFILES_HOLD allows.
 * Returns the program (malloc'd): PROG, or if NULL the one the profiles
 * record (program(); MARGS and DEF as there).
 */
char *
profiles_read(struct profiles *pf, const struct flist *files,
    const struct flist *margs, const char *prog, const char *def)
{
	struct monfile *mf;
	char *exe = NULL;
	size_t i, bytes;

	memset(pf, 0, sizeof(*pf));
	pf->files = files;
	if ((pf->mf = calloc(files->n + 1, sizeof(*pf->mf))) == NULL ||
	    (pf->id = calloc(files->n + 1, sizeof(*pf->id))) == NULL)
		err(1, NULL);
	progress_begin(files->n);
	for (i = 0; i < files->n; i++) {
		if ((mf = calloc(1, sizeof(*mf))) == NULL)
			err(1, NULL);
		monread_open(mf, files->v[i]);
		if (monread_compact(mf) != 0)
			err(1, NULL);
		progress_step();
		if (prog == NULL)
			recorded(mf, i, &exe, files, margs);
		objects_add(pf, mf);
		pf->id[i] = (struct profile_id){ mf->dev, mf->ino, mf->size,
		    mf->mtime_ns };
		if ((bytes = monread_held(mf)) <= PROFILES_HOLD - pf->held) {
			pf->mf[i] = mf;
			pf->held += bytes;
		} else {
			monread_close(mf);
			free(mf);
			pf->again++;
		}
	}
	progress_end();
	if (prog != NULL) {
		if ((exe = strdup(prog)) == NULL)
			err(1, NULL);
		return exe;
	}
	return program(exe, files, margs, def);
}

/*
 * Why the sampler stayed in per-task events, as the runtime recorded it
 * (MON_META_STAYED), in words: the privilege only where the kernel
 * refused for want of it.
 */
static const char *
stayed(long why, char *buf, size_t len)
{
	switch (why) {
	case MON_STAYED_ASKED:
		return "PROFFLAGS=-nocpuwide kept per-task events";
	case MON_STAYED_NOFILE:
		return "per-CPU events need 16 descriptors a CPU, more than "
		    "its RLIMIT_NOFILE allowed";
	case MON_STAYED_PRIVILEGE:
		return "per-CPU sampling needs CAP_PERFMON or "
		    "perf_event_paranoid <= 0";
	case MON_STAYED_CLOSED:
		return "it closed the sampler's descriptors, which per-CPU "
		    "sampling needs";
	case 0:
		return "per-CPU sampling needs CAP_PERFMON or "
		    "perf_event_paranoid <= 0, or more descriptors";
	}
	if (why > MON_STAYED_ERRNO && why < MON_STAYED_ERRNO + 4096) {
		snprintf(buf, len, "the kernel refused per-CPU events: %s",
		    strerror((int)(why - MON_STAYED_ERRNO)));
		return buf;
	}
	return "per-CPU events could not be had";
}

/*
 * What one kind of warning found in the profiles: the first file, how
 * many files, and the sum (the largest for a rate).
 */
struct seen {
	const char	*first;
	size_t		 files;
	long		 v, stayed;
};

static void
see(struct seen *s, const char *file, long v, int rate, long stayed)
{
	if (v <= 0)
		return;
	if (s->files++ == 0) {
		s->first = file;
		s->stayed = stayed;
	}
	s->v = rate ? (v > s->v ? v : s->v) : s->v + v;
}

/* "FILE" or "FILE and N other profiles", escaped, in buf. */
static const char *
where(const struct seen *s, char *buf, size_t len)
{
	char *t = names_text(s->first);

	if (s->files == 1)
		snprintf(buf, len, "%s", t);
	else
		snprintf(buf, len, "%s and %zu other profile%s", t,
		    s->files - 1, s->files > 2 ? "s" : "");
	free(t);
	return buf;
}

/*
 * Profile I of PF, not held, read again into MF: the file read the
 * first time, or exit.  A profile rewritten in between (a process still
 * writing into PROFDIR) could record another program or objects the
 * symbol table did not load.
 */
static void
reread(const struct profiles *pf, size_t i, struct monfile *mf)
{
	const struct profile_id *id = &pf->id[i];

	monread_open(mf, pf->files->v[i]);
	if (mf->dev != id->dev || mf->ino != id->ino ||
	    mf->size != id->size || mf->mtime_ns != id->mtime_ns)
		errx(1, "%s: changed while prof read it: run prof again "
		    "once the program has exited", names_text(pf->files->v[i]));
}

/* Whether path's file name is one -merge gives (runtime/name.c). */
static int
merged_name(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base != NULL ? base + 1 : path;
	return strncmp(base, MON_MERGED_PREFIX,
	    strlen(MON_MERGED_PREFIX)) == 0;
}

/*
 * Add each profile of PF to R, each let go once added, or exit naming
 * the file and the problem.
 */
void
profiles_add(struct profiles *pf, struct report *r)
{
	const struct flist *files = pf->files;
	struct seen sat = { 0 }, lost = { 0 }, sw = { 0 };
	struct monfile *mf, again;
	const char *e;
	char ebuf[PATH_MAX + 256], wbuf[PATH_MAX + 64];
	size_t i, skipped = 0;

	progress_begin(pf->again);
	for (i = 0; i < files->n; i++) {
		if ((mf = pf->mf[i]) == NULL) {
			mf = &again;
			reread(pf, i, mf);
			progress_step();
		}
		/*
		 * -merge writes each build's processes into a file of its
		 * own, merged.<prog>.build-<id>: in a directory of them, the
		 * other builds' are left out, and said so.
		 */
		if (files->n > 1 && merged_name(files->v[i]) &&
		    report_other_build(r, mf)) {
			warnx("%s: another build of the program: not summed "
			    "(PROFFLAGS -merge keeps each build's processes in "
			    "a file of its own); name that build's binary to "
			    "read it", names_text(files->v[i]));
			skipped++;
		} else if ((e = report_add(r, mf, ebuf, sizeof(ebuf))) != NULL)
			errx(1, "%s: %s", names_text(files->v[i]), e);
		else {
			see(&sat, files->v[i], mf->meta[MON_META_SATURATED],
			    0, 0);
			see(&lost, files->v[i], mf->meta[MON_META_LOST], 0, 0);
			see(&sw, files->v[i], mf->meta[MON_META_SWITCHES], 1,
			    mf->meta[MON_META_STAYED]);
		}
		monread_close(mf);
		if (mf != &again)
			free(mf);
		pf->mf[i] = NULL;
	}
	progress_end();
	if (skipped == files->n)
		errx(1, "no profile of this build of the program among them: "
		    "name the binary that wrote them");
	if (sat.files > 0)
		warnx("%s: %ld samples dropped at full bins: times are low; "
		    "a lower PROFFLAGS=-rate keeps them",
		    where(&sat, wbuf, sizeof(wbuf)), sat.v);
	if (lost.files > 0)
		warnx("%s: %ld samples lost by the kernel: times are low by "
		    "as much; the sampler did not drain them in time (a "
		    "loaded machine): rerun with less beside it, or a lower "
		    "PROFFLAGS=-rate", where(&lost, wbuf, sizeof(wbuf)), lost.v);
	if (sw.files > 0)
		warnx("%s: its threads blocked up to %ld times a second, and "
		    "the sampler worked at each switch (not in the times "
		    "shown): %s; PROFFLAGS=-itimer costs less",
		    where(&sw, wbuf, sizeof(wbuf)), sw.v,
		    stayed(sw.stayed, ebuf, sizeof(ebuf)));
	if (r->nfns == 0 && r->total == 0)
		warnx("%s: no call counts and no samples captured: build "
		    "with gcc -specs=monprof.specs -p, and run long enough "
		    "to be sampled",
		    files->n == 1 ? files->v[0] : "profiles");
}

void
profiles_free(struct profiles *pf)
{
	size_t i;

	for (i = 0; pf->mf != NULL && i < pf->files->n; i++)
		if (pf->mf[i] != NULL) {
			monread_close(pf->mf[i]);
			free(pf->mf[i]);
		}
	for (i = 0; i < pf->nobj; i++)
		free((char *)pf->obj[i].path);
	free(pf->mf);
	free(pf->id);
	free(pf->obj);
	free(pf->slot);
	memset(pf, 0, sizeof(*pf));
}
