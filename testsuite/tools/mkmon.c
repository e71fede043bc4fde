/* SPDX-License-Identifier: MIT */
/*
 * mkmon.c - write a mon.out from a description on stdin, so prof's tests
 * control every count and tick (a test tool, independent of the runtime).
 *
 *	range LPC HPC		header range (numbers: C syntax, 0x... ok)
 *	bins N			N histogram bins, zero
 *	bin INDEX VALUE		set one bin
 *	meta KEY VALUE		metadata cell; KEY a number or a name
 *				(magic version rate sampler saturated
 *				outside bias buildid pid samples lost threads)
 *	buildid HEX		MON_META_BUILDID from the first 8 bytes of
 *				HEX, as readelf -n prints the build-id
 *	cell PC COUNT		a function cell
 *	nfns N			lie about the number of cells in the header
 *	extra N			append N zero bytes
 *	truncate N		cut the file to N bytes
 *
 * Usage: mkmon OUT < description
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"

static const char *keys[] = { "", "magic", "version", "rate", "sampler",
    "saturated", "outside", "bias", "buildid", "pid", "samples", "lost",
    "threads" };

static unsigned long long
num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	if (*s == '-')
		v = (unsigned long long)strtoll(s, &end, 0);
	if (*end != '\0') {
		fprintf(stderr, "mkmon: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

int
main(int argc, char **argv)
{
	struct cnt *cells = NULL, *more;
	size_t cap = 0;
	WORD *bins = NULL;
	struct hdr h = { 0, 0, 0 };
	size_t ncells = 0, nbins = 0, i, extra = 0;
	long long trunc = -1, nfns = -1;
	char line[512], a[256], b[256], c[256];
	unsigned char id[8];
	unsigned key, x;
	long v;
	int n;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mkmon OUT < description\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin) != NULL) {
		n = sscanf(line, "%255s %255s %255s", a, b, c);
		if (n <= 0 || a[0] == '#')
			continue;
		if (ncells == cap) {
			cap = cap ? 2 * cap : 4096;
			if ((more = realloc(cells, cap * sizeof(*cells))) == NULL)
				return 2;
			cells = more;
		}
		if (strcmp(a, "range") == 0 && n == 3) {
			h.lpc = (char *)(uintptr_t)num(b);
			h.hpc = (char *)(uintptr_t)num(c);
		} else if (strcmp(a, "bins") == 0 && n == 2) {
			nbins = num(b);
			if ((bins = calloc(nbins + 1, sizeof(WORD))) == NULL)
				return 2;
		} else if (strcmp(a, "bin") == 0 && n == 3 && num(b) < nbins) {
			bins[num(b)] = num(c);
		} else if ((strcmp(a, "meta") == 0 || strcmp(a, "cell") == 0)
		    && n == 3) {
			key = 0;
			for (i = 1; i < sizeof(keys) / sizeof(keys[0]); i++)
				if (strcmp(b, keys[i]) == 0)
					key = i;
			if (key == MON_META_MAGIC && strcmp(c, "ok") == 0)
				v = MON_META_MAGIC_VALUE;
			else
				v = num(c);
			cells[ncells].fnpc = (char *)(uintptr_t)(key ? key :
			    num(b));
			cells[ncells++].mcnt = v;
		} else if (strcmp(a, "buildid") == 0 && n == 2) {
			memset(id, 0, sizeof(id));
			for (i = 0; i < 8 && sscanf(b + 2 * i, "%2x", &x) == 1;
			    i++)
				id[i] = x;
			cells[ncells].fnpc = (char *)MON_META_BUILDID;
			memcpy(&cells[ncells++].mcnt, id, 8);
		} else if (strcmp(a, "nfns") == 0 && n == 2) {
			nfns = num(b);
		} else if (strcmp(a, "extra") == 0 && n == 2) {
			extra = num(b);
		} else if (strcmp(a, "truncate") == 0 && n == 2) {
			trunc = num(b);
		} else {
			fprintf(stderr, "mkmon: bad line: %s", line);
			return 2;
		}
	}
	h.nfns = nfns >= 0 ? (size_t)nfns : ncells;
	if ((f = fopen(argv[1], "wb")) == NULL) {
		perror(argv[1]);
		return 2;
	}
	fwrite(&h, sizeof(h), 1, f);
	fwrite(cells, sizeof(cells[0]), ncells, f);
	if (nbins > 0)
		fwrite(bins, sizeof(WORD), nbins, f);
	for (i = 0; i < extra; i++)
		fputc(0, f);
	if (fclose(f) != 0) {
		perror(argv[1]);
		return 2;
	}
	if (trunc >= 0 && truncate(argv[1], trunc) != 0) {
		perror(argv[1]);
		return 2;
	}
	free(bins);
	return 0;
}
