/* SPDX-License-Identifier: MIT */
/*
 * rows.c - the report's rows: which functions have a line (shown, with
 * time or calls, or every one under -z; <unknown> and the objects' rows
 * only when they have any; under -O only one object's; under -i those
 * with inclusive time too), their order (-t, -c, -a, -n, -i), and
 * what each is called: its printed names ("a, b" for aliases),
 * demangled unless --no-demangle, or <unknown>, and where names clash,
 * the source file or object that tells them apart.  Every output that
 * lists functions takes its rows and names from here, so they all
 * agree.
 */
#include <err.h>
#include <stdlib.h>

#include "model.h"

/* -n, and every other order's ties: by name, then address. */
static int
namecmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* -a: entries are in address order, <unknown> last. */
static int
addrcmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

/* -t: most time first, then most calls. */
static int
timecmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return namecmp(a, b);
}

/* -c: most calls first, then most time. */
static int
callcmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	return namecmp(a, b);
}

/* -i without a sort option: most inclusive time first, then -t's. */
static int
inclcmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->incl != y->incl)
		return x->incl > y->incl ? -1 : 1;
	return timecmp(a, b);
}

/* The comparison of the sort option SORT ('t', 'c', 'a', 'n' or 'i'). */
int
(*rows_cmp(int sort))(const void *, const void *)
{
	return sort == 't' ? timecmp : sort == 'c' ? callcmp :
	    sort == 'a' ? addrcmp : sort == 'i' ? inclcmp : namecmp;
}

/* The first name entry K prints (its raw symbol name). */
const char *
rows_symbol(const struct symtab *st, long k)
{
	const struct symentry *e;
	size_t i;

	if (k < 0 || k == REPORT_UNKNOWN(st))
		return REPORT_UNKNOWN_NAME;
	e = &st->ent[k];
	for (i = 0; i < e->nnames; i++)
		if (st->names[e->name0 + i].print)
			return st->names[e->name0 + i].name;
	return st->names[e->name0].name;
}

/*
 * Row K's name as the report prints it: its printed names joined by
 * ", ", each demangled if DEMANGLE and it is a C++ name, then, if
 * SUFFIX, what tells it from another function of its name
 * (rows_clashes()); malloc'd.
 */
char *
rows_name(const struct symtab *st, long k, int demangle, int suffix)
{
	const struct symentry *e;
	const struct symname *nm;
	char *s = NULL, *dm;
	size_t i, len = 0, cap = 0, n;
	const char *p;

	if (k < 0 || k == REPORT_UNKNOWN(st)) {
		if ((s = strdup(REPORT_UNKNOWN_NAME)) == NULL)
			err(1, NULL);
		return s;
	}
	e = &st->ent[k];
	for (i = 0; i < e->nnames; i++) {
		nm = &st->names[e->name0 + i];
		/* A hidden entry (a caller under -l): its first name. */
		if (!nm->print && (e->shown || i > 0))
			continue;
		dm = demangle ? names_demangle(nm->name) : NULL;
		p = dm != NULL ? dm : nm->name;
		n = strlen(p);
		if (prof_grow(&s, &cap, len + n + 3, 1) != 0)
			err(1, NULL);
		if (len > 0) {
			memcpy(s + len, ", ", 2);
			len += 2;
		}
		memcpy(s + len, p, n + 1);
		len += n;
		free(dm);
	}
	if (suffix && st->suffix != NULL && st->suffix[k] != NULL) {
		n = strlen(st->suffix[k]);
		if (prof_grow(&s, &cap, len + n + 1, 1) != 0)
			err(1, NULL);
		memcpy(s + len, st->suffix[k], n + 1);
	}
	return s;
}

/*
 * The source file of entry K's first static name that has one (its
 * STT_FILE symbol's), or "": a global's symbol names no file.
 */
const char *
rows_file(const struct symtab *st, long k)
{
	const struct symentry *e;
	size_t i;

	if (k < 0 || k >= (long)st->nent)
		return "";
	e = &st->ent[k];
	for (i = 0; i < e->nnames; i++)
		if (st->names[e->name0 + i].file != NULL &&
		    *st->names[e->name0 + i].file != '\0')
			return st->names[e->name0 + i].file;
	return "";
}

/* For rows_clashes()'s sort: the table whose labels it compares. */
static const struct symtab *clash_st;

/* Entries by label, then by entry. */
static int
labelcmp(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	int c;

	if ((c = strcmp(clash_st->label[x], clash_st->label[y])) != 0)
		return c;
	return x < y ? -1 : x > y;
}

/* The file name of the object holding entry K, as its row names it. */
static const char *
objname(const struct symtab *st, long k)
{
	const char *p = symtab_entry_object(st, k), *b;

	if (p == NULL)
		return "";
	return (b = strrchr(p, '/')) != NULL ? b + 1 : p;
}

/*
 * The suffixes of the N entries V, which share one label: the object
 * (" <libm.so.6>") where they are not all of one object, the source file
 * (" (util.c)") of those whose object holds another of them, and the
 * address (" @0x1139") of those still alike, as two util.c of one
 * program would be.
 */
