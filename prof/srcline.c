/* SPDX-License-Identifier: MIT */
/*
 * srcline.c - the source line of every byte of the functions' text, from
 * the DWARF line tables (libdw; DWARF 2 to 5) of the executable and of
 * each shared object in the table.
 *
 * The result is a partition: every entry's time region is cut into
 * ranges, each inside one entry, with the file and line of its bytes
 * (file NULL where no line table covers them: code built without -g,
 * assembler), in address order.  So a share of a function's time splits
 * exactly into its lines (lines.c).  Rows of the line tables that are
 * out of order or overlap, as a hostile file may have, are clipped, and
 * ranges outside every function are dropped.
 */
#include <err.h>
#include <stdlib.h>

#include <elfutils/libdw.h>

#include "model.h"

static int
rawcmp(const void *a, const void *b)
{
	const struct srcraw *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/*
 * The line tables of DW, whose addresses are at BASE, appended to *RAW
 * (*N of them, room for *CAP): 0, or -1 out of memory.  A table libdw
 * cannot read ends the object's tables, as if they ended there.
 */
static int
tables(Dwarf *dw, uint64_t base, struct srcraw **raw, size_t *n,
    size_t *cap)
{
	Dwarf_Off off = 0, next;
	Dwarf_CU *cu = NULL;
	Dwarf_Lines *lines;
	Dwarf_Line *l, *l2;
	Dwarf_Addr a, a2;
	const char *file;
	size_t i, nlines;
	bool end;
	int line;

	while (dwarf_next_lines(dw, off, &next, &cu, NULL, NULL, &lines,
	    &nlines) == 0) {
		off = next;
		for (i = 0; i + 1 < nlines; i++) {
			if ((l = dwarf_onesrcline(lines, i)) == NULL ||
			    (l2 = dwarf_onesrcline(lines, i + 1)) == NULL ||
			    dwarf_lineendsequence(l, &end) != 0 || end ||
			    dwarf_lineaddr(l, &a) != 0 ||
			    dwarf_lineaddr(l2, &a2) != 0 || a2 <= a ||
			    a2 - a > SYMTAB_OBJECT_BASE ||
			    dwarf_lineno(l, &line) != 0 ||
			    (file = dwarf_linesrc(l, NULL, NULL)) == NULL)
				continue;
			/* Addresses past the object's room are no code. */
			if (a2 > SYMTAB_OBJECT_BASE)
				continue;
			if (prof_grow(raw, cap, *n + 1, sizeof(**raw)) != 0)
				return -1;
			(*raw)[(*n)++] = (struct srcraw){ base + a, base + a2,
			    file, line };
		}
	}
	return 0;
}

/* Add the range [LO, HI) of entry ENT, FILE:LINE, to SL. */
static int
add(struct srclines *sl, size_t *cap, uint64_t lo, uint64_t hi, long ent,
    const char *file, int line)
{
	if (prof_grow(&sl->r, cap, sl->n + 1, sizeof(*sl->r)) != 0)
		return -1;
	sl->r[sl->n++] = (struct srcrange){ lo, hi, ent, file, line };
	return 0;
}

/*
 * Cut the N RAW ranges, sorted and disjoint, to the entries' regions:
 * the partition described at the top.  A range is a function's only
 * from where it begins in that function: libdw sorts a sequence's last
 * row after its end marker when both have one address, and that row
 * would otherwise run on to the next sequence, over functions that
 * have no lines.
 */
static const char *
partition(struct srclines *sl, const struct symtab *st,
    const struct srcraw *raw, size_t n, char *ebuf, size_t esz)
{
	const struct symentry *e;
	const struct srcraw *in;
	uint64_t at, hi;
	size_t j = 0, cap = 0;
	long k;

	for (k = 0; k < (long)st->nent; k++) {
		e = &st->ent[k];
		for (at = e->addr; at < e->end; at = hi) {
			while (j < n && raw[j].hi <= at)
				j++;
			in = NULL;
			if (j == n || raw[j].lo >= e->end)
				hi = e->end;
			else if (raw[j].lo > at)
				hi = raw[j].lo;
			else {
				hi = raw[j].hi < e->end ? raw[j].hi : e->end;
				if (raw[j].lo >= e->addr)
					in = &raw[j];
			}
			if (add(sl, &cap, at, hi, k, in ? in->file : NULL,
			    in ? in->line : 0) != 0)
				return prof_errf(ebuf, esz, "out of memory");
		}
	}
	return NULL;
}

/*
 * Sort RAW and make its ranges disjoint: where two overlap, the one
 * that begins later wins (a sequence of code the linker discarded is
 * left at address 0, under real code).  Returns how many are left.
 */
static size_t
disjoint(struct srcraw *raw, size_t n)
{
	size_t i, m;

	if (n == 0)
		return 0;
	qsort(raw, n, sizeof(*raw), rawcmp);
	for (i = m = 0; i < n; i++) {
		if (i + 1 < n && raw[i].hi > raw[i + 1].lo)
			raw[i].hi = raw[i + 1].lo;
		if (raw[i].hi > raw[i].lo)
			raw[m++] = raw[i];
	}
	return m;
}

/*
 * Whether ELF's DWARF string sections each end in NUL: libdw 0.188 reads
 * a name at the end of one that does not past its end.  A compressed
 * section is checked decompressed (libdw would decompress it anyway).
 */
static int
strings_ok(Elf *elf)
{
	static const char *const names[] = { ".debug_str",
	    ".debug_line_str" };
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf_Data *d;
	const char *name;
	size_t i, shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) != 0)
		return 1;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (name = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (strcmp(name, names[i]) != 0)
				continue;
			if ((sh.sh_flags & SHF_COMPRESSED) &&
			    elf_compress(scn, 0, 0) < 0)
				return 0;
			if ((d = elf_getdata(scn, NULL)) != NULL &&
			    d->d_size > 0 && (d->d_buf == NULL ||
			    ((const char *)d->d_buf)[d->d_size - 1] != '\0'))
				return 0;
		}
	}
	return 1;
}

