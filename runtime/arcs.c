/* SPDX-License-Identifier: MIT */
/*
 * arcs.c - the -pg hook: counts caller -> callee arcs for gprof's call
 * graph, exactly, in every thread, with no lock.
 *
 * Each thread counts in its own open-addressing table (an initial-exec
 * TLS pointer), so the common case is a hash, a probe and a plain
 * increment no other thread writes.  A full table is frozen, not copied:
 * the thread starts one twice the size and the writer sums every table
 * ever made, so a count that lands late in a frozen table (a signal
 * handler grew the table under an interrupted increment) still counts.
 * A call that arrives while its own thread is inserting (a signal
 * handler) goes to one shared table whose entries are claimed by CAS.
 * Runs in signal handlers and before constructors: atomics and mmap
 * only, no malloc, locks, stdio or errno change.
 */
#include <sys/mman.h>

#include <errno.h>

#include "internal.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")	/* see stub.c */
#endif

#define ARC_FIRST	512	/* entries in a thread's first table */
#define ARC_SHARED	65536	/* entries in the shared table */

/* Read by the x86-64 stub (stub.c) too: initial-exec, one %fs load. */
__thread struct __mon_arc_thread __mon_arc_mine
    __attribute__((__tls_model__("initial-exec")));

/* Every thread's tables, newest first, and the shared one. */
static struct __mon_arctab *all;
static struct __mon_arctab *shared;

/*
 * ++*p in one instruction without a lock prefix: only the owner thread
 * writes the word, and a signal handler on that thread cannot split it.
 */
static inline void
bump(long *p)
{
#if defined(__x86_64__)
	__asm__("addq $1, %0" : "+m" (*p));
#else
	__atomic_fetch_add(p, 1, __ATOMIC_RELAXED);
#endif
}

/*
 * Fibonacci hashing of the key.  Text and cells lie far apart, so the
 * shift keeps their varying bits from cancelling out in the XOR.
 */
static inline size_t
slot(const struct __mon_arctab *t, uintptr_t from, const struct cnt *cell)
{
	uint64_t h = (from ^ ((uintptr_t)cell << 17)) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> t->shift);
}

static struct __mon_arctab *
table_new(unsigned int log2n)
{
	struct __mon_arctab *t;
	size_t n = (size_t)1 << log2n, len = sizeof(*t) + n * sizeof(t->arc[0]);
	int saved = errno;

	t = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	errno = saved;
	if (t == MAP_FAILED)
		return NULL;
	t->mask = n - 1;
	t->shift = 64 - log2n;
	t->maplen = len;
	return t;
}

static void
publish(struct __mon_arctab *t)
{
	struct __mon_arctab *head = MON_LOAD(&all);

	do
		t->next = head;
	while (!MON_CAS(&all, &head, t));
}

/*
 * Count one call of (from, cell) in the shared table.  An entry is
 * claimed by a CAS on from, then its cell is stored; an entry caught
 * half claimed is passed over, so the same arc may get two entries,
 * which the writer adds up.  Never waits.  0 when the table is full.
 */
static int
tally_shared(struct __mon_arctab *t, uintptr_t from, struct cnt *cell)
{
	struct __mon_arc *a;
	uintptr_t f;
	size_t i = slot(t, from, cell), k;

	for (k = 0; k <= t->mask; k++, i = (i + 1) & t->mask) {
		a = &t->arc[i];
		f = MON_LOAD(&a->from);
		if (f == 0 && MON_CAS(&a->from, &f, from)) {
			MON_STORE(&a->cell, cell);
			MON_ADD(&a->count, 1);
			return 1;
		}
		if (f == from && MON_LOAD(&a->cell) == cell) {
			MON_ADD(&a->count, 1);
			return 1;
		}
	}
	return 0;
}

/*
 * Count one call of (from, cell) in this thread's table t, adding the
 * arc if it is new.  0 if it is new and t is three quarters full.
 */
static int
tally_own(struct __mon_arctab *t, uintptr_t from, struct cnt *cell)
{
	struct __mon_arc *a;
	size_t i;

	for (i = slot(t, from, cell);; i = (i + 1) & t->mask) {
		a = &t->arc[i];
		if (a->cell == NULL)
			break;
		if (a->cell == cell && a->from == from) {
			bump(&a->count);
			return 1;
		}
	}
	if ((t->used + 1) * 4 > (t->mask + 1) * 3)
		return 0;
	t->used++;
	a->from = from;
	a->count = 1;
	a->base = 0;
	/* Last: the writer and this thread's handlers see a whole entry. */
	MON_STORE(&a->cell, cell);
	return 1;
}

/* A signal handler interrupted this thread's insertion: count aside. */
static void
tally_aside(uintptr_t from, struct cnt *cell)
{
	struct __mon_arctab *s, *t;

	if ((s = MON_LOAD(&shared)) == NULL &&
	    (t = table_new(__builtin_ctz(ARC_SHARED))) != NULL) {
		if (MON_CAS(&shared, &s, t))
			s = t;
		else
			munmap(t, t->maplen);
	}
	if (s == NULL || !tally_shared(s, from, cell))
		MON_ADD(&__mon_state.arcs_lost, 1);
}