static void
clash(struct symtab *st, const long *v, size_t n)
{
	const char *oi, *fi;
	int objs = 0, file, addr;
	size_t i, j;
	char *s, at[32];

	for (i = 1; i < n; i++)
		if (symtab_entry_object(st, v[i]) !=
		    symtab_entry_object(st, v[0]))
			objs = 1;
	for (i = 0; i < n; i++) {
		oi = symtab_entry_object(st, v[i]);
		fi = rows_file(st, v[i]);
		for (j = file = addr = 0; j < n; j++) {
			if (j == i || symtab_entry_object(st, v[j]) != oi)
				continue;
			file = *fi != '\0';
			if (strcmp(rows_file(st, v[j]), fi) == 0)
				addr = 1;
		}
		at[0] = '\0';
		if (addr)
			snprintf(at, sizeof(at), " @%#llx", (unsigned long long)
			    (st->ent[v[i]].addr % SYMTAB_OBJECT_BASE));
		if (asprintf(&s, "%s%s%s%s%s%s%s", file ? " (" : "",
		    file ? fi : "", file ? ")" : "", objs ? " <" : "",
		    objs ? objname(st, v[i]) : "", objs ? ">" : "", at) == -1)
			err(1, NULL);
		st->suffix[v[i]] = s;
	}
}

/*
 * Each entry's label, into ST: its first printed name, demangled if
 * DEMANGLE, so that -n sorts the rows by the names they show and the
 * files that give a function one name (pprof, callgrind, a flame graph)
 * call it as the report does.  rows_clashes() adds what tells apart
 * the functions that share one, once the report says which have a line.
 */
void
rows_labels(struct symtab *st, int demangle)
{
	const char *raw;
	size_t k;

	if ((st->label = calloc(st->nent + 1, sizeof(*st->label))) == NULL ||
	    (st->suffix = calloc(st->nent + 1, sizeof(*st->suffix))) == NULL)
		err(1, NULL);
	for (k = 0; k <= st->nent; k++) {
		raw = rows_symbol(st, (long)k);
		if ((st->label[k] = demangle ? names_demangle(raw) : NULL) ==
		    NULL && (st->label[k] = strdup(raw)) == NULL)
			err(1, NULL);
	}
}

/*
 * Where functions of R with a line (time, calls or inclusive time; every
 * one under ZERO, -z) share a label, as statics of one name in two
 * source files or two objects do, each gets a suffix (clash()) in its
 * label and in the name every view prints.  Only then: a report whose
 * names are distinct reads as it always has.  -O and -f do not count,
 * so that a function keeps its name when they show it alone.
 */
void
rows_clashes(struct symtab *st, const struct report *r, int zero)
{
	size_t k, i, j, n;
	long *v;
	char *s;

	if ((v = calloc(st->nent + 1, sizeof(*v))) == NULL)
		err(1, NULL);
	for (k = n = 0; k < st->nent; k++)
		if (st->ent[k].shown && !st->ent[k].runtime &&
		    st->ent[k].addr < SYMTAB_ROW_BASE && (zero ||
		    r->secs[k] != 0.0 || r->ncalls[k] != 0 ||
		    (r->stacks.has && r->stacks.incl[k] != 0.0)))
			v[n++] = (long)k;
	clash_st = st;
	qsort(v, n, sizeof(*v), labelcmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n &&
		    strcmp(st->label[v[i]], st->label[v[j]]) == 0; j++)
			;
		if (j - i > 1)
			clash(st, v + i, j - i);
	}
	for (i = 0; i < n; i++) {
		if (st->suffix[v[i]] == NULL)
			continue;
		if (asprintf(&s, "%s%s", st->label[v[i]], st->suffix[v[i]]) ==
		    -1)
			err(1, NULL);
		free(st->label[v[i]]);
		st->label[v[i]] = s;
	}
	free(v);
}

/* Row K's label (rows_labels(), else its symbol); malloc'd. */
char *
rows_label(const struct symtab *st, long k)
{
	char *s;

	if (k < 0 || k > (long)st->nent)
		k = REPORT_UNKNOWN(st);
	s = strdup(st->label != NULL ? st->label[k] : rows_symbol(st, k));
	if (s == NULL)
		err(1, NULL);
	return s;
}

/*
 * Whether row K is one -f's FILTER (NULL: none) asks for: its label or
 * its symbol matches, so that either name finds it.
 */
int
rows_wanted(const struct symtab *st, long k, const regex_t *filter)
{
	if (filter == NULL)
		return 1;
	if (k < 0 || k > (long)st->nent)
		k = REPORT_UNKNOWN(st);
	return (st->label != NULL &&
	    regexec(filter, st->label[k], 0, NULL, 0) == 0) ||
	    regexec(filter, rows_symbol(st, k), 0, NULL, 0) == 0;
}

/* The report's rows in O's order; *N of them; free() the array. */
struct row *
rows_get(const struct report *r, const struct prof_opts *o, size_t *np)
{
	const struct symtab *st = r->st;
	struct row *rows;
	size_t i, n;

	if ((rows = calloc(st->nent + 1, sizeof(*rows))) == NULL)
		err(1, "report");
	for (i = n = 0; i <= st->nent; i++) {
		/* The runtime's functions: -s counts their samples. */
		if (i < st->nent && (!st->ent[i].shown || st->ent[i].runtime))
			continue;
		/* <unknown> and the objects' rows only when they have any. */
		if ((!o->zero || i == st->nent ||
		    st->ent[i].addr >= SYMTAB_ROW_BASE) &&
		    r->secs[i] == 0.0 && r->ncalls[i] == 0 &&
		    (!o->inclusive || r->stacks.incl[i] == 0.0))
			continue;
		if (o->object != NULL && (i == st->nent ||
		    !__mon_match_object(o->object,
		    symtab_entry_object(st, (long)i))))
			continue;
		if (!rows_wanted(st, (long)i, o->filter))
			continue;
		rows[n].k = i;
		rows[n].secs = r->secs[i];
		rows[n].incl = r->stacks.has ? r->stacks.incl[i] : 0.0;
		rows[n].calls = r->ncalls[i];
		rows[n++].name = st->label != NULL ? st->label[i] :
		    rows_symbol(st, i);
	}
	qsort(rows, n, sizeof(*rows), rows_cmp(o->sort));
	*np = n;
	return rows;
}
