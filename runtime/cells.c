/* SPDX-License-Identifier: MIT */
/*
 * cells.c - the functions' cells (-p and -pg, in two arenas) and the -p
 * slots, and the passes over them: fold slots into cells, moncontrol
 * snapshots, zeroing (storage.h has the words).
 *
 * Claiming a cell and a slot runs in the hooks, in signal handlers and
 * before constructors: only atomics and mmap, never malloc, locks or
 * stdio.
 */
#include "storage.h"

/* The slow path runs here behind a stub that saves no vector register. */
#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

static struct __mon_arena cells = MON_ARENA_INIT(cells, struct cnt);
static struct __mon_arena pgcells = MON_ARENA_INIT(pgcells, struct cnt);
static struct __mon_arena slots = MON_ARENA_INIT(slots, struct __mon_slot);

/* Threads that ran instrumented code (MON_META_THREADS). */
static long threads;

/*
 * The function's cell, allocated (from the -pg arena if pg) on first use
 * with fnpc = pc, a pc inside the function, and published by a
 * compare-and-swap.  NULL only when mmap fails.
 */
struct cnt *
__mon_cells_claim(struct cnt **cell, char *pc, int pg)
{
	struct cnt *c, *old;

	if ((c = MON_LOAD(cell)) != NULL)
		return c;
	if ((c = __mon_arena_alloc(pg ? &pgcells : &cells)) == NULL)
		return NULL;
	c->mcnt = 0;
	MON_STORE(&c->fnpc, pc);
	old = NULL;
	if (MON_CAS(cell, &old, c))
		return c;
	/* Another thread (or a signal handler) won: this cell stays empty. */
	MON_STORE(&c->fnpc, (char *)NULL);
	return old;
}

/* A new zeroed slot, or NULL when mmap fails. */
struct __mon_slot *
__mon_cells_slot(void)
{
	return __mon_arena_alloc(&slots);
}

/* monitor(): its buffer's n cells at base are handed out next. */
int
__mon_cells_lend(struct cnt *base, size_t n)
{
	if (n == 0)
		return 0;
	return __mon_arena_lend(&cells, base, n);
}

/* A thread ran instrumented code for the first time. */
void
__mon_cells_thread(void)
{
	MON_ADD(&threads, 1);
}

long
__mon_cells_threads(void)
{
	return MON_LOAD(&threads);
}

/*
 * Set every cell's mcnt to the sum of its slots (a -pg cell's to 0: its
 * arcs are added by __mon_arcs_fold); return the number of live cells
 * (fnpc set).  Only the writer calls it, under its guard.
 */
size_t
__mon_cells_fold(void)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	struct cnt *p;
	size_t i, n = 0;
	int on = __mon_mode_on();

	MON_FOREACH(&cells, c, i, p) {
		p->mcnt = 0;
		if (MON_LOAD(&p->fnpc) != NULL)
			n++;
	}
	MON_FOREACH(&slots, c, i, s) {
		if ((p = MON_LOAD(&s->cell)) == NULL)
			continue;
		p->mcnt += __mon_tally_value(&s->n, on);
	}
	MON_FOREACH(&pgcells, c, i, p) {
		p->mcnt = 0;
		if (MON_LOAD(&p->fnpc) != NULL)
			n++;
	}
	return n;
}

/* Call f(cell, arg) for every live cell: -p ones, then -pg ones. */
void
__mon_cells_each(void (*f)(struct cnt *, void *), void *arg)
{
	struct __mon_chunk *c;
	struct cnt *p;
	size_t i;

	MON_FOREACH(&cells, c, i, p)
		if (MON_LOAD(&p->fnpc) != NULL)
			f(p, arg);
	MON_FOREACH(&pgcells, c, i, p)
		if (MON_LOAD(&p->fnpc) != NULL)
			f(p, arg);
}

/* Whether a function cell (-p or -pg) has its fnpc in [lo, hi). */
int
__mon_cells_within(uintptr_t lo, uintptr_t hi)
{
	struct __mon_chunk *c;
	struct cnt *p;
	uintptr_t pc;
	size_t i;

	MON_FOREACH(&cells, c, i, p) {
		pc = (uintptr_t)MON_LOAD(&p->fnpc);
		if (pc >= lo && pc < hi)
			return 1;
	}
	MON_FOREACH(&pgcells, c, i, p) {
		pc = (uintptr_t)MON_LOAD(&p->fnpc);
		if (pc >= lo && pc < hi)
			return 1;
	}
	return 0;
}

/* Bytes mapped for cells and slots: they grow linearly. */
size_t
__mon_cells_mapped(void)
{
	return __mon_arena_mapped(&cells) + __mon_arena_mapped(&pgcells) +
	    __mon_arena_mapped(&slots);
}

/* moncontrol: every slot's tally switches (storage.h). */
void
__mon_cells_control(int on)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;

	MON_FOREACH(&slots, c, i, s)
		__mon_tally_control(&s->n, on);
}

/* Zero the counts (-sigdump after a dump) without touching the hot path. */
void
__mon_cells_zero(void)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;
	int on = __mon_mode_on();

	MON_FOREACH(&slots, c, i, s)
		__mon_tally_zero(&s->n, on);
}

/* fork child: alone in its process, it starts every slot from zero. */
void
__mon_cells_reset(void)
{
	struct __mon_chunk *c;
	struct __mon_slot *s;
	size_t i;

	MON_FOREACH(&slots, c, i, s)
		__mon_tally_reset(&s->n);
	MON_STORE(&threads, 1);
}
