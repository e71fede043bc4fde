/* SPDX-License-Identifier: MIT */
/*
 * match.c - whether an object answers to a name a user gave: PROFFLAGS
 * -incobj and -excobj, and prof's -O.  prof links this file too, so
 * both read a name the same way.
 */
#include <string.h>

#include "base.h"

/* Its path, its file name, or its file name up to a '.' ("libz.so"). */
int
__mon_match_object(const char *name, const char *path)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(name);

	base = base != NULL ? base + 1 : path;
	if (strcmp(name, path) == 0 || strcmp(name, base) == 0)
		return 1;
	return n > 0 && strncmp(name, base, n) == 0 && base[n] == '.';
}
