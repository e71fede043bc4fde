/* SPDX-License-Identifier: MIT */
/*
 * monobj.c - the shared-object records of a mon.out (MON_META_OBJECT,
 * <mon.h>): read once, as monread.c scans the metadata cells, into one
 * array in file order, with an index by address for the report's
 * question, which object's mapping holds this cell.
 *
 * A record is consecutive cells: OBJECT (the mapping's start), END,
 * OFFSET, an optional BUILDID, then PATH cells up to the one with the
 * NUL, then (version 2) OBJECT_SAMPLES and its OBJECT_SAMPLE cells.
 * The executable's EXE_SAMPLE cells come between records; other
 * metadata keys between records are skipped.
 */
#include <limits.h>

#include "mon.h"
#include "input.h"

#define PATH_CELLS	(PATH_MAX / 8 + 1)	/* a record's path, NUL too */

enum { IDLE, WANT_END, WANT_OFFSET, WANT_PATH0, WANT_PATH, SAMPLES };

static void
bad(struct monobjread *rs, size_t i)
{
	if (!rs->isbad) {
		rs->isbad = 1;
		rs->bad = i;
	}
}

/*
 * Cell I is no record's (a function cell, a hole, the end of the cells):
 * a record it cuts is bad.
 */
void
monobj_gap(struct monobjread *rs, size_t i)
{
	if (rs->state != IDLE && rs->state != SAMPLES)
		bad(rs, i);
	rs->state = IDLE;
}

/*
 * A SAMPLE cell I of the executable (OBJ -1) or of record OBJ: where << 16
 * | n, 1 <= n <= MON_SAMPLE_MAX, where in the mapping for an object.
 */
static int
sample(struct monfile *mf, struct monobjread *rs, size_t i, long v, long obj)
{
	struct monsample *s;
	uint64_t where = (uint64_t)v >> 16;
	long n = v & 0xffff;

	if (v < 0 || n == 0 || (obj >= 0 &&
	    where >= mf->obj[obj].end - mf->obj[obj].start)) {
		bad(rs, i);
		return 0;
	}
	if (prof_grow(&mf->sample, &rs->samplecap, mf->nsample + 1,
	    sizeof(*s)))
		return -1;
	s = &mf->sample[mf->nsample++];
	s->pc = where;
	s->n = n;
	s->obj = obj;
	if (obj >= 0)
		mf->obj[obj].named = 1;
	return 0;
}

/* Metadata cell I (KEY, V) of MF: 0, or -1 out of memory. */
int
monobj_cell(struct monfile *mf, struct monobjread *rs, size_t i,
    uint64_t key, long v)
{
	struct monobj *o = mf->nobj > 0 ? &mf->obj[mf->nobj - 1] : NULL;

	if (rs->isbad)
		return 0;
	if (rs->state == SAMPLES) {
		if (key == MON_META_OBJECT_SAMPLES && o->samples == 0 && v >= 0) {
			o->samples = v;
			return 0;
		}
		if (key == MON_META_OBJECT_SAMPLE)
			return sample(mf, rs, i, v, (long)mf->nobj - 1);
		rs->state = IDLE;
	}
	switch (rs->state) {
	case IDLE:
		if (key == MON_META_EXE_SAMPLE)
			return sample(mf, rs, i, v, -1);
		if (key != MON_META_OBJECT)
			return 0;
		if (prof_grow(&mf->obj, &rs->objcap, mf->nobj + 1,
		    sizeof(*o)) || prof_grow(&rs->pathoff, &rs->offcap,
		    mf->nobj + 1, sizeof(*rs->pathoff)))
			return -1;
		o = &mf->obj[mf->nobj++];
		memset(o, 0, sizeof(*o));
		o->start = (uint64_t)v;
		rs->state = WANT_END;
		return 0;
	case WANT_END:
		o->end = (uint64_t)v;
		rs->state = WANT_OFFSET;
		if (key != MON_META_OBJECT_END)
			bad(rs, i);
		return 0;
	case WANT_OFFSET:
		o->offset = (uint64_t)v;
		rs->state = WANT_PATH0;
		rs->path0 = rs->pathlen;
		if (key != MON_META_OBJECT_OFFSET)
			bad(rs, i);
		return 0;
	case WANT_PATH0:
		rs->state = WANT_PATH;
		if (key == MON_META_OBJECT_BUILDID) {
			o->buildid = v;
			return 0;
		}
		/* FALLTHROUGH */
	default:
		if (key != MON_META_OBJECT_PATH ||
		    rs->pathlen - rs->path0 >= PATH_CELLS * 8) {
			bad(rs, i);
			return 0;
		}
		if (prof_grow(&mf->paths, &rs->pathcap, rs->pathlen + 8, 1))
			return -1;
		memcpy(mf->paths + rs->pathlen, &v, 8);
		rs->pathlen += 8;
		if (memchr(mf->paths + rs->pathlen - 8, '\0', 8) == NULL)
			return 0;
		rs->state = SAMPLES;
		rs->pathoff[mf->nobj - 1] = rs->path0;
		if (o->start >= o->end || mf->paths[rs->path0] == '\0')
			bad(rs, i + 1);
		return 0;
	}
}

/* By start: what monobj_at() searches. */
static int
bystart(const void *a, const void *b)
{
	const struct monrange *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/*
 * The records read: their paths in place and the index by address, or
 * the problem.  E is the scan's own problem, if any, which comes first;
 * RS is freed either way.
 */
const char *
monobj_done(struct monfile *mf, struct monobjread *rs, const char *e,
    char *ebuf, size_t esz)
{
	struct monrange *r;
	size_t k;

	if (e == NULL && rs->isbad)
		e = prof_errf(ebuf, esz, "bad shared object record at cell "
		    "%zu", rs->bad);
	if (e == NULL && mf->nobj > 0 &&
	    (mf->byaddr = calloc(mf->nobj, sizeof(*r))) == NULL)
		e = prof_errf(ebuf, esz, "out of memory");
	if (e != NULL || mf->nobj == 0) {
		free(rs->pathoff);
		return e;
	}
	for (k = 0, r = mf->byaddr; k < mf->nobj; k++) {
		mf->obj[k].path = mf->paths + rs->pathoff[k];
		r[k].start = mf->obj[k].start;
		r[k].end = mf->obj[k].end;
		r[k].obj = k;
	}
	free(rs->pathoff);
	qsort(r, mf->nobj, sizeof(*r), bystart);
	for (k = 1; k < mf->nobj; k++)
		if (r[k].start < r[k - 1].end)
			return prof_errf(ebuf, esz, "shared object records "
			    "overlap at %#llx", (unsigned long long)r[k].start);
	return NULL;
}

/*
 * The record whose mapping holds the run-time address PC, as an index
 * into mf->obj, or -1.
 */
long
monobj_at(const struct monfile *mf, uint64_t pc)
{
	size_t lo = 0, hi = mf->nobj, mid;

	while (lo < hi) {		/* first record with start > pc */
		mid = lo + (hi - lo) / 2;
		if (mf->byaddr[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || pc >= mf->byaddr[lo - 1].end)
		return -1;
	return (long)mf->byaddr[lo - 1].obj;
}
