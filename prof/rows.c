/* SPDX-License-Identifier: MIT */
/*
 * rows.c - the report's rows: which functions have a line (shown, with
 * time or calls, or every one under -z; <unknown> and the objects' rows
 * only when they have any; under -O only one object's; under -i those
 * with inclusive time too), their order (-t, -c, -a, -n, -i), and
 * what each is called: its printed names ("a, b" for aliases),
 * demangled unless --no-demangle, or <unknown>.  Every output that lists functions
 * takes its rows and names from here, so they all agree.
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
 * ", ", each demangled if DEMANGLE and it is a C++ name; malloc'd.
 */
char *
rows_name(const struct symtab *st, long k, int demangle)
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
	return s;
}

/*
 * Each entry's label, into ST: its first printed name, demangled if
 * DEMANGLE, so that -n sorts the rows by the names they show and the
 * files that give a function one name (pprof, callgrind, a flame graph)
 * call it as the report does.
 */
void
rows_labels(struct symtab *st, int demangle)
{
	const char *raw;
	size_t k;

	if ((st->label = calloc(st->nent + 1, sizeof(*st->label))) == NULL)
		err(1, NULL);
	for (k = 0; k <= st->nent; k++) {
		raw = rows_symbol(st, (long)k);
		if ((st->label[k] = demangle ? names_demangle(raw) : NULL) ==
		    NULL && (st->label[k] = strdup(raw)) == NULL)
			err(1, NULL);
	}
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
