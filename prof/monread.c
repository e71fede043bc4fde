/* SPDX-License-Identifier: MIT */
/*
 * monread.c - read and validate a mon.out (the mirror of the runtime's
 * writer; the layout is defined once, in <mon.h>).
 *
 * The header is checked against the file's size before anything trusts
 * it: the cell count, the histogram size, the range.  Then what the file
 * holds on disk is read: a hole of a sparse file reads as zeros, unused
 * cells and empty bins, so it is skipped and costs nothing (a 10 GB file
 * of 4 KB on disk is read as 4 KB).  The cells are scanned once: the
 * metadata into one array by key, the shared-object records into
 * another (monobj.c), every count checked.
 */
#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mon.h"
#include "input.h"

#define HDR_SIZE	sizeof(struct hdr)
#define CNT_SIZE	sizeof(struct cnt)
#define PROF_MAGIC_BE	"PROF"		/* Solaris versioned format */

_Static_assert(MON_META_NKEYS <= 32, "monfile.has holds a bit per key");

/* Where the cells begin and end: the histogram follows them. */
#define CELLS(mf)	((uint64_t)HDR_SIZE)
#define BINS(mf)	(CELLS(mf) + (uint64_t)(mf)->nfns * CNT_SIZE)

/*
 * The SIZE-byte file's header, of which the first HAVE bytes are at P,
 * into MF: the layout, checked.
 */
static const char *
header(struct monfile *mf, const unsigned char *p, size_t have,
    uint64_t size, char *ebuf, size_t esz)
{
	struct hdr h;
	uint64_t rest;

	mf->size = size;
	if (size == 0)
		return prof_errf(ebuf, esz, "empty file");
	/* glibc's gprof file, named as the profile: say what reads it. */
	if (have >= 4 && memcmp(p, "gmon", 4) == 0)
		return prof_errf(ebuf, esz, "a gprof gmon.out, not a mon.out: "
		    "read it with gprof PROG FILE; prof reads the mon.out of "
		    "a program built with gcc -specs=monprof.specs -p or -pg");
	if (have >= 4 && memcmp(p, PROF_MAGIC_BE, 4) == 0)
		return prof_errf(ebuf, esz,
		    "Solaris versioned (PROF) profiles are not supported");
	if (size < HDR_SIZE)
		return prof_errf(ebuf, esz, "truncated header (%llu of %zu bytes)",
		    (unsigned long long)size, HDR_SIZE);
	memcpy(&h, p, sizeof(h));
	mf->lpc = (uint64_t)(uintptr_t)h.lpc;
	mf->hpc = (uint64_t)(uintptr_t)h.hpc;
	rest = size - HDR_SIZE;
	if (h.nfns > rest / CNT_SIZE)
		return prof_errf(ebuf, esz,
		    "header says %llu cells, the file holds at most %llu",
		    (unsigned long long)h.nfns,
		    (unsigned long long)(rest / CNT_SIZE));
	mf->nfns = h.nfns;
	rest -= (uint64_t)h.nfns * CNT_SIZE;
	if (rest % sizeof(WORD) != 0)
		return prof_errf(ebuf, esz, "odd histogram size (%llu bytes)",
		    (unsigned long long)rest);
	mf->nbins = rest / sizeof(WORD);
	if (mf->lpc > mf->hpc || (mf->lpc == mf->hpc && mf->nbins > 0))
		return prof_errf(ebuf, esz, "bad range: lpc %#llx >= hpc %#llx",
		    (unsigned long long)mf->lpc, (unsigned long long)mf->hpc);
	if (mf->nbins > mf->hpc - mf->lpc)
		return prof_errf(ebuf, esz,
		    "%zu histogram bins for a range of %llu bytes", mf->nbins,
		    (unsigned long long)(mf->hpc - mf->lpc));
	return NULL;
}