/*
 * The line table of ST's functions into SL: NULL, or the problem.  An
 * object without DWARF has no lines; sl->has says whether any did.
 */
const char *
srclines_load(struct srclines *sl, const struct symtab *st, char *ebuf,
    size_t esz)
{
	struct srcraw *raw = NULL;
	size_t i, n = 0, cap = 0;
	const char *e;
	Dwarf *dw;
	Elf *elf;

	memset(sl, 0, sizeof(*sl));
	if ((sl->dw = calloc(st->nobj + 1, sizeof(*sl->dw))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	sl->ndw = st->nobj + 1;
	for (i = 0; i <= st->nobj; i++) {
		elf = i == 0 ? st->elf : st->obj[i - 1].elf;
		if (!strings_ok(elf)) {
			warnx("%s: bad DWARF: a string section without its "
			    "closing NUL: no lines; rebuild it with -g",
			    i == 0 ? st->path :
			    st->obj[i - 1].path);
			continue;
		}
		if ((dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL)) == NULL)
			continue;
		sl->dw[i] = dw;
		if (tables(dw, i == 0 ? 0 : st->obj[i - 1].base, &raw, &n,
		    &cap) != 0) {
			free(raw);
			return prof_errf(ebuf, esz, "out of memory");
		}
	}
	sl->has = n > 0;
	e = srclines_build(sl, st, raw, n, ebuf, esz);
	free(raw);
	return e;
}

/*
 * SL's ranges from the N line-table ranges RAW (reordered): the
 * partition of ST's entries.  NULL, or the problem.
 */
const char *
srclines_build(struct srclines *sl, const struct symtab *st,
    struct srcraw *raw, size_t n, char *ebuf, size_t esz)
{
	return partition(sl, st, raw, disjoint(raw, n), ebuf, esz);
}

void
srclines_close(struct srclines *sl)
{
	size_t i;

	for (i = 0; i < sl->ndw; i++)
		if (sl->dw[i] != NULL)
			dwarf_end(sl->dw[i]);
	free(sl->dw);
	free(sl->r);
	memset(sl, 0, sizeof(*sl));
}

/* The range holding ADDR, or -1. */
long
srclines_at(const struct srclines *sl, uint64_t addr)
{
	size_t lo = 0, hi = sl->n, mid;

	while (lo < hi) {		/* first range with hi > addr */
		mid = lo + (hi - lo) / 2;
		if (sl->r[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < sl->n && sl->r[lo].lo <= addr ? (long)lo : -1;
}
