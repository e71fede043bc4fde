/* SPDX-License-Identifier: MIT */
/*
 * symtab.c - the executable's functions (and those of the shared objects
 * a profile names), through libelf: which symbols name a report line,
 * and which text each one's time and calls cover.
 *
 * Every function symbol of an executable section is loaded, locals too
 * (they are most functions of an -O2 or -flto program); symbols at one
 * address become one entry with several names.  A function's text ends
 * at its st_size: text no symbol covers belongs to none.  Addresses are
 * link-time ones, which is what mon.out records, for ET_EXEC and PIE.
 */
#include <sys/stat.h>

#include <elf.h>
#include <errno.h>
#include <err.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "prof.h"

#ifndef DF_1_PIE
#define DF_1_PIE	0x08000000
#endif

struct rawsym {
	uint64_t	 addr, size, secend;
	const char	*name;
	int		 bind;
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

static const struct symname *sort_names;

static int
namecmp(const void *a, const void *b)
{
	return strcmp(sort_names[*(const size_t *)a].name,
	    sort_names[*(const size_t *)b].name);
}

/*
 * The entry holding a name equal to NAME's first LEN bytes, or -1; a
 * binary search in ORDER, the names' indices sorted by name.
 */
static long
byname(const struct symtab *st, const size_t *order, const char *name,
    size_t len)
{
	size_t lo = 0, hi = st->nnames, mid;
	const char *s;
	int c;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = st->names[order[mid]].name;
		if ((c = strncmp(name, s, len)) == 0 && s[len] != '\0')
			c = -1;
		if (c == 0)
			return st->names[order[mid]].ent;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

static int
is_pie(Elf *elf, const GElf_Ehdr *eh)
{
	GElf_Phdr ph;
	GElf_Dyn dyn;
	Elf_Scn *scn;
	GElf_Shdr sh;
	Elf_Data *d;
	size_t i, n;

	for (i = 0; i < eh->e_phnum; i++)
		if (gelf_getphdr(elf, i, &ph) != NULL &&
		    ph.p_type == PT_INTERP)
			return 1;
	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_DYNAMIC || sh.sh_entsize == 0 ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = d->d_size / gelf_fsize(elf, ELF_T_DYN, 1, EV_CURRENT);
		for (i = 0; i < n; i++)
			if (gelf_getdyn(d, i, &dyn) != NULL &&
			    dyn.d_tag == DT_FLAGS_1 &&
			    (dyn.d_un.d_val & DF_1_PIE))
				return 1;
	}
	return 0;
}

/* The first 8 bytes of ELF's GNU build-id into ID: 1, or 0 if it has none. */
static int
buildid_of(Elf *elf, unsigned char id[8])
{
	Elf_Scn *scn;
	GElf_Shdr sh;
	GElf_Nhdr nh;
	Elf_Data *d;
	size_t off, next, noff, doff, n;

	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE ||
		    (d = elf_getdata(scn, NULL)) == NULL)
			continue;
		for (off = 0; (next = gelf_getnote(d, off, &nh, &noff,
		    &doff)) > 0; off = next) {
			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_namesz != 4 ||
			    memcmp((char *)d->d_buf + noff, "GNU", 4) != 0)
				continue;
			n = nh.n_descsz < 8 ? nh.n_descsz : 8;
			memset(id, 0, 8);
			memcpy(id, (char *)d->d_buf + doff, n);
			return 1;
		}
	}
	return 0;
}

/*
 * Append the function symbols of ELF's symbol table SCN to *RAWP (*NP
 * of them), their addresses plus BASE; *NSYMS = the symbols read.
 */
