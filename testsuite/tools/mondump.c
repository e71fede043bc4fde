/* SPDX-License-Identifier: MIT */
/*
 * mondump.c - print a mon.out in a form the tests can grep: a test tool,
 * independent of prof, that reads the file with nothing but <mon.h>.
 *
 *	hdr LPC HPC NFNS NBINS		(decimal)
 *	meta KEY VALUE			cells with fnpc < MON_META_LIMIT
 *	cell FNPC COUNT			the other cells, in file order
 *	bin INDEX VALUE			nonzero histogram bins
 */
#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"

int
main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : MON_OUT;
	struct hdr h;
	struct cnt c;
	struct stat st;
	size_t i, nbins;
	WORD w;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "mondump: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (fread(&h, sizeof(h), 1, f) != 1 ||
	    h.nfns > (size_t)st.st_size / sizeof(c)) {
		fprintf(stderr, "mondump: %s: bad header\n", path);
		return 1;
	}
	nbins = ((size_t)st.st_size - sizeof(h) - h.nfns * sizeof(c)) /
	    sizeof(WORD);
	printf("hdr %lu %lu %zu %zu\n", (unsigned long)h.lpc,
	    (unsigned long)h.hpc, h.nfns, nbins);
	for (i = 0; i < h.nfns; i++) {
		if (fread(&c, sizeof(c), 1, f) != 1) {
			fprintf(stderr, "mondump: %s: truncated cells\n", path);
			return 1;
		}
		if ((unsigned long)c.fnpc < MON_META_LIMIT)
			printf("meta %lu %ld\n", (unsigned long)c.fnpc, c.mcnt);
		else
			printf("cell %lu %ld\n", (unsigned long)c.fnpc, c.mcnt);
	}
	for (i = 0; i < nbins; i++) {
		if (fread(&w, sizeof(w), 1, f) != 1) {
			fprintf(stderr, "mondump: %s: truncated histogram\n",
			    path);
			return 1;
		}
		if (w != 0)
			printf("bin %zu %u\n", i, w);
	}
	fclose(f);
	return 0;
}
