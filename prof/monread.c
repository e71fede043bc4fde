/* SPDX-License-Identifier: MIT */
/*
 * monread.c - read and validate a mon.out (the mirror of the runtime's
 * writer; the layout is defined once, in <mon.h>).
 *
 * The file is mapped whole, then checked before anything trusts it: the
 * cell count against the file size, the histogram size, the range and the
 * metadata.  Nothing is allocated, so memory never depends on the header.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "mon.h"
#include "prof.h"

#define HDR_SIZE	24
#define CNT_SIZE	16
#define PROF_MAGIC_BE	"PROF"		/* Solaris versioned format */

static void
setmeta(struct monfile *mf, unsigned long key, long value)
{
	switch (key) {
	case MON_META_VERSION:	 mf->version = value; break;
	case MON_META_RATE:	 mf->rate = value; break;
	case MON_META_SAMPLER:	 mf->sampler = value; break;
	case MON_META_SATURATED: mf->saturated = value; break;
	case MON_META_OUTSIDE:	 mf->outside = value; break;
	case MON_META_BIAS:	 mf->bias = value; break;
	case MON_META_BUILDID:	 mf->buildid = value; break;
	case MON_META_PID:	 mf->pid = value; break;
	case MON_META_SAMPLES:	 mf->samples = value; break;
	case MON_META_LOST:	 mf->lost = value; break;
	case MON_META_THREADS:	 mf->threads = value; break;
	}
}

/*
 * The next shared object record from cell *I on, into O: 1, or 0 when
 * there is none before the function cells, or -1 when a record is
 * malformed (a key out of order,
 * a path without its NUL, an empty range).
 */
int
monread_object(const struct monfile *mf, size_t *i, struct monobj *o)
{
	uint64_t key, vals[3];
	size_t k, len = 0;
	long v;

	/* Metadata comes first: stop at the first function cell. */
	for (; *i < mf->nfns; (*i)++) {
		monread_cell(mf, *i, &key, &v);
		if (key == MON_META_OBJECT || key >= MON_META_LIMIT)
			break;
	}
	if (*i >= mf->nfns || key >= MON_META_LIMIT)
		return 0;
	for (k = 0; k < 3; k++, (*i)++) {
		if (*i >= mf->nfns)
			return -1;
		monread_cell(mf, *i, &key, &v);
		if (key != MON_META_OBJECT + k)
			return -1;
		vals[k] = (uint64_t)v;
	}
	o->start = vals[0];
	o->end = vals[1];
	o->offset = vals[2];
	o->buildid = 0;
	if (*i < mf->nfns) {
		monread_cell(mf, *i, &key, &v);
		if (key == MON_META_OBJECT_BUILDID) {
			o->buildid = v;
			(*i)++;
		}
	}
	for (; *i < mf->nfns; (*i)++) {
		monread_cell(mf, *i, &key, &v);
		if (key != MON_META_OBJECT_PATH || len + 8 > sizeof(o->path))
			return -1;
		memcpy(o->path + len, &v, 8);
		len += 8;
		if (memchr(o->path + len - 8, '\0', 8) != NULL) {
			(*i)++;
			return o->start < o->end && o->path[0] != '\0' ? 1 : -1;
		}
	}
	return -1;
}

/*
 * Validate the SIZE bytes at BUF as a mon.out and fill MF with pointers
 * into it.  Returns NULL, or a message (in EBUF) naming the problem.
 */