static const char *
readsyms(Elf *elf, Elf_Scn *scn, uint64_t base, struct rawsym **rawp,
    size_t *np, size_t *nsyms, char *ebuf, size_t esz)
{
	GElf_Shdr sh, tsh;
	GElf_Sym sym;
	Elf_Scn *tscn;
	Elf_Data *d;
	struct rawsym *raw;
	const char *name;
	size_t i, n, cnt;
	int type;

	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_entsize == 0 ||
	    (d = elf_getdata(scn, NULL)) == NULL)
		return prof_errf(ebuf, esz, "bad symbol table: %s", elf_errmsg(-1));
	/* What gelf_getsym() reads; a bad sh_entsize would count bytes. */
	n = d->d_size / gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if ((raw = realloc(*rawp, (*np + n + 1) * sizeof(*raw))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	*rawp = raw;
	*nsyms = n;
	for (i = 0, cnt = *np; i < n; i++) {
		if (gelf_getsym(d, i, &sym) == NULL)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type != STT_FUNC && type != STT_NOTYPE &&
		    type != STT_GNU_IFUNC)
			continue;
		if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
			continue;
		if ((tscn = elf_getscn(elf, sym.st_shndx)) == NULL ||
		    gelf_getshdr(tscn, &tsh) == NULL ||
		    (tsh.sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR))
			continue;
		name = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (name == NULL || *name == '\0' || *name == '$' ||
		    strncmp(name, ".L", 2) == 0)
			continue;
		raw[cnt].addr = sym.st_value + base;
		raw[cnt].size = sym.st_size;
		raw[cnt].secend = tsh.sh_addr + tsh.sh_size + base;
		raw[cnt].name = name;
		raw[cnt].bind = GELF_ST_BIND(sym.st_info);
		if (raw[cnt].bind == STB_GNU_UNIQUE)
			raw[cnt].bind = STB_GLOBAL;
		cnt++;
	}
	*np = cnt;
	return NULL;
}

/*
 * Open PATH for reading if it is a regular file (a FIFO would block, a
 * directory is no ELF file), else -1 and *WHY says what is wrong.
 */
static int
open_regular(const char *path, const char **why)
{
	struct stat sb;
	int fd;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &sb) == -1 || !S_ISREG(sb.st_mode)) {
		close(fd);
		*why = "not a regular file";
		return -1;
	}
	return fd;
}

/* ELF's symbol table: .symtab, else .dynsym, else NULL. */
static Elf_Scn *
symscn_of(Elf *elf)
{
	Elf_Scn *scn, *symscn = NULL, *dynscn = NULL;
	GElf_Shdr sh;

	for (scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
		if (gelf_getshdr(scn, &sh) == NULL)
			continue;
		if (sh.sh_type == SHT_SYMTAB && symscn == NULL)
			symscn = scn;
		if (sh.sh_type == SHT_DYNSYM && dynscn == NULL)
			dynscn = scn;
	}
	return symscn != NULL ? symscn : dynscn;
}