/* Part *K's share of [lo, lo + n * width) as RUN: 1, or 0 past the last. */
static int
run(const struct monfile *mf, size_t *k, uint64_t lo, size_t n,
    size_t width, struct monrun *r)
{
	const struct monpart *pt;
	uint64_t hi = lo + (uint64_t)n * width, a, b;

	for (; *k < mf->npart; (*k)++) {
		pt = &mf->part[*k];
		a = pt->off > lo ? pt->off : lo;
		b = pt->off + pt->len < hi ? pt->off + pt->len : hi;
		if (a >= b)
			continue;
		r->first = (a - lo) / width;
		r->n = (b - a) / width;
		r->p = pt->p + (a - pt->off);
		(*k)++;
		return 1;
	}
	return 0;
}

/*
 * The cells the file holds, a stretch at a time: start with *K = 0.
 * Cells not visited are in a hole, all zero (unused).
 */
int
monread_cells(const struct monfile *mf, size_t *k, struct monrun *r)
{
	return run(mf, k, CELLS(mf), mf->nfns, CNT_SIZE, r);
}

/* The histogram bins the file holds, likewise; the others are 0. */
int
monread_bins(const struct monfile *mf, size_t *k, struct monrun *r)
{
	return run(mf, k, BINS(mf), mf->nbins, sizeof(WORD), r);
}

/* ---------------------------------------------------------------- compact */

/* The first byte of [P, P + LEN) that is not zero: its index, or LEN. */
static size_t
nonzero(const unsigned char *p, size_t len)
{
	uint64_t w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		if (w != 0)
			break;
	}
	for (; i < len && p[i] == 0; i++)
		;
	return i;
}

/* [A, B) of the part PT kept: into NP[*N] and BUF if not NULL. */
static void
keep(const struct monpart *pt, uint64_t a, uint64_t b, struct monpart *np,
    unsigned char *buf, size_t *n, size_t *bytes)
{
	if (np != NULL) {
		np[*n] = (struct monpart){ a, b - a, buf + *bytes };
		memcpy(buf + *bytes, pt->p + (a - pt->off), b - a);
	}
	(*n)++;
	*bytes += b - a;
}

/*
 * The stretches of MF's parts to keep: its cells and bins that are not
 * all zero, with the zeros between two of them where they take fewer
 * bytes than a part to describe them.  Into NP and BUF if not NULL;
 * returns how many, their bytes into *BYTES.
 */
static size_t
kept(const struct monfile *mf, struct monpart *np, unsigned char *buf,
    size_t *bytes)
{
	const struct monpart *pt;
	uint64_t at, end, z, u, w, a = 0, b = 0;
	size_t k, n = 0;
	int open;

	*bytes = 0;
	for (k = 0; k < mf->npart; k++) {
		pt = &mf->part[k];
		end = pt->off + pt->len;
		open = 0;
		/* The header was read at load: only cells and bins count. */
		for (at = pt->off > CELLS(mf) ? pt->off : CELLS(mf); at < end;
		    at = u + w) {
			if ((z = at + nonzero(pt->p + (at - pt->off),
			    end - at)) >= end)
				break;
			w = z < BINS(mf) ? CNT_SIZE : sizeof(WORD);
			u = z < BINS(mf) ? CELLS(mf) + (z - CELLS(mf)) / w * w :
			    BINS(mf) + (z - BINS(mf)) / w * w;
			if (u + w > end)
				w = end - u;
			if (open && u - b < sizeof(*np)) {
				b = u + w;
				continue;
			}
			if (open)
				keep(pt, a, b, np, buf, &n, bytes);
			a = u;
			b = u + w;
			open = 1;
		}
		if (open)
			keep(pt, a, b, np, buf, &n, bytes);
	}
	return n;
}

/*
 * Keep of MF only what counts: its cells and bins that are not zero (a
 * zero cell is unused, a zero bin holds no sample; monread_cells() and
 * monread_bins() then visit the others only), so that a profile held
 * while others are read takes the memory of what it recorded, not of
 * its size.  0, or -1 out of memory (MF as it was).
 */