const char *
monread_parse(struct monfile *mf, const void *buf, size_t size, char *ebuf,
    size_t esz)
{
	const unsigned char *p = buf;
	static struct monobj obj;
	uint64_t nfns, rest;
	size_t i;
	int n;

	mf->map = NULL;
	mf->size = size;
	mf->meta = 0;
	mf->nmeta = 0;
	mf->version = mf->rate = mf->sampler = mf->saturated = 0;
	mf->outside = mf->bias = mf->buildid = mf->pid = 0;
	mf->samples = mf->lost = mf->threads = 0;
	if (size == 0)
		return prof_errf(ebuf, esz, "empty file");
	if (size >= 4 && memcmp(p, PROF_MAGIC_BE, 4) == 0)
		return prof_errf(ebuf, esz,
		    "Solaris versioned (PROF) profiles are not supported");
	if (size < HDR_SIZE)
		return prof_errf(ebuf, esz, "truncated header (%zu of %d bytes)",
		    size, HDR_SIZE);
	memcpy(&mf->lpc, p, 8);
	memcpy(&mf->hpc, p + 8, 8);
	memcpy(&nfns, p + 16, 8);
	rest = size - HDR_SIZE;
	if (nfns > rest / CNT_SIZE)
		return prof_errf(ebuf, esz,
		    "header says %llu cells, the file holds at most %llu",
		    (unsigned long long)nfns,
		    (unsigned long long)(rest / CNT_SIZE));
	mf->nfns = nfns;
	mf->cells = p + HDR_SIZE;
	rest -= nfns * CNT_SIZE;
	if (rest % 2 != 0)
		return prof_errf(ebuf, esz, "odd histogram size (%llu bytes)",
		    (unsigned long long)rest);
	mf->bins = mf->cells + nfns * CNT_SIZE;
	mf->nbins = rest / 2;
	if (mf->lpc > mf->hpc || (mf->lpc == mf->hpc && mf->nbins > 0))
		return prof_errf(ebuf, esz, "bad range: lpc %#llx >= hpc %#llx",
		    (unsigned long long)mf->lpc, (unsigned long long)mf->hpc);
	if (mf->nbins > mf->hpc - mf->lpc)
		return prof_errf(ebuf, esz,
		    "%zu histogram bins for a range of %llu bytes", mf->nbins,
		    (unsigned long long)(mf->hpc - mf->lpc));

	for (i = 0; i < mf->nfns; i++) {
		uint64_t pc;
		long count;

		monread_cell(mf, i, &pc, &count);
		if (pc >= MON_META_LIMIT) {
			if (count < 0)
				return prof_errf(ebuf, esz,
				    "cell %zu: negative call count %ld", i,
				    count);
			continue;
		}
		mf->nmeta++;
		if (pc == 0 || pc >= 32)	/* unused cell, unknown key */
			continue;
		if (pc == MON_META_MAGIC && count != MON_META_MAGIC_VALUE)
			return prof_errf(ebuf, esz, "bad magic %#lx",
			    (unsigned long)count);
		mf->meta |= MONREAD_HAS(pc);
		setmeta(mf, pc, count);
	}
	if ((mf->meta & MONREAD_HAS(MON_META_VERSION)) &&
	    (mf->version < 1 || mf->version > MON_FORMAT_VERSION))
		return prof_errf(ebuf, esz, "unsupported format version %ld",
		    mf->version);
	for (i = 0; (n = monread_object(mf, &i, &obj)) > 0;)
		continue;
	if (n < 0)
		return prof_errf(ebuf, esz, "bad shared object record at cell "
		    "%zu", i);
	if ((mf->meta & MONREAD_HAS(MON_META_RATE)) && mf->rate <= 0)
		return prof_errf(ebuf, esz, "bad sampling rate %ld", mf->rate);
	if (mf->saturated < 0 || mf->outside < 0 || mf->lost < 0)
		return prof_errf(ebuf, esz, "negative sample count in metadata");
	return NULL;
}

/* Map and validate PATH, or exit with "prof: PATH: problem". */
void
monread_open(struct monfile *mf, const char *path)
{
	char ebuf[160];
	const char *e;
	struct stat sb;
	void *map;
	int fd;

	if ((fd = open(path, O_RDONLY)) == -1)
		err(1, "%s", path);
	if (fstat(fd, &sb) == -1)
		err(1, "%s", path);
	if (!S_ISREG(sb.st_mode))
		errx(1, "%s: not a regular file", path);
	map = NULL;
	if (sb.st_size > 0) {
		map = mmap(NULL, sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED)
			err(1, "%s", path);
	}
	close(fd);
	if ((e = monread_parse(mf, map, sb.st_size, ebuf, sizeof(ebuf))) !=
	    NULL)
		errx(1, "%s: %s", path, e);
	mf->map = map;
	mf->path = path;
}

void
monread_close(struct monfile *mf)
{
	if (mf->map != NULL)
		munmap(mf->map, mf->size);
	mf->map = NULL;
}
