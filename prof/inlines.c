/* SPDX-License-Identifier: MIT */
/*
 * inlines.c - the functions inlined at an address, from the DWARF
 * scopes (libdw): the chain of inlined calls, innermost first, each
 * with its function's name and the address's file and line in it.
 *
 * The functions with code (subprogram DIEs and their ranges) of every
 * object are indexed by address once; a lookup searches only the scopes
 * of the function that holds the address, entering a scope only where
 * its ranges hold it.  Where DWARF does not say (no DWARF, no scope,
 * a call without its file), there is no chain: the symbol's function
 * alone.  libdw's dwarf_getscopes is not used: it looks for each inlined
 * function's definition in the unit of its call, so finds nothing with
 * -flto (the definitions are in the compile-time unit), and leaks its
 * result when it finds nothing.
 */
#include <limits.h>
#include <stdlib.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "model.h"

#define SCOPE_DEPTH	256	/* DIEs nested deeper: not searched */

/* A function's code: [lo, hi) of the table, its object at base. */
struct inlfunc {
	uint64_t	 lo, hi, base;
	Dwarf_Die	 die;
};

static int
funccmp(const void *a, const void *b)
{
	const struct inlfunc *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

/* DIE's next sibling, into DIE: 1, or 0 at the last. */
static int
next(Dwarf_Die *die)
{
	Dwarf_Die sib;

	/* Only forward: a hostile DW_AT_sibling may point back. */
	if (dwarf_siblingof(die, &sib) != 0 ||
	    dwarf_dieoffset(&sib) <= dwarf_dieoffset(die))
		return 0;
	*die = sib;
	return 1;
}

/* Whether DIE of tag TAG may hold functions: a namespace, a class. */
static int
container(int tag)
{
	return tag == DW_TAG_namespace || tag == DW_TAG_module ||
	    tag == DW_TAG_class_type || tag == DW_TAG_structure_type ||
	    tag == DW_TAG_union_type;
}

/*
 * Index the functions with code among DIE's children (and in its
 * namespaces and classes), their object at BASE: 0, or -1 out of
 * memory.
 */
static int
collect(struct inlines *in, size_t *cap, Dwarf_Die *die, uint64_t base,
    int depth)
{
	Dwarf_Addr b, lo, hi;
	Dwarf_Die kid;
	ptrdiff_t off;
	int tag;

	if (depth >= SCOPE_DEPTH || dwarf_child(die, &kid) != 0)
		return 0;
	do {
		if ((tag = dwarf_tag(&kid)) == DW_TAG_subprogram) {
			for (off = 0; (off = dwarf_ranges(&kid, off, &b, &lo,
			    &hi)) > 0;) {
				/* Addresses past the object's room: no code. */
				if (lo >= hi || hi > SYMTAB_OBJECT_BASE)
					continue;
				if (prof_grow(&in->fn, cap, in->n + 1,
				    sizeof(*in->fn)) != 0)
					return -1;
				in->fn[in->n++] = (struct inlfunc){ base + lo,
				    base + hi, base, kid };
			}
		} else if (container(tag) &&
		    collect(in, cap, &kid, base, depth + 1) != 0)
			return -1;
	} while (next(&kid));
	return 0;
}

/*
 * The functions with code in SL's DWARF, ST's objects at their bases:
 * 0, or -1 out of memory.
 */
int
inlines_open(struct inlines *in, const struct srclines *sl,
    const struct symtab *st)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	uint64_t base;
	size_t k, cap = 0;

	memset(in, 0, sizeof(*in));
	in->sl = sl;
	for (k = 0; k < sl->ndw; k++) {
		if (sl->dw[k] == NULL)
			continue;
		base = k == 0 ? 0 : st->obj[k - 1].base;
		for (cu = NULL; dwarf_get_units(sl->dw[k], cu, &cu, NULL, NULL,
		    &cudie, NULL) == 0;)
			if (collect(in, &cap, &cudie, base, 0) != 0) {
				inlines_close(in);
				return -1;
			}
	}
	if (in->n > 0)
		qsort(in->fn, in->n, sizeof(*in->fn), funccmp);
	return 0;
}

void
inlines_close(struct inlines *in)
{
	free(in->fn);
	memset(in, 0, sizeof(*in));
}

