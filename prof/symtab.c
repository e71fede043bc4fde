/* SPDX-License-Identifier: MIT */
/*
 * symtab.c - the table of functions a report names: the executable's,
 * and those of the shared objects a profile names, each object above the
 * last at its own base; and the lookups the report makes in it (the
 * entry a call-count cell belongs to, the entries a histogram bin
 * overlaps, where an object's file offset lies).
 *
 * Every function symbol of an executable section is loaded, locals too
 * (they are most functions of an -O2 or -flto program); elfread.c reads
 * them, symgroup.c makes the entries.  Addresses are link-time ones,
 * which is what mon.out records, for ET_EXEC and PIE.  Of each file the
 * table also keeps what the views show of it (when it was written, its
 * PT_LOADs, its build-id note), so that no view reads it.
 */
#include <err.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"

/* A record's object: the key that makes two records one object. */
struct objkey {
	const char	*path;
	long		 buildid;
	size_t		 i;		/* first record with it */
};

static int
keycmp(const char *p1, long id1, const char *p2, long id2)
{
	int c;

	if ((c = strcmp(p1, p2)) != 0)
		return c;
	return id1 < id2 ? -1 : id1 > id2;
}

static int
objkeycmp(const void *a, const void *b)
{
	const struct objkey *x = a, *y = b;
	int c;

	if ((c = keycmp(x->path, x->buildid, y->path, y->buildid)) != 0)
		return c;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int
byfirst(const void *a, const void *b)
{
	const struct objkey *x = a, *y = b;

	return x->i < y->i ? -1 : x->i > y->i;
}

static int
symobjcmp(const void *a, const void *b)
{
	const struct symobj *x = a, *y = b;

	return keycmp(x->path, x->buildid, y->path, y->buildid);
}

/* Read the opened object O (MO in the profile) into RAW, or say why not. */
static const char *
loadobj(struct symobj *o, const struct monobj *mo, struct rawsym **rawp,
    size_t *np, char *ebuf, size_t esz)
{
	unsigned char id[8];
	const char *e;
	size_t nsyms, n0 = *np;

	if ((e = elfread_begin(o->fd, ELFREAD_OBJECT, &o->elf, ebuf, esz)) !=
	    NULL)
		return e;
	if (mo->buildid != 0 && (!elfread_buildid(o->elf, id) ||
	    memcmp(id, &mo->buildid, 8) != 0))
		return "not the file the profile was taken with (build-id)";
	if ((e = elfread_syms(o->elf, o->base, rawp, np, &nsyms, ebuf,
	    esz)) != NULL)
		return e;
	if (nsyms == 0)
		return "no symbols";
	if ((o->path = strdup(mo->path)) == NULL ||
	    elfread_loads(o->elf, &o->load, &o->nload) != NULL) {
		*np = n0;
		return "out of memory";
	}
	if (!elfread_note_buildid(o->elf, &o->note, &o->notelen))
		o->notelen = 0;
	return NULL;
}

/*
 * The shared object MO: its function symbols join RAW at its base,
 * beyond any executable's addresses.  An object that cannot be read, or
 * is not the one the profile was taken with, is reported and skipped:
 * its calls stay unnamed.
 */
static void
readobj(struct symtab *st, const struct monobj *mo, struct rawsym **rawp,
    size_t *np)
{
	struct symobj *o = &st->obj[st->nobj];
	char ebuf[160], *t;
	struct stat sb;
	const char *e;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->base = SYMTAB_OBJECT_BASE * (st->nobj + 1);
	o->buildid = mo->buildid;
	if (st->nobj >= SYMTAB_OBJECT_MAX)
		e = "too many shared objects";
	else if ((o->fd = file_open(mo->path, &sb, &e)) != -1) {
		o->mtime = sb.st_mtime;
		e = file_sparse(&sb, (uint64_t)sb.st_size) ? "sparse file" :
		    loadobj(o, mo, rawp, np, ebuf, sizeof(ebuf));
	}
	if (e == NULL) {
		st->nobj++;
		return;
	}
	t = names_text(mo->path);
	warnx("%s: %s: its functions are not named (its samples stay in its "
	    "own row); to name them, make the object the program ran with "
	    "readable at that path", t, e);
	free(t);
	if (o->elf != NULL)
		elf_end(o->elf);
	if (o->fd != -1)
		close(o->fd);
	free(o->path);
	free(o->load);
}

/*
 * The NOBJ records OBJS name each (path, build-id) once or more: read
 * each object once, in the order of the records, then sort st->obj for
 * symtab_object().
 */
static const char *
objects(struct symtab *st, const struct monobj *objs, size_t nobj,
    struct rawsym **rawp, size_t *np, char *ebuf, size_t esz)
{
	struct objkey *key;
	size_t i, n;

	if (nobj == 0)
		return NULL;
	key = calloc(nobj, sizeof(*key));
	st->obj = calloc(nobj, sizeof(*st->obj));
	if (key == NULL || st->obj == NULL) {
		free(key);
		return prof_errf(ebuf, esz, "out of memory");
	}
	for (i = 0; i < nobj; i++) {
		key[i].path = objs[i].path;
		key[i].buildid = objs[i].buildid;
		key[i].i = i;
	}
	qsort(key, nobj, sizeof(*key), objkeycmp);
	for (i = n = 0; i < nobj; i++)
		if (n == 0 || keycmp(key[i].path, key[i].buildid,
		    key[n - 1].path, key[n - 1].buildid) != 0)
			key[n++] = key[i];
	qsort(key, n, sizeof(*key), byfirst);
	for (i = 0; i < n; i++)
		if (objs[key[i].i].named)
			readobj(st, &objs[key[i].i], rawp, np);
	free(key);
	qsort(st->obj, st->nobj, sizeof(*st->obj), symobjcmp);
	/* Loaded objects have the bases 1, 2, ... in loading order. */
	if ((st->objat = calloc(st->nobj + 1, sizeof(*st->objat))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < st->nobj; i++)
		st->objat[st->obj[i].base / SYMTAB_OBJECT_BASE - 1] = i;
	return NULL;
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The object rows (SYMTAB_ROW_BASE): the executable's, then one per
 * path the NOBJ records OBJS name, as entries "<file name>" in RAW.
 */
static const char *
objrows(struct symtab *st, const struct monobj *objs, size_t nobj,
    struct rawsym **rawp, size_t *np, char *ebuf, size_t esz)
{
	struct rawsym *raw;
	const char *base;
	size_t i, n = 0;

	if ((st->rowpath = calloc(nobj + 1, sizeof(char *))) == NULL ||
	    (st->rowname = calloc(nobj + 1, sizeof(char *))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < nobj; i++)
		st->rowpath[1 + n++] = (char *)objs[i].path;
	qsort(st->rowpath + 1, n, sizeof(char *), strpcmp);
	for (i = 1, st->nrow = 1; i <= n; i++)
		if (st->nrow == 1 ||
		    strcmp(st->rowpath[i], st->rowpath[st->nrow - 1]) != 0)
			st->rowpath[st->nrow++] = st->rowpath[i];
	st->rowpath[0] = (char *)st->path;
	if ((raw = reallocarray(*rawp, *np + st->nrow, sizeof(*raw))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	*rawp = raw;
	for (i = 0; i < st->nrow; i++) {
		base = strrchr(st->rowpath[i], '/');
		base = base != NULL ? base + 1 : st->rowpath[i];
		if ((st->rowpath[i] = strdup(st->rowpath[i])) == NULL ||
		    asprintf(&st->rowname[i], "<%s>", base) == -1) {
			st->rowname[i] = NULL;
			return prof_errf(ebuf, esz, "out of memory");
		}
		raw[(*np)++] = (struct rawsym){ SYMTAB_ROW_BASE + i, 1,
		    SYMTAB_ROW_BASE + i + 1, st->rowname[i], STB_GLOBAL, "", 0 };
	}
	return NULL;
}

/* The entry of the object row of PATH (NULL: the executable), or -1. */
long
symtab_object_row(const struct symtab *st, const char *path)
{
	char *const *p;
	long k;

	if (st->nrow == 0)
		return -1;
	if (path == NULL)
		k = 0;
	else if ((p = bsearch(&path, st->rowpath + 1, st->nrow - 1,
	    sizeof(char *), strpcmp)) != NULL)
		k = p - st->rowpath;
	else
		return -1;
	k = symtab_region(st, SYMTAB_ROW_BASE + (uint64_t)k);
	return k < (long)st->nent && st->ent[k].addr <= SYMTAB_ROW_BASE +
	    (uint64_t)k ? k : -1;
}

/* The path of the object whose entry K is (st->path: the executable). */
const char *
symtab_entry_object(const struct symtab *st, long k)
{
	const struct symobj *o;
	uint64_t a;

	if (k < 0 || k >= (long)st->nent)
		return NULL;
	a = st->ent[k].addr;
	if (a >= SYMTAB_ROW_BASE)
		return a - SYMTAB_ROW_BASE < st->nrow ?
		    st->rowpath[a - SYMTAB_ROW_BASE] : NULL;
	return (o = symtab_object_at(st, a)) != NULL ? o->path : st->path;
}

/*
 * A direct index for symtab_lookup(): bucket b holds the first entry whose
 * (addr - ent[0].addr) >> bshift is at least b, so a lookup only searches
 * the few entries of one bucket.  About 4 buckets per entry.
 */
static const char *
index_buckets(struct symtab *st, char *ebuf, size_t esz)
{
	uint64_t base, span;
	size_t b, j;

	if (st->nent == 0 || st->nent > UINT32_MAX)
		return NULL;
	base = st->ent[0].addr;
	span = st->ent[st->nent - 1].addr - base;
	while ((span >> st->bshift) > 4 * (uint64_t)st->nent + 16)
		st->bshift++;
	st->nbucket = (span >> st->bshift) + 1;
	if ((st->bucket = calloc(st->nbucket + 1, sizeof(*st->bucket))) ==
	    NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (b = j = 0; b <= st->nbucket; b++) {
		while (j < st->nent &&
		    (st->ent[j].addr - base) >> st->bshift < b)
			j++;
		st->bucket[b] = j;
	}
	return NULL;
}

/*
 * Load PATH's symbols, and those of the shared objects the NOBJ records
 * OBJS name (see readobj).  Returns NULL, or a message (in EBUF) naming
 * the problem with PATH; the caller prefixes the file name.
 */
const char *
symtab_load(struct symtab *st, const char *path, const struct monobj *objs,
    size_t nobj, int locals, char *ebuf, size_t esz)
{
	struct rawsym *raw = NULL;
	struct stat sb;
	const char *e;
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	st->path = path;
	st->fd = -1;
	if ((st->fd = file_open(path, &sb, &e)) == -1)
		return prof_errf(ebuf, esz, "%s", e);
	st->mtime = sb.st_mtime;
	if (file_sparse(&sb, (uint64_t)sb.st_size))
		return prof_errf(ebuf, esz, "sparse file (%llu bytes, %llu on "
		    "disk)", (unsigned long long)sb.st_size,
		    (unsigned long long)sb.st_blocks * 512);
	if ((e = elfread_begin(st->fd, ELFREAD_EXEC, &st->elf, ebuf, esz)) !=
	    NULL)
		return e;
	e = elfread_syms(st->elf, 0, &raw, &n, &st->nsyms, ebuf, esz);
	if (e == NULL && n == 0)
		e = prof_errf(ebuf, esz, "no symbols: it was stripped; "
		    "report the unstripped copy, or rebuild it without -s");
	if (e == NULL)
		e = objects(st, objs, nobj, &raw, &n, ebuf, esz);
	if (e == NULL)
		e = objrows(st, objs, nobj, &raw, &n, ebuf, esz);
	if (e == NULL)
		e = symgroup_build(st, raw, n, locals, ebuf, esz);
	free(raw);
	if (e != NULL)
		return e;
	st->nshown -= st->nrow;		/* no symbols of the file */
	st->has_buildid = elfread_buildid(st->elf, st->buildid);
	if (!elfread_note_buildid(st->elf, &st->note, &st->notelen))
		st->notelen = 0;
	if (elfread_loads(st->elf, &st->load, &st->nload) != NULL)
		return prof_errf(ebuf, esz, "out of memory");
	return index_buckets(st, ebuf, esz);
}

/*
 * Load PATH's symbols or exit with "prof: PATH: problem; what to do"
 * (the problem's own, or naming the right executable).
 */
void
symtab_open(struct symtab *st, const char *path, const struct monobj *objs,
    size_t nobj, int locals)
{
	char ebuf[160];
	const char *e;

	if ((e = symtab_load(st, path, objs, nobj, locals, ebuf,
	    sizeof(ebuf))) != NULL)
		errx(1, "%s: %s%s", path, e, strchr(e, ';') != NULL ? "" :
		    "; name the executable the profile is of: prof PROG "
		    "mon.out");
}

void
symtab_close(struct symtab *st)
{
	size_t k;

	for (k = 0; k < st->nobj; k++) {
		elf_end(st->obj[k].elf);
		close(st->obj[k].fd);
		free(st->obj[k].path);
		free(st->obj[k].load);
	}
	free(st->obj);
	free(st->objat);
	for (k = 0; k < st->nrow; k++) {
		free(st->rowpath[k]);
		free(st->rowname[k]);
	}
	free(st->rowpath);
	free(st->rowname);
	for (k = 0; st->label != NULL && k <= st->nent; k++)
		free(st->label[k]);
	free(st->label);
	for (k = 0; st->suffix != NULL && k <= st->nent; k++)
		free(st->suffix[k]);
	free(st->suffix);
	if (st->elf != NULL)
		elf_end(st->elf);
	if (st->fd != -1)
		close(st->fd);
	free(st->ent);
	free(st->names);
	free(st->bucket);
	free(st->load);
	memset(st, 0, sizeof(*st));
	st->fd = -1;
}

/* The loaded object of a profile's record (path, build-id), or NULL. */
const struct symobj *
symtab_object(const struct symtab *st, const char *path, long buildid)
{
	size_t lo = 0, hi = st->nobj, mid;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		c = keycmp(path, buildid, st->obj[mid].path,
		    st->obj[mid].buildid);
		if (c == 0)
			return &st->obj[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* The shared object whose functions are at ADDR, or NULL: the executable. */
const struct symobj *
symtab_object_at(const struct symtab *st, uint64_t addr)
{
	uint64_t k = addr / SYMTAB_OBJECT_BASE;

	return k == 0 || k > st->nobj ? NULL : &st->obj[st->objat[k - 1]];
}

/*
 * Where the file offset OFF of the object O lies among the loaded
 * symbols (its link-time address plus its base), or 0 if OFF is in none
 * of its segments.
 */
uint64_t
symtab_object_addr(const struct symobj *o, uint64_t off)
{
	const struct elfload *l;
	size_t lo = 0, hi = o->nload, mid;

	while (lo < hi) {		/* first segment with offset > off */
		mid = lo + (hi - lo) / 2;
		if (o->load[mid].offset <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	l = &o->load[lo - 1];
	return off - l->offset < l->filesz ? o->base + l->vaddr +
	    (off - l->offset) : 0;
}

/*
 * The loaded object of each of MF's records (NULL where it is not
 * loaded), to free(); NULL out of memory.
 */
const struct symobj **
symtab_records(const struct symtab *st, const struct monfile *mf)
{
	const struct symobj **objof;
	size_t i;

	if ((objof = calloc(mf->nobj + 1, sizeof(*objof))) == NULL)
		return NULL;
	for (i = 0; i < mf->nobj; i++)
		objof[i] = symtab_object(st, mf->obj[i].path,
		    mf->obj[i].buildid);
	return objof;
}

/*
 * An address of MF as the table's: as it is for the executable; in a
 * shared object's mapping (record k), that object's place in the table,
 * OBJOF[k] (symtab_records), or 0 if its symbols were not loaded.
 */
uint64_t
symtab_profile_addr(const struct monfile *mf,
    const struct symobj *const *objof, uint64_t pc)
{
	const struct monobj *o;
	long k;

	if ((k = monobj_at(mf, pc)) < 0)
		return pc;
	if (objof[k] == NULL)
		return 0;
	o = &mf->obj[k];
	return symtab_object_addr(objof[k], pc - o->start + o->offset);
}

/*
 * The entry a call-count cell belongs to: sym < pc <= sym + size (a
 * symbol without a size extends to its region's end), or -1.
 */
long
symtab_lookup(const struct symtab *st, uint64_t pc)
{
	const struct symentry *e;
	size_t lo = 0, hi = st->nent, mid;
	uint64_t len, b;

	if (st->bucket != NULL) {
		if (pc <= st->ent[0].addr)
			return -1;
		b = (pc - 1 - st->ent[0].addr) >> st->bshift;
		if (b >= st->nbucket)
			b = st->nbucket - 1;
		lo = st->bucket[b];
		hi = st->bucket[b + 1];
	}
	while (lo < hi) {		/* first entry with addr >= pc */
		mid = lo + (hi - lo) / 2;
		if (st->ent[mid].addr < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	e = &st->ent[lo - 1];
	len = e->size != 0 ? e->size : e->end - e->addr;
	return pc - e->addr <= len ? (long)(lo - 1) : -1;
}

/* The entry whose time region holds PC, or -1. */
long
symtab_function(const struct symtab *st, uint64_t pc)
{
	long k = symtab_region(st, pc);

	return k < (long)st->nent && st->ent[k].addr <= pc ? k : -1;
}

/* The first entry whose time region ends after PC (nent if none). */
long
symtab_region(const struct symtab *st, uint64_t pc)
{
	size_t lo = 0, hi = st->nent, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (st->ent[mid].end <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
