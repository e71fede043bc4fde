/* SPDX-License-Identifier: MIT */
/*
 * cells.c - the functions' cells (-p and -pg, in two arenas) and the -p
 * slots, each thread's in a set of its own that a later thread adopts
 * when it ends, and the passes over them: fold slots into cells,
 * moncontrol snapshots, zeroing (storage.h has the words).
 *
 * Claiming a cell and a slot runs in the hooks, in signal handlers and
 * before constructors: only atomics and mmap, never malloc, locks or
 * stdio.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <unistd.h>

#include "storage.h"

/* The slow path runs here behind a stub that saves no vector register. */
#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

/*
 * Cells of -p functions grow by blocks of MON_NFUNC, as Solaris's do;
 * every cell reserved is written (__mon_cells_unused).
 */
#define CELLS_GROWTH	(MON_CHUNK_HDR + MON_NFUNC * sizeof(struct cnt))

static struct __mon_arena cells =
    MON_ARENA_INIT_LEN(cells, struct cnt, CELLS_GROWTH);
static struct __mon_arena pgcells = MON_ARENA_INIT(pgcells, struct cnt);

/*
 * A set: a thread's slots, the first few in the set's lease, then 16 KB
 * chunks.  A thread finds its slot of a function without a lookup: its
 * slow path comes once per function.  One that adopts a set must find
 * the slots of the functions the threads before it called: an index by
 * cell, made at the first adoption and kept up from then on.
 */
struct set {
	struct __mon_arena  slots;
	struct __mon_chunk  first;
	struct __mon_slot **index;	/* open addressing by cell, or NULL */
	size_t		 mask;		/* entries - 1 */
	size_t		 indexed;
	size_t		 maplen;	/* the index's mapping */
	long		 tid;		/* its holder, or its last */
};

#define SET_LEN		(1024 - MON_LEASE_HDR)
#define SET_SLOTS	((SET_LEN - sizeof(struct set)) / sizeof(struct __mon_slot))
#define SET_CHUNK	(16 * 1024)

/*
 * The slots.  Each thread counts in a set of its own (a lease): released
 * when it ends, adopted whole by a thread that starts later, so that
 * threads that come and go reuse the slots of those gone.  Sets come
 * 63 to a 64 KB pool chunk: a thread alive costs a kilobyte, not a
 * page.  A signal handler that interrupts its thread's slow path takes
 * a slot aside.
 */
struct setspace {
	char		 b[MON_LEASE_HDR + SET_LEN];
};

static struct __mon_arena setpool = MON_ARENA_INIT(setpool, struct setspace);
static struct __mon_leases sets = MON_LEASES_POOL(MON_LEASE_SLOTS, setpool);
static struct __mon_arena aside = MON_ARENA_INIT(aside, struct __mon_slot);

static __thread struct set *mine __attribute__((__tls_model__("initial-exec")));
static __thread int busy __attribute__((__tls_model__("initial-exec")));
static __thread int counted __attribute__((__tls_model__("initial-exec")));

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

static size_t
hash(const struct set *t, const struct cnt *c)
{
	return (size_t)(((uintptr_t)c * 0x9e3779b97f4a7c15ULL) >> 32) & t->mask;
}

static void
index_put(struct set *t, struct __mon_slot *s)
{
	size_t k;

	for (k = hash(t, s->cell); t->index[k] != NULL; k = (k + 1) & t->mask)
		;
	t->index[k] = s;
	t->indexed++;
}

/*
 * Index every slot of t in a new table of n entries (a power of two; 0:
 * twice as many as t has slots, 64 at least).
 */
static void
index_make(struct set *t, size_t n)
{
	struct __mon_slot **x, **old = t->index, *s;
	struct __mon_chunk *c;
	size_t i, k, len, oldlen = t->maplen;
	int saved = errno;

	if (n == 0) {
		k = 0;
		MON_FOREACH(&t->slots, c, i, s)
			k++;
		for (n = 64; n < 2 * k; n *= 2)
			;
	}
	len = n * sizeof(*x);
	if ((x = __mon_arena_map(len)) == NULL)
		return;		/* unindexed slots get twins: still exact */
	t->index = x;
	t->mask = n - 1;
	t->maplen = len;
	t->indexed = 0;
	MON_FOREACH(&t->slots, c, i, s)
		if (s->cell != NULL)
			index_put(t, s);
	if (old != NULL)
		munmap(old, oldlen);
	errno = saved;
}

static struct __mon_slot *
index_find(const struct set *t, const struct cnt *cell)
{
	struct __mon_slot *s;
	size_t k;

	for (k = hash(t, cell); (s = t->index[k]) != NULL;
	    k = (k + 1) & t->mask)
		if (s->cell == cell)
			return s;
	return NULL;
}

