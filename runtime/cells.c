/* SPDX-License-Identifier: MIT */
/*
 * cells.c - storage for struct cnt cells and per-thread counter slots:
 * lock-free chunks that grow without bound, and the passes over them
 * (fold into cells, moncontrol snapshots, zeroing).
 *
 * Called from the hook and from signal handlers: only atomics and
 * mmap/munmap, never malloc, locks or stdio.
 */
#include <sys/mman.h>

#include <errno.h>
#include <string.h>

#include "internal.h"

/* The slow path runs here behind a stub that saves no vector register. */
#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

#define HDRLEN	64	/* chunk header, rounded up to a cache line */

static struct __mon_chunk *
chunk_map(struct __mon_arena *a)
{
	struct __mon_chunk *c;
	int saved = errno;

	c = mmap(NULL, a->chunklen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = saved;
	if (c == MAP_FAILED)
		return NULL;
	c->base = (char *)c + HDRLEN;
	c->cap = (a->chunklen - HDRLEN) / a->elsize;
	c->maplen = a->chunklen;
	return c;
}

static void
append(struct __mon_arena *a, struct __mon_chunk *c)
{
	struct __mon_chunk *t, *next;

	for (;;) {
		t = MON_LOAD(&a->tail);
		next = NULL;
		if (MON_CAS(&t->next, &next, c)) {
			MON_CAS(&a->tail, &t, c);
			return;
		}
		/* Another append is half done: finish it for them. */
		MON_CAS(&a->tail, &t, next);
	}
}

/*
 * Hand out one zeroed element: from the current chunk by an atomic bump,
 * or from a new mapping when it is full.  NULL only when mmap fails.
 */
void *
__mon_arena_alloc(struct __mon_arena *a)
{
	struct __mon_chunk *c, *n;
	size_t i;

	for (;;) {
		c = MON_LOAD(&a->cur);
		if (c != NULL) {
			i = MON_ADD(&c->used, 1);
			if (i < c->cap)
				return c->base + i * a->elsize;
		}
		if ((n = chunk_map(a)) == NULL)
			return NULL;
		n->used = 1;
		if (MON_CAS(&a->cur, &c, n)) {
			append(a, n);
			return n->base;
		}
		/* Lost the race: use the winner's chunk. */
		munmap(n, n->maplen);
	}
}

/* Make c (e.g. a monitor() buffer's cells) the chunk to allocate from. */
void
__mon_arena_add(struct __mon_arena *a, struct __mon_chunk *c)
{
	append(a, c);
	MON_STORE(&a->cur, c);
}

/* A -pg function's count is the sum of its incoming arcs. */
static void
add_arc(uintptr_t from, struct cnt *cell, long n, void *arg)
{
	(void)from;
	(void)arg;
	cell->mcnt += n;
}

/*
 * Sum every slot (and every -pg arc) into its cell's mcnt; return the
 * number of live cells (fnpc set).  Only the writer calls it, under its guard.
 */
size_t
__mon_cells_fold(void)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_chunk *c;
	struct __mon_slot *s;
	struct cnt *p;
	size_t i, n;
	int on = MON_LOAD(&st->on);

	n = 0;
	MON_FOREACH(&st->cells, c, i, p) {
		p->mcnt = 0;
		if (MON_LOAD(&p->fnpc) != NULL)
			n++;
	}
	MON_FOREACH(&st->slots, c, i, s) {
		if ((p = MON_LOAD(&s->cell)) == NULL)
			continue;
		p->mcnt += __mon_tally_value(&s->n, on);
	}
	MON_FOREACH(&st->arcs, c, i, p) {
		p->mcnt = 0;
		if (MON_LOAD(&p->fnpc) != NULL)
			n++;
	}
	__mon_arcs_each(add_arc, NULL);
	return n;
}

/* moncontrol: every slot's and arc's tally switches (internal.h). */
void
__mon_cells_control(int on)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;

	__mon_arcs_control(on);
	MON_FOREACH(&__mon_state.slots, c, i, s)
		__mon_tally_control(&s->n, on);
}

/* Zero the counts (-sigdump after a dump) without touching the hot path. */
void
__mon_cells_zero(void)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;
	int on = MON_LOAD(&__mon_state.on);

	__mon_arcs_zero();
	MON_FOREACH(&__mon_state.slots, c, i, s)
		__mon_tally_zero(&s->n, on);
}

/* fork child: alone in its process, it starts every slot from zero. */
void
__mon_cells_reset(void)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;

	__mon_arcs_reset();
	MON_FOREACH(&__mon_state.slots, c, i, s)
		__mon_tally_reset(&s->n);
}
