/* SPDX-License-Identifier: MIT */
/*
 * callstacks.c - the sampled call stacks of every profile added, in the
 * symbol table's addresses and the report's rows, equal stacks summed;
 * and from them each row's inclusive time: the time of the samples
 * whose stack passes through it, each sample counted once however often
 * its function recurs in the stack.
 *
 * A caller's frame is its return address less one, so that it lies in
 * the call instruction (a call at a function's end returns past it),
 * and the line table names the call's line.  Frames of the runtime
 * (__wrap_main, which calls main, and the __mon_ functions a thread
 * starts through) are left out: the report never shows the runtime.
 */
#include <err.h>

#include "mon.h"
#include "model.h"

void
callstacks_init(struct callstacks *cs, const struct symtab *st)
{
	memset(cs, 0, sizeof(*cs));
	cs->st = st;
	if ((cs->incl = calloc(st->nent + 1, sizeof(*cs->incl))) == NULL ||
	    (cs->hidden = calloc(st->nent + 1, 1)) == NULL ||
	    (cs->stamp = calloc(st->nent + 1, sizeof(*cs->stamp))) == NULL)
		err(1, "callstacks");
}

void
callstacks_free(struct callstacks *cs)
{
	free(cs->frame);
	free(cs->stack);
	free(cs->slot);
	free(cs->incl);
	free(cs->hidden);
	free(cs->stamp);
	memset(cs, 0, sizeof(*cs));
}

/* Whether row K is the runtime's (cached in hidden[]: 2 yes, 1 no). */
static int
runtime_row(struct callstacks *cs, long k)
{
	const char *name;

	if (cs->hidden[k] == 0) {
		name = rows_symbol(cs->st, k);
		cs->hidden[k] = cs->st->ent[k].runtime ||
		    strncmp(name, "__mon_", 6) == 0 ||
		    strcmp(name, "__wrap_main") == 0 ? 2 : 1;
	}
	return cs->hidden[k] == 2;
}

/* The row of a frame at table address A (in the object OBJPATH). */
static long
rowof(const struct callstacks *cs, uint64_t a, const char *objpath)
{
	const struct symtab *st = cs->st;
	long k, row;

	if (a != 0 && (k = symtab_function(st, a)) >= 0 && st->ent[k].row >= 0)
		return st->ent[k].row;
	if (a == 0 && objpath == NULL)
		return REPORT_UNKNOWN(st);
	row = symtab_object_row(st, objpath);
	return row >= 0 ? row : REPORT_UNKNOWN(st);
}

static uint64_t
hashof(const struct csframe *f, size_t n)
{
	uint64_t h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ f[i].addr ^ (uint64_t)f[i].row << 40) *
		    1099511628211ULL;
	return h;
}

/* The index + 1 of the stack equal to F[0..n), or its free slot's 0. */
static size_t *
find(struct callstacks *cs, const struct csframe *f, size_t n, uint64_t h)
{
	const struct csstack *s;
	size_t i, *slot, cap;

	if (2 * (cs->nstack + 1) > cs->nslot) {
		cap = cs->nslot ? 2 * cs->nslot : 1024;
		if ((slot = calloc(cap, sizeof(*slot))) == NULL)
			err(1, "callstacks");
		for (i = 0; i < cs->nstack; i++) {
			size_t j = cs->stack[i].hash & (cap - 1);

			while (slot[j] != 0)
				j = (j + 1) & (cap - 1);
			slot[j] = i + 1;
		}
		free(cs->slot);
		cs->slot = slot;
		cs->nslot = cap;
	}
	for (i = h & (cs->nslot - 1); cs->slot[i] != 0;
	    i = (i + 1) & (cs->nslot - 1)) {
		s = &cs->stack[cs->slot[i] - 1];
		if (s->hash == h && s->depth == n && memcmp(&cs->frame[s->off],
		    f, n * sizeof(*f)) == 0)
			break;
	}
	return &cs->slot[i];
}

/* Add the stack F[0..n), root first, with SAMPLES at RATE. */
static void
addstack(struct callstacks *cs, const struct csframe *f, size_t n,
    long samples, double rate)
{
	uint64_t h = hashof(f, n);
	size_t *slot = find(cs, f, n, h);
	struct csstack *s;

	if (*slot == 0) {
		if (prof_grow(&cs->stack, &cs->stackcap, cs->nstack + 1,
		    sizeof(*s)) != 0 || prof_grow(&cs->frame, &cs->framecap,
		    cs->nframe + n, sizeof(*f)) != 0)
			err(1, "callstacks");
		s = &cs->stack[cs->nstack];
		memset(s, 0, sizeof(*s));
		s->off = cs->nframe;
		s->depth = n;
		s->hash = h;
		memcpy(&cs->frame[cs->nframe], f, n * sizeof(*f));
		cs->nframe += n;
		*slot = ++cs->nstack;
	}
	s = &cs->stack[*slot - 1];
	s->samples += samples;
	s->secs += samples / rate;
}

/*
 * Add MF's stacks, sampled at RATE: NULL, or a message (in EBUF).  A
 * profile without them adds nothing (its time has no stacks: the
 * inclusive times are then short, which callstacks_share() tells).
 */
const char *
callstacks_add(struct callstacks *cs, const struct monfile *mf, double rate,
    char *ebuf, size_t esz)
{
	const struct symobj **objof;
	struct csframe f[MONSTACKS_DEPTH];
	uint64_t pc[MONSTACKS_DEPTH], a;
	const char *path;
	size_t i, k, n, d;
	long row, o;

	if (!(mf->has & MONREAD_HAS(MON_META_STACKS_LOST)))
		return NULL;
	cs->has = 1;
	cs->lost += mf->meta[MON_META_STACKS_LOST];
	if ((objof = symtab_records(cs->st, mf)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (k = 0; k < mf->nstack; k++) {
		if (mf->stack[k].samples <= 0)
			continue;
		d = monstacks_frames(mf, k, pc);
		/* pc[] is leaf first; f[] root first, the runtime left out. */
		for (n = 0, i = d; i-- > 0;) {
			a = i == 0 || pc[i] == 0 ? pc[i] : pc[i] - 1;
			o = monobj_at(mf, a);
			path = o >= 0 ? mf->obj[o].path : NULL;
			a = symtab_profile_addr(mf, objof, a);
			row = rowof(cs, a, path);
			if (row != REPORT_UNKNOWN(cs->st) && runtime_row(cs, row))
				continue;
			f[n].addr = a;
			f[n].row = row;
			n++;
		}
		if (n == 0)
			continue;
		addstack(cs, f, n, mf->stack[k].samples, rate);
		cs->samples += mf->stack[k].samples;
		cs->secs += mf->stack[k].samples / rate;
	}
	free(objof);
	return NULL;
}

/*
 * Each row's inclusive time, once every profile is added: a stack's
 * time goes to each row in it once.  A row's inclusive time is at least
 * its own (SELF, the report's from the histogram, which shares a bin
 * between the functions it overlaps where a stack's pc is exact).
 */
void
callstacks_done(struct callstacks *cs, const double *self)
{
	const struct csstack *s;
	size_t i, j;
	long row;

	for (i = 0; i < cs->nstack; i++) {
		s = &cs->stack[i];
		for (j = 0; j < s->depth; j++) {
			row = cs->frame[s->off + j].row;
			if (cs->stamp[row] == i + 1)
				continue;
			cs->stamp[row] = i + 1;
			cs->incl[row] += s->secs;
		}
	}
	for (i = 0; i <= cs->st->nent; i++)
		if (cs->incl[i] < self[i])
			cs->incl[i] = self[i];
}