static void
index_add(struct set *t, struct __mon_slot *s)
{
	if ((t->indexed + 1) * 4 > (t->mask + 1) * 3)
		index_make(t, (t->mask + 1) * 2);	/* s included */
	else
		index_put(t, s);
}

/* This thread's set: one a thread gone left, indexed, or a new one. */
static struct set *
set_take(void)
{
	struct set *t;

	if ((t = __mon_arena_adopt(&sets)) != NULL) {
		MON_STORE(&t->tid, __mon_self_tid());
		if (t->index == NULL)
			index_make(t, 0);
		return t;
	}
	if ((t = __mon_arena_lease(&sets, SET_LEN)) == NULL)
		return NULL;
	MON_STORE(&t->tid, __mon_self_tid());
	__mon_arena_start(&t->slots, sizeof(struct __mon_slot), SET_CHUNK,
	    &t->first, t + 1, SET_SLOTS);
	return t;
}

/* The slot of cell c in set t, found or new; NULL when mmap fails. */
static struct __mon_slot *
set_slot(struct set *t, struct cnt *c)
{
	struct __mon_slot *s;

	if (t->index != NULL && (s = index_find(t, c)) != NULL)
		return s;
	if ((s = __mon_arena_alloc(&t->slots)) == NULL)
		return NULL;
	MON_STORE(&s->cell, c);
	if (t->index != NULL)
		index_add(t, s);
	return s;
}

/*
 * This thread's slot for cell c, found (a set it adopted may have one)
 * or new with a count of 0; NULL when mmap fails.
 */
struct __mon_slot *
__mon_cells_slot(struct cnt *c)
{
	struct __mon_slot *s;
	struct set *t;

	if (busy) {
		if ((s = __mon_arena_alloc(&aside)) != NULL)
			MON_STORE(&s->cell, c);
		return s;
	}
	busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if ((t = mine) == NULL)
		t = mine = set_take();
	s = t != NULL ? set_slot(t, c) : NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	busy = 0;
	return s;
}

/* Every slot: aside, then every set's. */
static void
visit(void (*f)(struct __mon_slot *, int), int on)
{
	struct __mon_lease *l;
	struct __mon_chunk *c;
	struct __mon_slot *s;
	struct set *t;
	size_t i;

	MON_FOREACH(&aside, c, i, s)
		f(s, on);
	MON_FOREACH_LEASE(&sets, l, t)
		MON_FOREACH(&t->slots, c, i, s)
			f(s, on);
}

/* monitor(): its buffer's n cells at base are handed out next. */
int
__mon_cells_lend(struct cnt *base, size_t n)
{
	if (n == 0)
		return 0;
	return __mon_arena_lend(&cells, base, n);
}

/* A thread runs instrumented code: counted the first time. */
void
__mon_cells_thread(void)
{
	/* One instruction: a signal handler cannot count it twice. */
	if (__atomic_exchange_n(&counted, 1, __ATOMIC_RELAXED) == 0) {
		MON_ADD(&threads, 1);
		/* -threads: sids go by the first instrumented code run. */
		if (__mon_env_get()->threads)
			__mon_cells_sid(0);
	}
}

long
__mon_cells_threads(void)
{
	return MON_LOAD(&threads);
}

/*
 * -threads: each thread's sequence number (sid), 1 for the main thread
 * (tid == pid), then 2, 3, ... in the order threads are first seen (they
 * run instrumented code or are sampled).  A lock-free table by tid, one
 * word an entry: ended << 63 | sid << 32 | tid; a thread whose file is
 * written is marked ended, and a later thread with the same tid takes
 * the entry over.  Mapped at the first use; full, a thread is sid 1.
 */
#define SID_ENTRIES	65536
#define SID_ENDED	(1UL << 63)
#define SID_TID(w)	((long)((w) & 0xffffffffUL))
#define SID_SID(w)	((long)(((w) >> 32) & 0x7fffffffUL))

static unsigned long *sidtab;
static long sids = 1;			/* the last sid handed out */
static __thread long mysid __attribute__((__tls_model__("initial-exec")));

static unsigned long *
sid_table(void)
{
	unsigned long *t = MON_LOAD(&sidtab), *seen = NULL;

	if (t != NULL)
		return t;
	if ((t = __mon_arena_map(SID_ENTRIES * sizeof(*t))) == NULL)
		return NULL;
	if (MON_CAS(&sidtab, &seen, t))
		return t;
	munmap(t, SID_ENTRIES * sizeof(*t));
	return seen;
}

/* Where tid's entry is looked for first. */
static size_t
sid_hash(long tid)
{
	return (size_t)((unsigned long)tid * 0x9e3779b97f4a7c15UL >> 40) &
	    (SID_ENTRIES - 1);
}