int
monread_compact(struct monfile *mf)
{
	struct monpart *np;
	unsigned char *buf;
	size_t n, bytes;

	n = kept(mf, NULL, NULL, &bytes);
	if ((np = calloc(n + 1, sizeof(*np))) == NULL)
		return -1;
	if ((buf = malloc(bytes + 1)) == NULL) {
		free(np);
		return -1;
	}
	kept(mf, np, buf, &bytes);
	free(mf->part);
	free(mf->data);
	mf->part = np;
	mf->npart = n;
	mf->data = buf;
	return 0;
}

/*
 * The bytes MF holds in memory, what monread_close() frees: after
 * monread_compact(), what it recorded.
 */
size_t
monread_held(const struct monfile *mf)
{
	size_t k, n = sizeof(*mf) + mf->exelen +
	    mf->npart * sizeof(*mf->part) +
	    mf->nsample * sizeof(*mf->sample) +
	    mf->nobj * (sizeof(*mf->obj) + sizeof(*mf->byaddr)) +
	    mf->nstack * sizeof(*mf->stack) + mf->nframe * sizeof(*mf->frame);

	for (k = 0; mf->data != NULL && k < mf->npart; k++)
		n += mf->part[k].len;
	for (k = 0; k < mf->nobj; k++)
		n += strlen(mf->obj[k].path) + 1;
	return n;
}

/* ---------------------------------------------------------------- cells */

/*
 * 8 more bytes V of the executable's path (MON_META_EXE_PATH): NULL, or
 * the problem.  Bytes after its NUL are left alone.
 */