/* The function whose code holds the table address PC, or NULL. */
static const struct inlfunc *
holding(const struct inlines *in, uint64_t pc)
{
	size_t lo = 0, hi = in->n, mid;

	while (lo < hi) {		/* first with lo > pc */
		mid = lo + (hi - lo) / 2;
		if (in->fn[mid].lo <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < in->fn[lo - 1].hi ? &in->fn[lo - 1] : NULL;
}

/*
 * The inlined calls in DIE's children that hold A, outermost first,
 * appended to IN (*N of them, room for SCOPE_DEPTH): 1 once a scope
 * with code at A is found, 0 if there is none, -1 if the scopes nest
 * deeper than SCOPE_DEPTH.  Blocks without ranges are searched too.
 */
static int
scopes(Dwarf_Die *die, Dwarf_Addr a, Dwarf_Die *in, int *n, int depth)
{
	Dwarf_Die kid;
	int r, tag;

	if (depth >= SCOPE_DEPTH)
		return -1;
	if (dwarf_child(die, &kid) != 0)
		return 0;
	do {
		tag = dwarf_tag(&kid);
		if (tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_lexical_block && tag != DW_TAG_try_block &&
		    tag != DW_TAG_catch_block)
			continue;
		if (dwarf_haspc(&kid, a) <= 0) {
			if (tag == DW_TAG_lexical_block &&
			    !dwarf_hasattr(&kid, DW_AT_low_pc) &&
			    !dwarf_hasattr(&kid, DW_AT_ranges) &&
			    (r = scopes(&kid, a, in, n, depth + 1)) != 0)
				return r;
			continue;
		}
		if (tag == DW_TAG_inlined_subroutine)
			in[(*n)++] = kid;
		return scopes(&kid, a, in, n, depth + 1) < 0 ? -1 : 1;
	} while (next(&kid));
	return 0;
}

/*
 * Frame F's function, the inlined call DIE: its definition's name and
 * linkage name, and the line it begins at where that is in F's file.
 */
static void
function(Dwarf_Die *die, struct inlframe *f)
{
	Dwarf_Attribute a;
	const char *decl;
	int line;

	if ((f->name = dwarf_diename(die)) == NULL)
		f->name = "??";
	if ((f->linkage = dwarf_formstring(dwarf_attr_integrate(die,
	    DW_AT_linkage_name, &a))) == NULL)
		f->linkage = dwarf_formstring(dwarf_attr_integrate(die,
		    DW_AT_MIPS_linkage_name, &a));
	f->decl = 0;
	if ((decl = dwarf_decl_file(die)) != NULL &&
	    strcmp(decl, f->file) == 0 && dwarf_decl_line(die, &line) == 0 &&
	    line > 0)
		f->decl = line;
}

/*
 * Where the inlined call DIE is, into F: its file and line.  0, or -1
 * where DWARF does not say.
 */
static int
callsite(Dwarf_Die *die, struct inlframe *f)
{
	Dwarf_Attribute a;
	Dwarf_Files *files;
	Dwarf_Word file, line;
	Dwarf_Die cu;

	if (dwarf_diecu(die, &cu, NULL, NULL) == NULL ||
	    dwarf_getsrcfiles(&cu, &files, NULL) != 0 ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &a), &file) != 0 ||
	    dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &a), &line) != 0 ||
	    line > INT_MAX ||
	    (f->file = dwarf_filesrc(files, file, NULL, NULL)) == NULL)
		return -1;
	f->line = (int)line;
	return 0;
}

/*
 * The functions inlined at the table address PC, innermost first, into
 * *FR (free() it), each with PC's file and line in it: the line table's
 * for the innermost, the call's (DW_AT_call_file, DW_AT_call_line) for
 * each outer one; the last is the function they were all inlined into
 * (name NULL: the symbol's), at the outermost call.  Returns how many,
 * 0 where PC is in no inlined code or DWARF does not say (*FR NULL), or
 * -1 out of memory.
 */
long
inlines_at(const struct inlines *in, uint64_t pc, struct inlframe **fr)
{
	const struct inlfunc *fn;
	struct inlframe *f;
	Dwarf_Die die, call[SCOPE_DEPTH];
	long at;
	int i, n = 0;

	*fr = NULL;
	if ((at = srclines_at(in->sl, pc)) < 0 || in->sl->r[at].file == NULL ||
	    (fn = holding(in, pc)) == NULL)
		return 0;
	die = fn->die;
	if (scopes(&die, pc - fn->base, call, &n, 0) <= 0 || n == 0)
		return 0;
	if ((f = calloc((size_t)n + 1, sizeof(*f))) == NULL)
		return -1;
	f[0].file = in->sl->r[at].file;
	f[0].line = in->sl->r[at].line;
	for (i = 0; i < n; i++) {
		function(&call[n - 1 - i], &f[i]);
		if (callsite(&call[n - 1 - i], &f[i + 1]) != 0) {
			free(f);
			return 0;
		}
	}
	*fr = f;
	return n + 1;
}
