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
 *	object LO HI OFF PATH [HEX]
 *				a shared object's record: mapped at [LO, HI)
 *				from file offset OFF, its build-id HEX
 *	cell PC COUNT		a function cell
 *	nfns N			lie about the number of cells in the header
 *	extra N			append N zero bytes
 *	truncate N		cut the file to N bytes, or make it N bytes
 *				long with a hole (a sparse file)
 *	compact			write the file in the compact form (mon.h):
 *				the runs of its 8-byte words that are not
 *				zeros, its first 24 bytes always
 *
 * Usage: mkmon OUT < description
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"

static const char *const keys[MON_META_NKEYS] = {
	[MON_META_MAGIC] = "magic",
	[MON_META_VERSION] = "version",
	[MON_META_RATE] = "rate",
	[MON_META_SAMPLER] = "sampler",
	[MON_META_SATURATED] = "saturated",
	[MON_META_OUTSIDE] = "outside",
	[MON_META_BIAS] = "bias",
	[MON_META_BUILDID] = "buildid",
	[MON_META_PID] = "pid",
	[MON_META_SAMPLES] = "samples",
	[MON_META_LOST] = "lost",
	[MON_META_THREADS] = "threads",
	[MON_META_STRIDE] = "stride",
	[MON_META_UNKNOWN] = "unknown",
	[MON_META_EXE_SAMPLES] = "exe_samples",
	[MON_META_EXE_SAMPLE] = "exe_sample",
	[MON_META_OBJECT_SAMPLES] = "object_samples",
	[MON_META_OBJECT_SAMPLE] = "object_sample",
	[MON_META_EXE_PATH] = "exe_path",
};

static struct cnt *cells;
static size_t ncells, cap;

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

/* The first 8 bytes of the hex string S (readelf -n's build-id). */
static long
hexid(const char *s)
{
	unsigned char id[8];
	unsigned x;
	long v;
	size_t i;

	memset(id, 0, sizeof(id));
	for (i = 0; i < 8 && sscanf(s + 2 * i, "%2x", &x) == 1; i++)
		id[i] = x;
	memcpy(&v, id, 8);
	return v;
}

static void
add(unsigned long pc, long count)
{
	struct cnt *more;

	if (ncells == cap) {
		cap = cap ? 2 * cap : 4096;
		if ((more = realloc(cells, cap * sizeof(*cells))) == NULL) {
			perror("mkmon");
			exit(2);
		}
		cells = more;
	}
	cells[ncells].fnpc = (char *)(uintptr_t)pc;
	cells[ncells++].mcnt = count;
}

/* A MON_META_OBJECT record: its range, offset, build-id and path. */
static void
object(const char *lo, const char *hi, const char *off, const char *path,
    const char *id)
{
	size_t i, len = strlen(path) + 1;
	long v;

	add(MON_META_OBJECT, (long)num(lo));
	add(MON_META_OBJECT_END, (long)num(hi));
	add(MON_META_OBJECT_OFFSET, (long)num(off));
	if (id != NULL)
		add(MON_META_OBJECT_BUILDID, hexid(id));
	for (i = 0; i < len; i += 8) {
		v = 0;
		memcpy(&v, path + i, len - i < 8 ? len - i : 8);
		add(MON_META_OBJECT_PATH, v);
	}
}

/* Rewrite the classic file PATH in the compact form: 0, or -1. */
static int
compact(const char *path)
{
	unsigned char *b = NULL;
	uint64_t v[2];
	size_t len = 0, room = 0, i, a, e, j, gap, w;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	for (;;) {
		if (len == room && (b = realloc(b, room = room * 2 + 4096)) == NULL)
			return -1;
		if ((i = fread(b + len, 1, room - len, f)) == 0)
			break;
		len += i;
	}
	fclose(f);
	if ((f = fopen(path, "wb")) == NULL)
		return -1;
	v[0] = MON_COMPACT_MAGIC;
	v[1] = len;
	fwrite(v, sizeof(v), 1, f);
#define WEND(i)	((len - (i) < 8) ? len : (i) + 8)
#define ZERO(i)	((i) >= 24 && memcmp(b + (i), "\0\0\0\0\0\0\0\0", \
		    WEND(i) - (i)) == 0)
	for (i = 0; i < len; ) {
		if (ZERO(i)) {
			i = WEND(i);
			continue;
		}
		a = i;
		e = WEND(i);
		for (;;) {
			for (j = e, gap = 0; j < len && gap <= 2 && ZERO(j);
			    j = WEND(j))
				gap++;
			if (j >= len || gap > 2)
				break;
			e = WEND(j);
		}
		w = e - a;
		v[0] = a;
		v[1] = w;
		fwrite(v, sizeof(v), 1, f);
		fwrite(b + a, 1, w, f);
		i = e;
	}
	free(b);
	return fclose(f);
}

int
main(int argc, char **argv)
{
	WORD *bins = NULL;
	struct hdr h = { 0, 0, 0 };
	size_t nbins = 0, i, extra = 0;
	long long trunc = -1, nfns = -1;
	int dense = 1;
	char line[8192], a[4096], b[4096], c[4096], d[4096], e[4096], g[4096];
	unsigned key;
	long v;
	int n;
	FILE *f;

	if (argc != 2) {
		fprintf(stderr, "usage: mkmon OUT < description\n");
		return 2;
	}
	while (fgets(line, sizeof(line), stdin) != NULL) {
		n = sscanf(line, "%4095s %4095s %4095s %4095s %4095s %4095s",
		    a, b, c, d, e, g);
		if (n <= 0 || a[0] == '#')
			continue;
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
			for (i = 1; i < MON_META_NKEYS; i++)
				if (keys[i] != NULL && strcmp(b, keys[i]) == 0)
					key = i;
			if (key == MON_META_MAGIC && strcmp(c, "ok") == 0)
				v = MON_META_MAGIC_VALUE;
			else
				v = num(c);
			add(key ? key : num(b), v);
		} else if (strcmp(a, "buildid") == 0 && n == 2) {
			add(MON_META_BUILDID, hexid(b));
		} else if (strcmp(a, "object") == 0 && (n == 5 || n == 6)) {
			object(b, c, d, e, n == 6 ? g : NULL);
		} else if (strcmp(a, "nfns") == 0 && n == 2) {
			nfns = num(b);
		} else if (strcmp(a, "extra") == 0 && n == 2) {
			extra = num(b);
		} else if (strcmp(a, "truncate") == 0 && n == 2) {
			trunc = num(b);
		} else if (strcmp(a, "compact") == 0 && n == 1) {
			dense = 0;
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
	if (!dense && compact(argv[1]) != 0) {
		perror(argv[1]);
		return 2;
	}
	free(bins);
	return 0;
}