/*
 * The sid of thread tid, given it on first sight; self: tid is this
 * thread, which takes an ended entry of its tid over (an old thread's).
 * Another thread's ended entry: 1 (what it does late goes to the main
 * thread's file, written last).
 */
static long
sid_find(long tid, int self)
{
	unsigned long *t = sid_table(), w, nw;
	size_t k, probe;
	long sid;

	if (t == NULL || tid <= 0 || tid > 0xffffffffL)
		return 1;
	k = sid_hash(tid);
	for (probe = 0; probe < SID_ENTRIES; ) {
		w = MON_LOAD(&t[k]);
		if (w != 0 && SID_TID(w) != tid) {
			probe++;
			k = (k + 1) & (SID_ENTRIES - 1);
			continue;
		}
		if (w != 0 && (w & SID_ENDED) == 0)
			return SID_SID(w);
		if (w != 0 && !self)
			return 1;
		sid = tid == __mon_self_pid() ? 1 : MON_ADD(&sids, 1) + 1;
		if (sid > 0x7fffffffL)
			return 1;
		nw = (unsigned long)sid << 32 | (unsigned long)tid;
		if (MON_CAS(&t[k], &w, nw))
			return sid;
		/* Lost to another insert: look at this entry again. */
	}
	return 1;
}

/* Whether thread tid has a sid and is not ended (no entry is made). */
static int
sid_live(long tid)
{
	unsigned long *t = MON_LOAD(&sidtab), w;
	size_t k, probe;

	if (t == NULL || tid <= 0 || tid > 0xffffffffL)
		return 0;
	for (k = sid_hash(tid), probe = 0; probe < SID_ENTRIES &&
	    (w = MON_LOAD(&t[k])) != 0;
	    probe++, k = (k + 1) & (SID_ENTRIES - 1))
		if (SID_TID(w) == tid && (w & SID_ENDED) == 0)
			return 1;
	return 0;
}

/*
 * -threads: whether the counts of storage last held by thread tid go to
 * the file of thread file: its own, or the main thread's (main_file)
 * if no thread alive has a file for them (a thread past the sids, one that
 * ended while no profile ran).  Written and zeroed sets add nothing.
 */
int
__mon_cells_whose(long tid, long file, int main_file)
{
	return tid == file || (main_file && tid != -1 && !sid_live(tid));
}

/*
 * -threads: the sid of thread tid (0: this thread).  Async-signal-safe:
 * the sampler's handler and drain call it.
 */
long
__mon_cells_sid(long tid)
{
	long s;

	if (tid != 0)
		return sid_find(tid, 0);
	if ((s = mysid) != 0)
		return s;
	s = sid_find(__mon_self_tid(), 1);
	mysid = s;
	return s;
}

/*
 * This thread's file is written: its entry is ended, and what it samples
 * from now on goes to the main thread's file.
 */
void
__mon_cells_sid_end(void)
{
	unsigned long *t = MON_LOAD(&sidtab), w;
	long tid = __mon_self_tid();
	size_t k;

	size_t probe;

	mysid = 1;
	if (t == NULL)
		return;
	/* Entries are never emptied: tid's is before the first empty one. */
	for (k = sid_hash(tid), probe = 0; probe < SID_ENTRIES &&
	    (w = MON_LOAD(&t[k])) != 0;
	    probe++, k = (k + 1) & (SID_ENTRIES - 1))
		if (SID_TID(w) == tid && (w & SID_ENDED) == 0) {
			MON_CAS(&t[k], &w, w | SID_ENDED);
			return;
		}
}

/* f(tid, sid, arg) for every thread seen and not ended. */
void
__mon_cells_sids(void (*f)(long, long, void *), void *arg)
{
	unsigned long *t = MON_LOAD(&sidtab), w;
	size_t k;

	if (t == NULL)
		return;
	for (k = 0; k < SID_ENTRIES; k++)
		if ((w = MON_LOAD(&t[k])) != 0 && (w & SID_ENDED) == 0)
			f(SID_TID(w), SID_SID(w), arg);
}

static void
add(struct __mon_slot *s, int on)
{
	struct cnt *p;

	if ((p = MON_LOAD(&s->cell)) != NULL)
		p->mcnt += __mon_tally_value(&s->n, on);
}

/* Zero the mcnt of a's cells; the number of live ones (fnpc set). */
static size_t
clear(struct __mon_arena *a)
{
	struct __mon_chunk *c;
	struct cnt *p;
	size_t i, n = 0;

	MON_FOREACH(a, c, i, p) {
		p->mcnt = 0;
		if (MON_LOAD(&p->fnpc) != NULL)
			n++;
	}
	return n;
}

/*
 * Set every cell's mcnt to the sum of its slots (a -pg cell's to 0: its
 * arcs are added by __mon_arcs_fold); return the number of live cells
 * (fnpc set).  Only the writer calls it, under its guard.
 */