static const char *
exepath(struct monfile *mf, long v, char *ebuf, size_t esz)
{
	char *p;

	if (mf->exepath != NULL && memchr(mf->exepath, '\0', mf->exelen))
		return NULL;
	if (mf->exelen >= PATH_MAX)
		return prof_errf(ebuf, esz, "executable path too long");
	if ((p = realloc(mf->exepath, mf->exelen + 8)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	mf->exepath = p;
	memcpy(p + mf->exelen, &v, 8);
	mf->exelen += 8;
	return NULL;
}

/*
 * Each record whose mapping holds a function cell is named: its symbols
 * are loaded.  A stack's frame names none: an object the profile does
 * not name by its samples (the C library, without -all; valgrind's
 * tool, when a test runs under it) is its row, <libc.so.6>, in a stack
 * as in the report.
 */
static void
named(struct monfile *mf)
{
	struct monrun r;
	size_t k = 0, i;
	uint64_t pc;
	long count, o;

	if (mf->nobj == 0)
		return;
	while (monread_cells(mf, &k, &r))
		for (i = 0; i < r.n; i++) {
			monrun_cell(&r, i, &pc, &count);
			if (pc >= MON_META_LIMIT && (o = monobj_at(mf, pc)) >= 0)
				mf->obj[o].named = 1;
		}
}

/*
 * Every cell the file holds: function counts checked, metadata into
 * mf->meta, shared object records (before the first function cell)
 * into mf->obj.  Cells in holes are zero: unused metadata.
 */
static const char *
scan(struct monfile *mf, char *ebuf, size_t esz)
{
	struct monobjread rs;
	struct monstacksread ss;
	struct monrun r;
	const char *e = NULL;
	size_t k = 0, i, next = 0, nfunc = 0, nkeyed = 0;
	uint64_t pc;
	long count;
	int prefix = 1;		/* no function cell yet: records may come */

	memset(&rs, 0, sizeof(rs));
	memset(&ss, 0, sizeof(ss));
	while (e == NULL && monread_cells(mf, &k, &r)) {
		/* A hole's first cell is 0: no record's. */
		if (prefix && r.first != next)
			monobj_gap(&rs, next);
		for (i = 0; i < r.n && e == NULL; i++) {
			monrun_cell(&r, i, &pc, &count);
			if (pc >= MON_META_LIMIT) {
				if (count < 0)
					e = prof_errf(ebuf, esz, "cell %zu: "
					    "negative call count %ld",
					    r.first + i, count);
				if (prefix)
					monobj_gap(&rs, r.first + i);
				prefix = 0;
				nfunc++;
				continue;
			}
			if (pc == MON_META_MAGIC && count != MON_META_MAGIC_VALUE)
				e = prof_errf(ebuf, esz, "bad magic %#lx",
				    (unsigned long)count);
			if (pc != 0)
				nkeyed++;
			if (pc != 0 && pc < MON_META_NKEYS) {
				mf->has |= MONREAD_HAS(pc);
				mf->meta[pc] = count;
			}
			if (prefix && pc == MON_META_EXE_PATH && e == NULL)
				e = exepath(mf, count, ebuf, esz);
			if (e == NULL)
				e = monstacks_cell(mf, &ss, r.first + i, pc,
				    count, ebuf, esz);
			if (prefix &&
			    monobj_cell(mf, &rs, r.first + i, pc, count) != 0)
				e = prof_errf(ebuf, esz, "out of memory");
		}
		next = r.first + r.n;
	}
	if (prefix)
		monobj_gap(&rs, mf->nfns);
	if (e == NULL && mf->exepath != NULL &&
	    memchr(mf->exepath, '\0', mf->exelen) == NULL)
		e = prof_errf(ebuf, esz, "executable path without its end");
	mf->nmeta = mf->nfns - nfunc;
	/* Cells of fnpc 0 (holes too): reserved by monitor(3), unused. */
	mf->nunused = mf->nmeta - nkeyed;
	if (e == NULL && (mf->has & MONREAD_HAS(MON_META_VERSION)) &&
	    (mf->meta[MON_META_VERSION] < 1 ||
	    mf->meta[MON_META_VERSION] > MON_FORMAT_VERSION))
		e = prof_errf(ebuf, esz, "unsupported format version %ld",
		    mf->meta[MON_META_VERSION]);
	e = monobj_done(mf, &rs, e, ebuf, esz);
	if (e != NULL)
		return e;
	named(mf);
	if ((mf->has & MONREAD_HAS(MON_META_RATE)) &&
	    mf->meta[MON_META_RATE] <= 0)
		return prof_errf(ebuf, esz, "bad sampling rate %ld",
		    mf->meta[MON_META_RATE]);
	if (mf->meta[MON_META_SATURATED] < 0 || mf->meta[MON_META_OUTSIDE] < 0 ||
	    mf->meta[MON_META_LOST] < 0 || mf->meta[MON_META_UNKNOWN] < 0 ||
	    mf->meta[MON_META_EXE_SAMPLES] < 0 || mf->meta[MON_META_STRIDE] < 0)
		return prof_errf(ebuf, esz, "negative sample count in metadata");
	return NULL;
}

/* ---------------------------------------------------------------- files */

static void
reset(struct monfile *mf)
{
	memset(mf, 0, sizeof(*mf));
}

/* The native 64-bit word at P, which may be unaligned. */
static uint64_t
u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t align(const struct monfile *, uint64_t, int);
static int addpart(struct monfile *, size_t *, uint64_t, uint64_t);

/*
 * The LEN bytes at BUF, a compact mon.out (mon.h: its magic checked by
 * the caller), into MF: its header from the runs, then its runs as
 * parts of whole cells and bins, the zeros between them filled in, in
 * a buffer of MF's own.  NULL, or the problem (in EBUF).
 */
static const char *
compact(struct monfile *mf, const unsigned char *buf, size_t len, char *ebuf,
    size_t esz)
{
	unsigned char hdr[HDR_SIZE];
	const unsigned char *p, *end = buf + len;
	uint64_t size, off, n, prev = 0, total = 0;
	size_t cap = 0, k, runs = 0;
	const char *e;
	unsigned char *d;

	if (len < MON_COMPACT_HDR)
		return prof_errf(ebuf, esz, "truncated compact header (%zu of "
		    "%d bytes)", len, MON_COMPACT_HDR);
	size = u64(buf + 8);
	/* Every run checked first; the header is what they hold of it. */
	memset(hdr, 0, sizeof(hdr));
	for (p = buf + MON_COMPACT_HDR; p < end; p += MON_COMPACT_RUN + n) {
		if ((size_t)(end - p) < MON_COMPACT_RUN)
			return prof_errf(ebuf, esz, "compact run %zu truncated",
			    runs + 1);
		off = u64(p);
		n = u64(p + 8);
		if (n == 0 || off < prev || off > size || n > size - off ||
		    n > (uint64_t)(end - p) - MON_COMPACT_RUN)
			return prof_errf(ebuf, esz, "compact run %zu (%llu bytes "
			    "at %llu) out of order, empty or past the end",
			    runs + 1, (unsigned long long)n,
			    (unsigned long long)off);
		if (off < HDR_SIZE)
			memcpy(hdr + off, p + MON_COMPACT_RUN,
			    n < HDR_SIZE - off ? n : HDR_SIZE - off);
		prev = off + n;
		runs++;
	}
	if ((e = header(mf, hdr, sizeof(hdr), size, ebuf, esz)) != NULL)
		return e;
	for (p = buf + MON_COMPACT_HDR; p < end; p += MON_COMPACT_RUN + n) {
		n = u64(p + 8);
		if (addpart(mf, &cap, u64(p), u64(p) + n) != 0)
			return prof_errf(ebuf, esz, "out of memory");
	}
	for (k = 0; k < mf->npart; k++)
		total += mf->part[k].len;
	if ((mf->data = d = calloc(1, total ? total : 1)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (k = 0; k < mf->npart; k++) {
		mf->part[k].p = d;
		d += mf->part[k].len;
	}
	/* Each run lies within one part: parts are runs made whole. */
	k = 0;
	for (p = buf + MON_COMPACT_HDR; p < end; p += MON_COMPACT_RUN + n) {
		off = u64(p);
		n = u64(p + 8);
		while (mf->part[k].off + mf->part[k].len < off + n)
			k++;
		memcpy((unsigned char *)mf->part[k].p + (off - mf->part[k].off),
		    p + MON_COMPACT_RUN, n);
	}
	return NULL;
}

/*
 * Validate the SIZE bytes at BUF as a mon.out and fill MF, pointing into
 * BUF.  Returns NULL (monread_close() frees what was allocated), or a
 * message (in EBUF) naming the problem.
 */
const char *
monread_parse(struct monfile *mf, const void *buf, size_t size, char *ebuf,
    size_t esz)
{
	const char *e;

	reset(mf);
	if (size >= sizeof(uint64_t) && u64(buf) == MON_COMPACT_MAGIC) {
		if ((e = compact(mf, buf, size, ebuf, esz)) == NULL &&
		    (e = scan(mf, ebuf, esz)) == NULL)
			return NULL;
		monread_close(mf);
		return e;
	}
	if ((e = header(mf, buf, size, size, ebuf, esz)) != NULL)
		return e;
	if ((mf->part = calloc(1, sizeof(*mf->part))) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	mf->part[0].len = size;
	mf->part[0].p = buf;
	mf->npart = 1;
	if ((e = scan(mf, ebuf, esz)) != NULL)
		monread_close(mf);
	return e;
}

/* X rounded down (UP: up) to a whole cell or bin of MF's layout. */
static uint64_t
align(const struct monfile *mf, uint64_t x, int up)
{
	uint64_t c = CELLS(mf), b = BINS(mf), w;

	if (x <= c)
		return up ? x : 0;
	w = x < b ? CNT_SIZE : sizeof(WORD);
	c = x < b ? c : b;
	x = c + (x - c) / w * w + (up && (x - c) % w != 0 ? w : 0);
	return up && x > mf->size ? mf->size : x;
}

/* Add the data at [A, B) of the file to mf->part: 0, or -1 out of memory. */
static int
addpart(struct monfile *mf, size_t *cap, uint64_t a, uint64_t b)
{
	struct monpart *last = mf->npart ? &mf->part[mf->npart - 1] : NULL;

	a = align(mf, a, 0);
	b = align(mf, b, 1);
	if (a >= b)
		return 0;
	if (last != NULL && a <= last->off + last->len) {
		if (b > last->off + last->len)
			last->len = b - last->off;
		return 0;
	}
	if (prof_grow(&mf->part, cap, mf->npart + 1, sizeof(*mf->part)))
		return -1;
	mf->part[mf->npart].off = a;
	mf->part[mf->npart++].len = b - a;
	return 0;
}

/*
 * The stretches of the open file FD that hold data (SEEK_DATA,
 * SEEK_HOLE; where the file system cannot tell, all of it) into
 * mf->part, and their bytes into *TOTAL.
 */
static const char *
extents(struct monfile *mf, int fd, uint64_t *total, char *ebuf, size_t esz)
{
	size_t cap = 0, k;
	off_t d, h;
	uint64_t off = 0;

	while (off < mf->size) {
		if ((d = lseek(fd, (off_t)off, SEEK_DATA)) == -1) {
			if (errno == ENXIO)
				break;
			d = (off_t)off;		/* no SEEK_DATA: all data */
			h = (off_t)mf->size;
		} else if ((h = lseek(fd, d, SEEK_HOLE)) == -1 ||
		    (uint64_t)h > mf->size)
			h = (off_t)mf->size;
		if ((uint64_t)d >= mf->size || h <= d)
			break;
		if (addpart(mf, &cap, (uint64_t)d, (uint64_t)h) != 0)
			return prof_errf(ebuf, esz, "out of memory");
		off = (uint64_t)h;
	}
	for (*total = 0, k = 0; k < mf->npart; k++)
		*total += mf->part[k].len;
	return NULL;
}

/* Read the parts of FD into one buffer. */
static const char *
readparts(struct monfile *mf, int fd, uint64_t total, char *ebuf, size_t esz)
{
	unsigned char *p;
	size_t k, got;
	ssize_t n;

	if ((mf->data = p = malloc(total ? total : 1)) == NULL)
		return prof_errf(ebuf, esz, "%s", strerror(errno));
	for (k = 0; k < mf->npart; k++) {
		mf->part[k].p = p;
		for (got = 0; got < mf->part[k].len; got += n) {
			n = pread(fd, p + got, mf->part[k].len - got,
			    (off_t)(mf->part[k].off + got));
			if (n == -1 && errno == EINTR)
				n = 0;
			else if (n == -1)
				return prof_errf(ebuf, esz, "%s",
				    strerror(errno));
			else if (n == 0)
				return prof_errf(ebuf, esz,
				    "file shrank while read");
		}
		p += mf->part[k].len;
	}
	return NULL;
}

/* EBUF's message, then "; " and what to do: WHAT; returns EBUF. */
static const char *
hint(char *ebuf, size_t esz, const char *what)
{
	size_t len = strlen(ebuf);

	if (len < esz)
		snprintf(ebuf + len, esz - len, "; %s", what);
	return ebuf;
}

/*
 * PATH could not be opened (ERR, errno; WHY, file_open's words): say
 * so, and for a FIFO or a directory, or a file not there, what to do.  A gmon.out beside it
 * is gprof's file, from a program built with plain gcc -pg, which prof
 * does not read: name what does.
 */
static const char *
missing(const char *path, int err, const char *why, char *ebuf, size_t esz)
{
	const char *base = strrchr(path, '/');
	struct stat sb;
	char *g;

	prof_errf(ebuf, esz, "%s", why);
	if (strcmp(why, "not a regular file") == 0)
		return hint(ebuf, esz, "name the profile file itself");
	if (err != ENOENT)
		return ebuf;
	base = base != NULL ? base + 1 : path;
	if (asprintf(&g, "%.*sgmon.out", (int)(base - path), path) == -1)
		return ebuf;
	if (stat(g, &sb) == 0)
		hint(ebuf, esz, "gmon.out beside it is gprof's (gcc -pg): "
		    "read it with gprof PROG gmon.out, or build with gcc "
		    "-specs=monprof.specs -p and rerun for a mon.out");
	else
		hint(ebuf, esz, "run a program built with gcc "
		    "-specs=monprof.specs -p to write it, or name the "
		    "profile: prof PROG FILE");
	free(g);
	return ebuf;
}

/*
 * The compact mon.out open as FD, SIZE bytes, into MF (compact()): it
 * is read whole, as it holds only what ran.
 */
static const char *
readcompact(struct monfile *mf, int fd, uint64_t size, char *ebuf,
    size_t esz)
{
	unsigned char *buf;
	const char *e;
	uint64_t got;
	ssize_t n;

	if (size > SIZE_MAX || (buf = malloc(size ? size : 1)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (got = 0; got < size; got += (uint64_t)n) {
		n = pread(fd, buf + got, size - got, (off_t)got);
		if (n == -1 && errno == EINTR)
			n = 0;
		else if (n <= 0) {
			free(buf);
			return n == 0 ? prof_errf(ebuf, esz, "file shrank "
			    "while read") : prof_errf(ebuf, esz, "%s",
			    strerror(errno));
		}
	}
	mf->size = size;
	e = compact(mf, buf, size, ebuf, esz);
	free(buf);
	return e;
}

/*
 * Read and validate the mon.out PATH.  Returns NULL, or a message (in
 * EBUF) naming the problem; the caller prefixes the file name.
 */
const char *
monread_load(struct monfile *mf, const char *path, char *ebuf, size_t esz)
{
	unsigned char hdr[HDR_SIZE];
	struct stat sb;
	const char *e;
	uint64_t total = 0;
	ssize_t n;
	int fd, damaged = 0;

	reset(mf);
	mf->path = path;
	if ((fd = file_open(path, &sb, &e)) == -1)
		return missing(path, errno, e, ebuf, esz);
	mf->dev = (uint64_t)sb.st_dev;
	mf->ino = (uint64_t)sb.st_ino;
	mf->mtime_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 +
	    sb.st_mtim.tv_nsec;
	memset(hdr, 0, sizeof(hdr));
	if ((n = pread(fd, hdr, sizeof(hdr), 0)) == -1)
		e = prof_errf(ebuf, esz, "%s", strerror(errno));
	else if ((size_t)n >= sizeof(uint64_t) &&
	    u64(hdr) == MON_COMPACT_MAGIC) {
		if ((e = readcompact(mf, fd, (uint64_t)sb.st_size, ebuf,
		    esz)) != NULL)
			damaged = strstr(e, "memory") == NULL;
		close(fd);
		if (e == NULL && (e = scan(mf, ebuf, esz)) != NULL)
			damaged = 1;
		goto out;
	} else if ((e = header(mf, hdr, (size_t)n, (uint64_t)sb.st_size, ebuf,
	    esz)) != NULL && strstr(e, "gprof") == NULL)
		damaged = 1;
	if (e == NULL)
		e = extents(mf, fd, &total, ebuf, esz);
	if (e == NULL && file_sparse(&sb, total) && (damaged = 1) != 0)
		e = prof_errf(ebuf, esz, "sparse file (%llu bytes, %llu on "
		    "disk)", (unsigned long long)sb.st_size,
		    (unsigned long long)sb.st_blocks * 512);
	if (e == NULL)
		e = readparts(mf, fd, total, ebuf, esz);
	close(fd);
	if (e == NULL && (e = scan(mf, ebuf, esz)) != NULL)
		damaged = 1;
out:
	if (e != NULL) {
		monread_close(mf);
		mf->path = path;
	}
	/* What is wrong inside a file is mended only by writing it anew. */
	if (e != NULL && damaged)
		e = hint(ebuf, esz, "not a mon.out, or a damaged one: rerun "
		    "the program (built with gcc -specs=monprof.specs -p) to "
		    "write it again");
	return e;
}

/* Read and validate PATH, or exit with "prof: PATH: problem". */
void
monread_open(struct monfile *mf, const char *path)
{
	char ebuf[512];
	const char *e;

	if ((e = monread_load(mf, path, ebuf, sizeof(ebuf))) != NULL)
		errx(1, "%s: %s", names_text(path), e);
}

void
monread_close(struct monfile *mf)
{
	free(mf->obj);
	free(mf->sample);
	free(mf->stack);
	free(mf->frame);
	free(mf->exepath);
	free(mf->byaddr);
	free(mf->paths);
	free(mf->part);
	free(mf->data);
	reset(mf);
}
