/* SPDX-License-Identifier: MIT */
/*
 * gmonread.c - read and validate a GNU gmon.out (what runtime/gmonout.c
 * writes for -pg, and glibc too): the "gmon" header, then tagged records
 * in native byte order without padding: histograms (tag 0), call-graph
 * arcs (tag 1: caller pc, callee pc, a 32-bit count) and basic-block
 * counts (tag 2, skipped).  Every record is checked against the file's
 * size before it is read; an unknown tag is an error, as in gprof.
 */
#include <err.h>
#include <stdlib.h>

#include "input.h"

#define GMON_HDR	20	/* "gmon", int32 version, 12 spare bytes */
#define GMON_HIST	40	/* low_pc, high_pc, size, rate, dimen */
#define GMON_ARC	20	/* from_pc, self_pc, uint32 count */
#define GMON_MAX	((size_t)1 << 30)	/* a file, bytes */

enum { TAG_HIST, TAG_ARC, TAG_BB };

/*
 * The SIZE bytes at P, a gmon.out, into GF (its arcs point nowhere into
 * P).  NULL, or the problem (in EBUF).
 */
const char *
gmonread_parse(struct gmonfile *gf, const void *p, size_t size, char *ebuf,
    size_t esz)
{
	const unsigned char *b = p;
	size_t off, cap = 0, hcap = 0, n;
	uint64_t lo, hi;
	uint32_t u32;
	int32_t version;

	memset(gf, 0, sizeof(*gf));
	if (size < GMON_HDR || memcmp(b, "gmon", 4) != 0)
		return prof_errf(ebuf, esz, "not a GNU gmon.out (no \"gmon\" "
		    "header)");
	memcpy(&version, b + 4, 4);
	if (version != 0 && version != 1)
		return prof_errf(ebuf, esz, "gmon.out version %d, not 0 or 1",
		    version);
	for (off = GMON_HDR; off < size; ) {
		switch (b[off++]) {
		case TAG_HIST:
			if (size - off < GMON_HIST)
				goto truncated;
			memcpy(&lo, b + off, 8);
			memcpy(&hi, b + off + 8, 8);
			memcpy(&u32, b + off + 16, 4);
			if (lo > hi) {
				gmonread_close(gf);
				return prof_errf(ebuf, esz, "histogram at %zu: "
				    "low_pc above high_pc", off - 1);
			}
			if ((size - off - GMON_HIST) / 2 < u32)
				goto truncated;
			if (prof_grow(&gf->hist, &hcap, gf->nhist + 1,
			    sizeof(*gf->hist)) != 0) {
				gmonread_close(gf);
				return prof_errf(ebuf, esz, "out of memory");
			}
			gf->hist[gf->nhist++] = (struct gmonhist){ lo, hi, u32 };
			off += GMON_HIST + (size_t)u32 * 2;
			break;
		case TAG_ARC:
			if (size - off < GMON_ARC)
				goto truncated;
			if (prof_grow(&gf->arc, &cap, gf->narc + 1,
			    sizeof(*gf->arc)) != 0) {
				gmonread_close(gf);
				return prof_errf(ebuf, esz, "out of memory");
			}
			memcpy(&gf->arc[gf->narc].from, b + off, 8);
			memcpy(&gf->arc[gf->narc].self, b + off + 8, 8);
			memcpy(&u32, b + off + 16, 4);
			gf->arc[gf->narc++].count = u32;
			off += GMON_ARC;
			break;
		case TAG_BB:
			if (size - off < 4)
				goto truncated;
			memcpy(&u32, b + off, 4);
			n = u32;
			if ((size - off - 4) / 16 < n)
				goto truncated;
			off += 4 + n * 16;
			break;
		default:
			gmonread_close(gf);
			return prof_errf(ebuf, esz, "bad tag %u at offset %zu",
			    b[off - 1], off - 1);
		}
	}
	return NULL;
truncated:
	gmonread_close(gf);
	return prof_errf(ebuf, esz, "truncated record at offset %zu", off - 1);
}

/* The gmon.out PATH into GF: NULL, or the problem. */
const char *
gmonread_load(struct gmonfile *gf, const char *path, char *ebuf, size_t esz)
{
	const char *why;
	char *data;
	size_t len;

	memset(gf, 0, sizeof(*gf));
	if (file_read(path, GMON_MAX, &data, &len, &why) != 0)
		return prof_errf(ebuf, esz, "%s", why);
	why = gmonread_parse(gf, data, len, ebuf, esz);
	free(data);
	gf->path = path;
	return why;
}

void
gmonread_close(struct gmonfile *gf)
{
	free(gf->arc);
	free(gf->hist);
	gf->arc = NULL;
	gf->narc = 0;
	gf->hist = NULL;
	gf->nhist = 0;
}

/*
 * Whether GF's histogram records are the NBINS bins over [LPC, HPC):
 * one record of all of them (the classic record, glibc's), or records
 * of whole bins of it at its scale that begin at LPC and end at HPC
 * (the runtime writes one record per chunk of 32 bins with samples,
 * and the first and last bins').  1 where it has none.
 */
int
gmonread_within(const struct gmonfile *gf, uint64_t lpc, uint64_t hpc,
    uint64_t nbins)
{
	const struct gmonhist *h;
	unsigned __int128 span = hpc - lpc;
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t k;

	for (k = 0; k < gf->nhist; k++) {
		h = &gf->hist[k];
		lo = h->lo < lo ? h->lo : lo;
		hi = h->hi > hi ? h->hi : hi;
		if (h->lo == lpc && h->hi == hpc && h->nbins == nbins)
			continue;
		if (h->lo < lpc || h->hi > hpc || h->lo >= h->hi ||
		    nbins == 0 || h->nbins == 0 ||
		    (unsigned __int128)(h->hi - h->lo) * nbins !=
		    (unsigned __int128)h->nbins * span ||
		    (unsigned __int128)(h->lo - lpc) * nbins % span != 0)
			return 0;
	}
	return gf->nhist == 0 || (lo == lpc && hi == hpc);
}
