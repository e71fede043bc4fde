/* SPDX-License-Identifier: MIT */
/*
 * common.h - what every layer of prof uses (DESIGN.md, "prof"): an error
 * message into a buffer, a growing array, the printable form of a name
 * (names.c) and the progress line (progress.c).  The layers above, each
 * with its header including the one below: input.h (what reads files),
 * model.h (what is built from them, once), views.h (what prints it).
 */
#ifndef PROF_COMMON_H
#define PROF_COMMON_H

#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"

/* The Makefile's VERSION, monprof's one version number. */
#define PROF_VERSION	MONPROF_VERSION

/* Format a problem into ebuf and return it: the modules' error result. */
static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ebuf, esz, fmt, ap);
	va_end(ap);
	return ebuf;
}

/*
 * Room for NEED elements of SIZE bytes at *PP, an array of *CAP that
 * doubles: 0, or -1 out of memory.
 */
static inline int
prof_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((p = reallocarray(*(void **)pp, n, size)) == NULL)
		return -1;
	*(void **)pp = p;
	*cap = n;
	return 0;
}

/* ---------------------------------------------------------------- names */

char		*names_demangle(const char *);
void		 names_put(FILE *, const char *);
char		*names_text(const char *);

/* ---------------------------------------------------------------- progress */

void		 progress_begin(size_t);
void		 progress_step(void);
void		 progress_end(void);

#endif /* PROF_COMMON_H */