/* Read the opened object O (MO in the profile) into RAW, or say why not. */
static const char *
loadobj(struct symobj *o, const struct monobj *mo, struct rawsym **rawp,
    size_t *np, char *ebuf, size_t esz)
{
	unsigned char id[8];
	GElf_Ehdr eh;
	GElf_Phdr ph;
	Elf_Scn *scn;
	size_t i, nsyms;

	if ((o->elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(o->elf) != ELF_K_ELF || gelf_getehdr(o->elf, &eh) == NULL)
		return "not an ELF file";
	if (eh.e_type != ET_DYN || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return "not a 64-bit shared object";
	if (mo->buildid != 0 && (!buildid_of(o->elf, id) ||
	    memcmp(id, &mo->buildid, 8) != 0))
		return "not the file the profile was taken with (build-id)";
	if ((scn = symscn_of(o->elf)) == NULL)
		return "no symbols";
	if ((o->path = strdup(mo->path)) == NULL ||
	    (o->load = calloc(eh.e_phnum + 1, sizeof(*o->load))) == NULL)
		return "out of memory";
	for (i = 0; i < eh.e_phnum; i++)
		if (gelf_getphdr(o->elf, i, &ph) != NULL &&
		    ph.p_type == PT_LOAD)
			o->load[o->nload++] = ph;
	return readsyms(o->elf, scn, o->base, rawp, np, &nsyms, ebuf, esz);
}

/*
 * Shared object k (MO): its function symbols join RAW at
 * SYMTAB_OBJECT_BASE * (k + 1) above their link-time addresses, beyond
 * any executable's.  An object that cannot be read, or is not the one
 * the profile was taken with, is reported and skipped: its calls stay
 * unnamed.
 */
static void
readobj(struct symtab *st, const struct monobj *mo, struct rawsym **rawp,
    size_t *np)
{
	struct symobj *o = &st->obj[st->nobj];
	char ebuf[160];
	const char *e;

	memset(o, 0, sizeof(*o));
	o->base = SYMTAB_OBJECT_BASE * (st->nobj + 1);
	o->buildid = mo->buildid;
	if ((o->fd = open_regular(mo->path, &e)) != -1)
		e = loadobj(o, mo, rawp, np, ebuf, sizeof(ebuf));
	if (e == NULL) {
		st->nobj++;
		return;
	}
	warnx("%s: %s: its functions are not named", mo->path, e);
	if (o->elf != NULL)
		elf_end(o->elf);
	if (o->fd != -1)
		close(o->fd);
	free(o->path);
	free(o->load);
}

/* Group RAW (sorted) into entries, one per address. */
static const char *
group(struct symtab *st, struct rawsym *raw, size_t n, char *ebuf, size_t esz)
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
			if (j > i && strcmp(raw[j].name, raw[j - 1].name) == 0)
				continue;
			nm[m].name = raw[j].name;
			nm[m].bind = raw[j].bind;
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
partof(const struct symtab *st, const size_t *order, size_t i, int cold)
{
	const struct symname *nm = &st->names[st->ent[i].name0];
	size_t len;
	long p;

	if (nm->bind != STB_LOCAL || (coldbase(nm->name) > 0) != cold)
		return -1;
	len = cold ? coldbase(nm->name) : clonebase(nm->name);
	if (len == 0 || (p = byname(st, order, nm->name, len)) == (long)i)
		return -1;
	return p;
}

/*
 * Decide which entries name a report line and where the others' time
 * and calls go.  Binding decides, never the name: by default (LOCALS)
 * every function has its line; under -l, classic prof's rule, only
 * those with a global or weak name, and a hidden local gives its time
 * to the preceding shown entry and drops its calls.  A local part of a
 * function reports into it, time and calls: a .cold part always, a
 * clone under -l when its base function is shown.
 */
static const char *
classify(struct symtab *st, int locals, char *ebuf, size_t esz)
{
	size_t *order;
	struct symentry *e;
	struct symname *nm;
	size_t i, k;
	long p, last = -1;
	int cold;

	if ((order = calloc(st->nnames ? st->nnames : 1, sizeof(*order))) ==
	    NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (i = 0; i < st->nnames; i++)
		order[i] = i;
	sort_names = st->names;
	qsort(order, st->nnames, sizeof(*order), namecmp);
	st->nshown = 0;
	for (i = 0; i < st->nent; i++) {
		e = &st->ent[i];
		nm = &st->names[e->name0];
		e->shown = 0;
		for (k = 0; k < e->nnames; k++) {
			nm[k].print = nm[k].bind != STB_LOCAL || locals;
			e->shown |= nm[k].print;
		}
		if (partof(st, order, i, 1) >= 0)
			e->shown = 0;
		if (e->shown)
			last = i;
		e->row = last;
		e->calls = e->shown ? (long)i : -1;
		st->nshown += e->shown;
	}
	/* Clones first: a .cold part of a clone follows where it went. */
	for (cold = 0; cold < 2; cold++)
		for (i = 0; i < st->nent; i++) {
			e = &st->ent[i];
			if (e->shown || (p = partof(st, order, i, cold)) < 0 ||
			    (cold ? st->ent[p].row < 0 : !st->ent[p].shown))
				continue;
			e->row = st->ent[p].row;
			e->calls = st->ent[p].calls;
		}
	free(order);
	return NULL;
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
 * Load PATH's symbols, and those of the NOBJ shared objects OBJS (see
 * readobj).  Returns NULL, or a message (in EBUF) naming the problem
 * with PATH; the caller prefixes the file name.
 */
const char *
symtab_load(struct symtab *st, const char *path, const struct monobj *objs,
    size_t nobj, int locals, char *ebuf, size_t esz)
{
	Elf_Scn *symscn;
	struct rawsym *raw = NULL;
	GElf_Ehdr eh;
	const char *e;
	size_t n, i;

	memset(st, 0, sizeof(*st));
	st->path = path;
	st->fd = -1;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return prof_errf(ebuf, esz, "libelf: %s", elf_errmsg(-1));
	if ((st->fd = open_regular(path, &e)) == -1)
		return prof_errf(ebuf, esz, "%s", e);
	if ((st->elf = elf_begin(st->fd, ELF_C_READ_MMAP, NULL)) == NULL)
		return prof_errf(ebuf, esz, "%s", elf_errmsg(-1));
	if (elf_kind(st->elf) != ELF_K_ELF)
		return prof_errf(ebuf, esz, "not an ELF file");
	if (gelf_getehdr(st->elf, &eh) == NULL)
		return prof_errf(ebuf, esz, "bad ELF header: %s", elf_errmsg(-1));
	if (eh.e_ident[EI_CLASS] != ELFCLASS64)
		return prof_errf(ebuf, esz, "not a 64-bit ELF file");
	if (eh.e_type == ET_DYN && !is_pie(st->elf, &eh))
		return prof_errf(ebuf, esz, "a shared object, not an executable");
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return prof_errf(ebuf, esz, "not an executable");

	n = 0;
	if ((symscn = symscn_of(st->elf)) != NULL && (e = readsyms(st->elf,
	    symscn, 0, &raw, &n, &st->nsyms, ebuf, esz)) != NULL) {
		free(raw);
		return e;
	}
	if (n == 0) {
		free(raw);
		return prof_errf(ebuf, esz, "no symbols (stripped?)");
	}
	if (nobj > 0 &&
	    (st->obj = calloc(nobj, sizeof(*st->obj))) == NULL) {
		free(raw);
		return prof_errf(ebuf, esz, "out of memory");
	}
	for (i = 0; i < nobj; i++)
		readobj(st, &objs[i], &raw, &n);
	qsort(raw, n, sizeof(*raw), rawcmp);
	e = group(st, raw, n, ebuf, esz);
	free(raw);
	if (e != NULL)
		return e;
	if ((e = classify(st, locals, ebuf, esz)) != NULL)
		return e;
	st->has_buildid = buildid_of(st->elf, st->buildid);
	return index_buckets(st, ebuf, esz);
}

/*
 * Where the file offset OFF of the shared object MO (a profile's record:
 * path and build-id) lies among the loaded symbols (its link-time
 * address plus its base), or 0 if MO was not loaded or OFF is in none of
 * its segments.
 */
uint64_t
symtab_object_addr(const struct symtab *st, const struct monobj *mo,
    uint64_t off)
{
	const struct symobj *o;
	size_t k, i;

	for (k = 0; k < st->nobj; k++) {
		o = &st->obj[k];
		if (strcmp(o->path, mo->path) != 0 || o->buildid != mo->buildid)
			continue;
		for (i = 0; i < o->nload; i++)
			if (off >= o->load[i].p_offset &&
			    off - o->load[i].p_offset < o->load[i].p_filesz)
				return o->base + o->load[i].p_vaddr +
				    (off - o->load[i].p_offset);
	}
	return 0;
}

/* Load PATH's symbols or exit with "prof: PATH: problem". */
void
symtab_open(struct symtab *st, const char *path, const struct monobj *objs,
    size_t nobj, int locals)
{
	char ebuf[160];
	const char *e;

	if ((e = symtab_load(st, path, objs, nobj, locals, ebuf,
	    sizeof(ebuf))) != NULL)
		errx(1, "%s: %s", path, e);
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
	if (st->elf != NULL)
		elf_end(st->elf);
	if (st->fd != -1)
		close(st->fd);
	free(st->ent);
	free(st->names);
	free(st->bucket);
	memset(st, 0, sizeof(*st));
	st->fd = -1;
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
