/* SPDX-License-Identifier: MIT */
/*
 * srcfile.c - a source file read whole (file.c) and indexed by line, for
 * -A's listings: a line's text without its newline (or a CRLF file's
 * carriage return), and when the file was last written.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdlib.h>
#include <string.h>

#include "input.h"

#define SRC_MAX		((size_t)64 << 20)	/* a source file, bytes */

/* PATH into SF: 0, or -1 and *WHY says why it cannot be read. */
int
srcfile_read(struct srcfile *sf, const char *path, const char **why)
{
	struct stat sb;
	size_t i, cap = 0;
	char *p, *nl;

	memset(sf, 0, sizeof(*sf));
	if (file_read(path, SRC_MAX, &sf->text, &sf->len, why) != 0)
		return -1;
	sf->mtime = stat(path, &sb) == 0 ? sb.st_mtime : 0;
	for (p = sf->text; p < sf->text + sf->len; p = nl + 1) {
		if ((nl = memchr(p, '\n', sf->text + sf->len - p)) == NULL)
			nl = sf->text + sf->len;
		if (prof_grow(&sf->line, &cap, sf->n + 1, sizeof(*sf->line)) ||
		    (sf->llen = reallocarray(sf->llen, cap,
		    sizeof(*sf->llen))) == NULL)
			err(1, NULL);
		sf->line[sf->n] = p;
		sf->llen[sf->n++] = nl - p;
	}
	for (i = 0; i < sf->n; i++)	/* a CRLF file */
		if (sf->llen[i] > 0 && sf->line[i][sf->llen[i] - 1] == '\r')
			sf->llen[i]--;
	return 0;
}

void
srcfile_free(struct srcfile *sf)
{
	free(sf->text);
	free(sf->line);
	free(sf->llen);
	memset(sf, 0, sizeof(*sf));
}