size_t
__mon_cells_fold(void)
{
	size_t n;
	int on = __mon_mode_on();

	__mon_pcells_claim(__mon_cells_claim);
	n = clear(&cells);
	visit(add, on);
	__mon_pcells_add(on, NULL, 0, 0);
	return n + clear(&pgcells);
}

/*
 * -threads: as __mon_cells_fold, with the slots of the sets that thread
 * tid holds (or held last) only; if aside_too (the main thread's file),
 * those taken aside and the sets no thread alive writes.
 */
size_t
__mon_cells_fold_tid(long tid, int aside_too)
{
	struct __mon_lease *l;
	struct __mon_chunk *c;
	struct __mon_slot *s;
	struct set *t;
	size_t i, n;
	int on = __mon_mode_on();

	__mon_pcells_claim(__mon_cells_claim);
	n = clear(&cells);
	__mon_pcells_add(on, __mon_cells_whose, tid, aside_too);
	if (aside_too)
		MON_FOREACH(&aside, c, i, s)
			add(s, on);
	MON_FOREACH_LEASE(&sets, l, t)
		if (__mon_cells_whose(MON_LOAD(&t->tid), tid, aside_too))
			MON_FOREACH(&t->slots, c, i, s)
				add(s, on);
	return n + clear(&pgcells);
}

/*
 * -threads: thread tid's file is written; its sets start from zero, so
 * that a thread that adopts one counts from 0.
 */
void
__mon_cells_zero_tid(long tid)
{
	struct __mon_lease *l;
	struct __mon_chunk *c;
	struct __mon_slot *s;
	struct set *t;
	size_t i;
	int on = __mon_mode_on();

	MON_FOREACH_LEASE(&sets, l, t)
		if (MON_LOAD(&t->tid) == tid)
			MON_FOREACH(&t->slots, c, i, s)
				__mon_tally_zero(&s->n, on);
	__mon_pcells_zero(tid, on);
}

/* -threads: this thread's set is never handed on (the main thread's). */
void
__mon_cells_keep(void)
{
	__mon_arena_keep(&sets);
	__mon_pcells_keep();
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

/*
 * Cells reserved for -p functions and used by none: the rest of
 * monitor()'s nfunc and of each growth block, and cells left empty by a
 * lost race.  mon.out has them as zero cells after the others, so that
 * nfns counts every cell reserved, as Solaris writes it.
 */
size_t
__mon_cells_unused(void)
{
	struct __mon_chunk *c;
	struct cnt *p;
	size_t i, n = 0;

	for (c = MON_LOAD(&cells.head.next); c != NULL; c = MON_LOAD(&c->next))
		n += c->cap;
	MON_FOREACH(&cells, c, i, p)
		if (MON_LOAD(&p->fnpc) != NULL)
			n--;
	return n;
}

/* Bytes mapped for cells and slots. */
size_t
__mon_cells_mapped(void)
{
	struct __mon_lease *l;
	struct set *t;
	size_t n;

	n = __mon_arena_mapped(&cells) + __mon_arena_mapped(&pgcells) +
	    __mon_arena_mapped(&aside) + __mon_arena_mapped(&setpool) +
	    __mon_arena_leased(&sets);
	MON_FOREACH_LEASE(&sets, l, t)
		n += __mon_arena_mapped(&t->slots) + t->maplen;
	return n + __mon_pcells_mapped();
}

static void
control(struct __mon_slot *s, int on)
{
	__mon_tally_control(&s->n, on);
}

/* moncontrol: every slot's tally switches (storage.h). */
void
__mon_cells_control(int on)
{
	visit(control, on);
	__mon_pcells_control(on);
}

static void
zero(struct __mon_slot *s, int on)
{
	__mon_tally_zero(&s->n, on);
}

/* Zero the counts (-sigdump after a dump) without touching the hot path. */
void
__mon_cells_zero(void)
{
	visit(zero, __mon_mode_on());
	__mon_pcells_zero(0, __mon_mode_on());
}

static void
reset(struct __mon_slot *s, int unused)
{
	(void)unused;
	__mon_tally_reset(&s->n);
}

/*
 * fork child: alone in its process, it starts every slot from zero, and
 * the sets of the threads left behind are free.
 */
void
__mon_cells_reset(void)
{
	unsigned long *t = MON_LOAD(&sidtab);

	visit(reset, 0);
	__mon_arena_orphan(&sets);
	__mon_pcells_reset();
	MON_RESET(&threads, 1);
	/* -threads: the child's sids start again, its own thread is 1. */
	if (t != NULL)
		__mon_reset_zero(t, SID_ENTRIES * sizeof(*t));
	MON_RESET(&sids, 1);
	MON_RESET(&mysid, 0);
}
