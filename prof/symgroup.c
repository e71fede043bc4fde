/* SPDX-License-Identifier: MIT */
/*
 * symgroup.c - the function symbols read (elfread.c) into the table's
 * entries: symbols at one address become one entry with several names
 * (aliases), each entry gets the text whose time it collects, and a few
 * passes decide which entries name a report line and where the others'
 * time and calls go.
 *
 * Binding decides, never the name: by default every function has its
 * line; under -l, classic prof's rule, only those with a global or weak
 * name.  The names only link a part to its function: a local foo.cold
 * reports into foo, and so, under -l, does a local clone
 * foo.constprop.0 when foo is shown.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* A name and its entry: the index byname() searches, sorted by name. */
struct nameidx {
	const char	*name;
	long		 ent;
};

static int
bindrank(int bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

/* By address, then name, so that a name's duplicates are adjacent. */
static int
rawcmp(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;
	int c;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return bindrank(x->bind) - bindrank(y->bind);
}

/* An entry's names: global, weak, then local, each by name. */
static int
namebindcmp(const void *a, const void *b)
{
	const struct symname *x = a, *y = b;

	if (bindrank(x->bind) != bindrank(y->bind))
		return bindrank(x->bind) - bindrank(y->bind);
	return strcmp(x->name, y->name);
}

/* By name, then address: of two statics named alike, the first. */
static int
nameidxcmp(const void *a, const void *b)
{
	const struct nameidx *x = a, *y = b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->ent < y->ent ? -1 : x->ent > y->ent;
}

/* "foo.cold", "foo.cold.3", "foo.part.0.cold": the parent's name length. */
static size_t
coldbase(const char *name)
{
	const char *p = strstr(name, ".cold");

	if (p == NULL || p == name || (p[5] != '\0' && p[5] != '.'))
		return 0;
	return p - name;
}

/*
 * "foo.constprop.0", "foo.isra.1", "foo.part.2" (GCC's IPA clones): the
 * base name length, else 0.  "foo.lto_priv.0" is no clone: it is a
 * static foo renamed, maybe beside a global foo.
 */
static size_t
clonebase(const char *name)
{
	static const char *const kind[] = { "constprop.", "isra.", "part." };
	const char *p = strchr(name, '.');
	size_t i;

	if (p == NULL || p == name)
		return 0;
	for (i = 0; i < sizeof(kind) / sizeof(kind[0]); i++)
		if (strncmp(p + 1, kind[i], strlen(kind[i])) == 0)
			return p - name;
	return 0;
}

/* The entry holding a name equal to NAME's first LEN bytes, or -1. */
static long
byname(const struct nameidx *ix, size_t n, const char *name, size_t len)
{
	size_t lo = 0, hi = n, mid;
	const char *s;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = ix[mid].name;
		if ((c = strncmp(name, s, len)) == 0 && s[len] != '\0')
			c = -1;
		if (c == 0)
			return ix[mid].ent;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

/* How the runtime's entry S ("file/name") sorts against FILE and NAME. */
static int
runtimecmp(const char *file, const char *name, const char *s)
{
	size_t flen = strlen(file);
	int c;

	if ((c = strncmp(file, s, flen)) != 0)
		return c;
	if (s[flen] != '/')
		return s[flen] == '\0' ? 1 : '/' - (unsigned char)s[flen];
	return strcmp(name, s + flen + 1);
}

/* Whether the runtime has a function NAME (a static of FILE if not ""). */
static int
runtime_has(const char *file, const char *name)
{
	size_t lo = 0, hi = prof_runtime_nsyms, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((c = runtimecmp(file, name, prof_runtime_syms[mid])) == 0)
			return 1;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/*
 * Which of the N symbols RAW are the runtime's, linked into the program
 * (or its shared object): into RT.  A name the runtime defines as a
 * global is its (a program's own would not have linked beside it); so
 * are its hidden functions, which the link made local outside every
 * file.  A static is the runtime's only if its file is named as one of
 * the runtime's and every static of that file is that file's in the
 * runtime: a program's own init.c, whose statics are its own, stays.
 */
static const char *
runtime_syms(const struct rawsym *raw, size_t n, char *rt, char *ebuf,
    size_t esz)
{
	size_t i, ngroup = 0;
	char *bad;

	for (i = 0; i < n; i++)
		if (raw[i].group >= ngroup)
			ngroup = raw[i].group + 1;
	if ((bad = calloc(ngroup, 1)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < n; i++) {
		rt[i] = runtime_has(raw[i].file, raw[i].name);
		if (!rt[i])
			bad[raw[i].group] = 1;
	}
	for (i = 0; i < n; i++)
		if (raw[i].group != 0 && bad[raw[i].group])
			rt[i] = 0;
	free(bad);
	return NULL;
}

/* Group RAW (sorted; RT: the runtime's) into entries, one per address. */
static const char *
group(struct symtab *st, struct rawsym *raw, const char *rt, size_t n,
    char *ebuf, size_t esz)
{
	struct symentry *e;
	struct symname *nm;
	size_t i, j, k, m;
	uint64_t cover = 0;	/* end of the sized functions so far */

	st->ent = calloc(n ? n : 1, sizeof(*st->ent));
	st->names = calloc(n ? n : 1, sizeof(*st->names));
	if (st->ent == NULL || st->names == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < n; i = j) {
		e = &st->ent[st->nent];
		e->addr = raw[i].addr;
		e->name0 = st->nnames;
		nm = &st->names[e->name0];
		/* Each name once, with its best bind: raw is sorted so. */
		for (j = i, m = 0; j < n && raw[j].addr == raw[i].addr; j++) {
			if (raw[j].size > e->size)
				e->size = raw[j].size;
			e->runtime |= rt[j];
			if (j > i && strcmp(raw[j].name, raw[j - 1].name) == 0)
				continue;
			nm[m].name = raw[j].name;
			nm[m].bind = raw[j].bind;
			nm[m].file = raw[j].file;
			nm[m].ent = st->nent;
			m++;
		}
		qsort(nm, m, sizeof(*nm), namebindcmp);
		/* Drop GCC's local twin of an exported function. */
		for (k = 1, e->nnames = 1; k < m; k++)
			if (strstr(nm[k].name, ".localalias") == NULL)
				nm[e->nnames++] = nm[k];
		st->nnames += e->nnames;
		e->end = raw[j - 1].secend > e->addr ? raw[j - 1].secend :
		    e->addr;
		/*
		 * Padding and unnamed code after a function are not its
		 * time: a sized symbol ends at its size.  A label without
		 * one runs to the next symbol, but not out of a sized
		 * function holding it.
		 */
		if (e->size != 0 && e->size < e->end - e->addr)
			e->end = e->addr + e->size;
		else if (e->size == 0 && cover > e->addr && cover < e->end)
			e->end = cover;
		if (e->size != 0 && e->end > cover)
			cover = e->end;
		if (e > st->ent && e[-1].end > e->addr)
			e[-1].end = e->addr;
		st->nent++;
	}
	return NULL;
}

/*
 * Entry I's function, if I is a local part of one: foo.cold (COLD), or
 * a clone foo.constprop.0 (!COLD), of the entry named foo; else -1.
 */
static long
partof(const struct symtab *st, const struct nameidx *ix, size_t i, int cold)
{
	const struct symname *nm = &st->names[st->ent[i].name0];
	size_t len;
	long p;

	if (nm->bind != STB_LOCAL || (coldbase(nm->name) > 0) != cold)
		return -1;
	len = cold ? coldbase(nm->name) : clonebase(nm->name);
	if (len == 0 || (p = byname(ix, st->nnames, nm->name, len)) == (long)i)
		return -1;
	return p;
}

/*
 * Pass 1: which names are printed (all, or under -l only global and
 * weak ones) and which entries name a line: those with a printed name,
 * but never a .cold part.
 */
static void
shown_pass(struct symtab *st, const struct nameidx *ix, int locals)
{
	struct symentry *e;
	struct symname *nm;
	size_t i, k;

	st->nshown = 0;
	for (i = 0; i < st->nent; i++) {
		e = &st->ent[i];
		nm = &st->names[e->name0];
		e->shown = 0;
		for (k = 0; k < e->nnames; k++) {
			nm[k].print = nm[k].bind != STB_LOCAL || locals;
			e->shown |= nm[k].print;
		}
		if (partof(st, ix, i, 1) >= 0)
			e->shown = 0;
		st->nshown += e->shown;
	}
}

/*
 * Pass 2: a shown entry reports into its own line; a hidden one gives
 * its time to the preceding shown entry (classic prof) and drops its
 * calls.
 */
static void
rows_pass(struct symtab *st)
{
	struct symentry *e;
	size_t i;
	long last = -1;

	for (i = 0; i < st->nent; i++) {
		e = &st->ent[i];
		if (e->shown)
			last = i;
		e->row = last;
		e->calls = e->shown ? (long)i : -1;
	}
}

/*
 * Pass 3: a hidden local part reports into its function, time and
 * calls: a clone (!COLD) when the function is shown, a .cold part
 * (COLD) wherever the function's time goes.  Clones go first, so that
 * the .cold part of a clone follows where the clone went.
 */
static void
parts_pass(struct symtab *st, const struct nameidx *ix, int cold)
{
	struct symentry *e;
	size_t i;
	long p;

	for (i = 0; i < st->nent; i++) {
		e = &st->ent[i];
		if (e->shown || (p = partof(st, ix, i, cold)) < 0 ||
		    (cold ? st->ent[p].row < 0 : !st->ent[p].shown))
			continue;
		e->row = st->ent[p].row;
		e->calls = st->ent[p].calls;
	}
}

/*
 * The table's entries from the N symbols RAW (reordered); LOCALS: every
 * function its line (the default), else -l.  NULL, or the problem.
 */
const char *
symgroup_build(struct symtab *st, struct rawsym *raw, size_t n, int locals,
    char *ebuf, size_t esz)
{
	struct nameidx *ix;
	const char *e;
	size_t i;
	char *rt;

	qsort(raw, n, sizeof(*raw), rawcmp);
	if ((rt = calloc(n ? n : 1, 1)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	if ((e = runtime_syms(raw, n, rt, ebuf, esz)) == NULL)
		e = group(st, raw, rt, n, ebuf, esz);
	free(rt);
	if (e != NULL)
		return e;
	if ((ix = calloc(st->nnames ? st->nnames : 1, sizeof(*ix))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < st->nnames; i++) {
		ix[i].name = st->names[i].name;
		ix[i].ent = st->names[i].ent;
	}
	qsort(ix, st->nnames, sizeof(*ix), nameidxcmp);
	shown_pass(st, ix, locals);
	rows_pass(st);
	parts_pass(st, ix, 0);
	parts_pass(st, ix, 1);
	free(ix);
	return NULL;
}