/*
 * A call the fast path could not count: the first call of the function
 * or of the arc in this thread, a full table, or a cell not yet made.
 * selfpc is a pc inside the called function.
 */
void __attribute__((__noinline__))
__mon_arc_slow(struct cnt **cellp, uintptr_t from, char *selfpc)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_arctab *t, *n;
	struct cnt *cell;
	int saved = errno;

	if (MON_LOAD(&st->disabled))
		goto out;
	if (!MON_LOAD(&st->pg))
		MON_STORE(&st->pg, 1);
	cell = __mon_mcount_cell(&st->arcs, cellp, selfpc);
	if (cell == NULL) {
		MON_ADD(&st->arcs_lost, 1);
		goto out;
	}
	if (__mon_arc_mine.busy) {
		tally_aside(from, cell);
		goto out;
	}
	__mon_arc_mine.busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	t = __mon_arc_mine.tab;
	if (t == NULL || !tally_own(t, from, cell)) {
		if (t == NULL)
			MON_ADD(&st->threads, 1);
		n = table_new(t == NULL ? __builtin_ctz(ARC_FIRST) :
		    64 - t->shift + 1);
		if (n == NULL)
			MON_ADD(&st->arcs_lost, 1);
		else {
			tally_own(n, from, cell);
			publish(n);
			__mon_arc_mine.tab = n;
		}
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__mon_arc_mine.busy = 0;
out:
	errno = saved;
}

/*
 * The hook of -pg code (mon.h): the plugin calls it on every entry with
 * the function's cell word and the function's return address.  An arc
 * this thread has seen costs a TLS load, a hash, a probe and an
 * increment.  moncontrol(0) stops it.  On x86-64 the plugin calls
 * __mon_mcount_arc_stub instead, the same fast path in assembly.
 */
void __attribute__((__noinline__, __noclone__)) MON_EXPORT
__mon_mcount_arc(struct cnt **cellp, void *frompc)
{
	struct __mon_arctab *t = __mon_arc_mine.tab;
	struct cnt *cell = MON_LOAD(cellp);
	uintptr_t from = (uintptr_t)frompc;
	struct __mon_arc *a;
	size_t i;

	if (!MON_LOAD(&__mon_state.on))
		return;
	if (t != NULL && cell != NULL) {
		for (i = slot(t, from, cell);; i = (i + 1) & t->mask) {
			a = &t->arc[i];
			if (a->cell == cell && a->from == from) {
				bump(&a->count);
				return;
			}
			if (a->cell == NULL)
				break;
		}
	}
	__mon_arc_slow(cellp, from, __builtin_return_address(0));
}

static void
each_in(struct __mon_arctab *t,
    void (*f)(uintptr_t, struct cnt *, long, void *), void *arg)
{
	struct __mon_arc *a;
	struct cnt *cell;
	size_t i;
	long n;

	for (i = 0; i <= t->mask; i++) {
		a = &t->arc[i];
		if ((cell = MON_LOAD(&a->cell)) == NULL)
			continue;
		n = MON_LOAD(&a->count) - MON_LOAD(&a->base);
		if (n != 0)
			f(a->from, cell, n, arg);
	}
}

/*
 * Call f(from, cell, count, arg) for every arc counted since the last
 * zeroing.  The same arc comes once per table that holds it (threads,
 * frozen tables): f adds them up.
 */
void
__mon_arcs_each(void (*f)(uintptr_t, struct cnt *, long, void *), void *arg)
{
	struct __mon_arctab *t;

	for (t = MON_LOAD(&all); t != NULL; t = t->next)
		each_in(t, f, arg);
	if ((t = MON_LOAD(&shared)) != NULL)
		each_in(t, f, arg);
}

static void
zero(struct __mon_arctab *t, int reset)
{
	size_t i;

	for (i = 0; i <= t->mask; i++) {
		if (reset)
			t->arc[i].count = 0;
		MON_STORE(&t->arc[i].base, MON_LOAD(&t->arc[i].count));
	}
}

/* -sigdump after a dump: what was counted so far no longer counts. */
void
__mon_arcs_zero(void)
{
	struct __mon_arctab *t;

	for (t = MON_LOAD(&all); t != NULL; t = t->next)
		zero(t, 0);
	if ((t = MON_LOAD(&shared)) != NULL)
		zero(t, 0);
}

/* fork child: the only thread left, it starts every arc from zero. */
void
__mon_arcs_reset(void)
{
	struct __mon_arctab *t;

	for (t = MON_LOAD(&all); t != NULL; t = t->next)
		zero(t, 1);
	if ((t = MON_LOAD(&shared)) != NULL)
		zero(t, 1);
}
