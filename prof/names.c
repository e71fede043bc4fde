/* SPDX-License-Identifier: MIT */
/*
 * names.c - what a report row is called, in every output: its printed
 * names ("a, b" for aliases), demangled under -C, or <unknown>.
 */
#include <err.h>
#include <stdlib.h>

#include <demangle.h>

#include "prof.h"

/* NAME demangled (with its parameters), or NULL if it is no C++ name. */
char *
names_demangle(const char *name)
{
	/* The demangler takes "<external>" for a template's arguments. */
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
}

/* The first name entry K prints (its raw symbol name). */
const char *
names_first(const struct symtab *st, long k)
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
names_row(const struct symtab *st, long k, int demangle)
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
