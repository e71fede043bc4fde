/* SPDX-License-Identifier: MIT */
/*
 * mondump.c - print a mon.out in a form the tests can grep: a test tool,
 * independent of prof, that reads the file with nothing but <mon.h>.
 * A compact mon.out is first expanded to the classic file it stands for.
 *
 *	hdr LPC HPC NFNS NBINS		(decimal)
 *	meta KEY VALUE			cells with fnpc < MON_META_LIMIT
 *	cell FNPC COUNT			the other cells, in file order
 *	bin INDEX VALUE			nonzero histogram bins
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"

static const char *path;

static void
die(const char *why)
{
	fprintf(stderr, "mondump: %s: %s\n", path, why);
	exit(1);
}

/* The file at path, whole, into *len bytes. */
static unsigned char *
slurp(size_t *len)
{
	unsigned char *b = NULL, *nb;
	size_t cap = 0, n;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		die(strerror(errno));
	*len = 0;
	do {
		if (*len == cap) {
			cap = cap ? 2 * cap : 65536;
			if ((nb = realloc(b, cap)) == NULL)
				die("out of memory");
			b = nb;
		}
		n = fread(b + *len, 1, cap - *len, f);
		*len += n;
	} while (n > 0);
	if (ferror(f))
		die(strerror(errno));
	fclose(f);
	return b;
}

/* The compact file B (LEN bytes) as the classic file, into *LEN. */
static unsigned char *
expand(unsigned char *b, size_t *len)
{
	uint64_t size, off, n;
	unsigned char *c;
	size_t at;

	if (*len < MON_COMPACT_HDR)
		die("truncated compact header");
	memcpy(&size, b + 8, sizeof(size));
	if (size > ((size_t)1 << 34) || (c = calloc(1, size + 1)) == NULL)
		die("compact: bad size");
	for (at = MON_COMPACT_HDR; at < *len; at += MON_COMPACT_RUN + n) {
		if (*len - at < MON_COMPACT_RUN)
			die("compact: truncated run");
		memcpy(&off, b + at, sizeof(off));
		memcpy(&n, b + at + 8, sizeof(n));
		if (off > size || n > size - off ||
		    n > *len - at - MON_COMPACT_RUN)
			die("compact: bad run");
		memcpy(c + off, b + at + MON_COMPACT_RUN, n);
	}
	free(b);
	*len = size;
	return c;
}

int
main(int argc, char **argv)
{
	unsigned char *b;
	uint64_t magic = 0;
	struct hdr h;
	struct cnt c;
	size_t len, i, nbins, at;
	WORD w;

	path = argc > 1 ? argv[1] : MON_OUT;
	b = slurp(&len);
	if (len >= sizeof(magic))
		memcpy(&magic, b, sizeof(magic));
	if (magic == MON_COMPACT_MAGIC)
		b = expand(b, &len);
	if (len < sizeof(h))
		die("bad header");
	memcpy(&h, b, sizeof(h));
	if (h.nfns > (len - sizeof(h)) / sizeof(c))
		die("bad header");
	nbins = (len - sizeof(h) - h.nfns * sizeof(c)) / sizeof(WORD);
	printf("hdr %lu %lu %zu %zu\n", (unsigned long)h.lpc,
	    (unsigned long)h.hpc, h.nfns, nbins);
	at = sizeof(h);
	for (i = 0; i < h.nfns; i++, at += sizeof(c)) {
		memcpy(&c, b + at, sizeof(c));
		if ((unsigned long)c.fnpc < MON_META_LIMIT)
			printf("meta %lu %ld\n", (unsigned long)c.fnpc, c.mcnt);
		else
			printf("cell %lu %ld\n", (unsigned long)c.fnpc, c.mcnt);
	}
	for (i = 0; i < nbins; i++, at += sizeof(w)) {
		memcpy(&w, b + at, sizeof(w));
		if (w != 0)
			printf("bin %zu %u\n", i, w);
	}
	free(b);
	return 0;
}
