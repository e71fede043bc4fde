/* SPDX-License-Identifier: MIT */
/*
 * monstacks.c - the sampled call stacks of a mon.out (MON_META_STACK and
 * MON_META_FRAME, <mon.h>), read as monread.c scans the metadata cells.
 *
 * A STACK cell keeps the first frames of the stack before it and its
 * FRAME cells add the rest, root first.  The frames are read into a
 * tree, a node per FRAME cell (its parent the frame before it), and a
 * stack is its last node: memory grows with the cells in the file, never
 * with the frames a hostile file makes its stacks repeat.
 */
#include "mon.h"
#include "input.h"

/* The node at depth d (1: the root frame) on the way up from node n. */
static uint32_t
ancestor(const struct monfile *mf, uint32_t n, uint32_t d)
{
	while (n != 0 && mf->frame[n - 1].depth > d)
		n = mf->frame[n - 1].parent;
	return n;
}

/*
 * Metadata cell I (KEY, V) of MF: NULL, or a message (in EBUF) for a
 * malformed stack or no memory.  Other keys end nothing: a stack's frames
 * are the FRAME cells that follow its STACK cell.
 */
const char *
monstacks_cell(struct monfile *mf, struct monstacksread *rs, size_t i,
    uint64_t key, long v, char *ebuf, size_t esz)
{
	struct monstack *s;
	struct monframe *f;
	uint32_t keep, parent;

	if (key == MON_META_STACK) {
		keep = (uint32_t)(v & 0xff);
		if (v < 0)
			return prof_errf(ebuf, esz, "cell %zu: negative "
			    "sample count in a stack", i);
		if (keep > rs->depth)
			return prof_errf(ebuf, esz, "cell %zu: a stack keeps "
			    "%u frames of one of %u", i, keep, rs->depth);
		if (prof_grow(&mf->stack, &rs->stackcap, mf->nstack + 1,
		    sizeof(*s)) != 0)
			return prof_errf(ebuf, esz, "out of memory");
		s = &mf->stack[mf->nstack++];
		s->samples = v >> 8;
		s->node = ancestor(mf, rs->last, keep);
		s->depth = keep;
		rs->last = s->node;
		rs->depth = keep;
		return NULL;
	}
	if (key != MON_META_FRAME)
		return NULL;
	if (mf->nstack == 0)
		return prof_errf(ebuf, esz, "cell %zu: a frame before any "
		    "stack", i);
	s = &mf->stack[mf->nstack - 1];
	if (s->depth >= MONSTACKS_DEPTH)
		return prof_errf(ebuf, esz, "cell %zu: a stack deeper than "
		    "%d frames", i, MONSTACKS_DEPTH);
	if (mf->nframe >= UINT32_MAX - 1 || prof_grow(&mf->frame,
	    &rs->framecap, mf->nframe + 1, sizeof(*f)) != 0)
		return prof_errf(ebuf, esz, "out of memory");
	parent = s->node;
	f = &mf->frame[mf->nframe++];
	f->pc = (uint64_t)v;
	f->parent = parent;
	f->depth = ++s->depth;
	s->node = (uint32_t)mf->nframe;
	rs->last = s->node;
	rs->depth = s->depth;
	return NULL;
}

/*
 * Stack K's frames into pc[], leaf first (pc[0] the sampled pc, then
 * the return addresses): how many, at most MONSTACKS_DEPTH.
 */
size_t
monstacks_frames(const struct monfile *mf, size_t k, uint64_t *pc)
{
	uint32_t n = mf->stack[k].node;
	size_t d = 0;

	while (n != 0 && d < MONSTACKS_DEPTH) {
		pc[d++] = mf->frame[n - 1].pc;
		n = mf->frame[n - 1].parent;
	}
	return d;
}
