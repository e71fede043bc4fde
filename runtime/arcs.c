/* SPDX-License-Identifier: MIT */
/*
 * arcs.c - the -pg counts: caller -> callee arcs for gprof's call graph,
 * exact in every thread, with no lock.  The hook entries are mcount.c's
 * and stub.c's.
 *
 * Each thread counts in its own open-addressing table (an initial-exec
 * TLS pointer), so an arc costs a hash, a probe and a plain increment no
 * other thread writes; the hook then leaves the arc in the function's
 * thread-local cache, and the next call from the same place is counted
 * inline, with no call at all (mon.h).  A full table is frozen, not copied:
 * the thread starts one twice the size and the writer sums every table
 * ever made, so a count that lands late in a frozen table (a signal
 * handler grew the table under an interrupted increment) still counts.
 * A thread's table is a lease (arena.c): when the thread ends, a thread
 * that starts later adopts it and counts on in it, so that threads that
 * come and go reuse the tables of those gone.
 * A call that arrives while its own thread is inserting (a signal
 * handler) goes to one shared table whose entries are claimed by CAS.
 * An arc in the shared table is never cached: other threads count it.
 * Runs in signal handlers and before constructors: atomics and mmap
 * only, no malloc, locks, stdio or errno change.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <unistd.h>

#include "storage.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")	/* see stub.c */
#endif

#define ARC_FIRST	512	/* entries in a thread's first table */
#define ARC_SHARED	65536	/* entries in the shared table */

/* Read by the x86-64 stub (stub.c) too: initial-exec, one %fs load. */
__thread struct __mon_arc_thread __mon_arcs_mine
    __attribute__((__tls_model__("initial-exec")));

/* Every thread's tables (leases), and the shared one. */
static struct __mon_leases tabs = MON_LEASES_INIT(MON_LEASE_ARCS);
static struct __mon_arctab *shared;

static int used;	/* a -pg hook ran: the program writes gmon.out */
static long lost;	/* calls not counted: no memory */

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

static size_t
table_len(unsigned int log2n)
{
	return sizeof(struct __mon_arctab) +
	    ((size_t)1 << log2n) * sizeof(struct __mon_arc);
}

static void
table_init(struct __mon_arctab *t, unsigned int log2n, size_t maplen)
{
	t->mask = ((size_t)1 << log2n) - 1;
	t->shift = 64 - log2n;
	t->maplen = maplen;
	t->sites = NULL;
}

/* The shared table, mapped alone. */
static struct __mon_arctab *
table_map(unsigned int log2n)
{
	struct __mon_arctab *t;
	size_t len = table_len(log2n);

	if ((t = __mon_arena_map(len)) == NULL)
		return NULL;
	table_init(t, log2n, len);
	return t;
}

/*
 * A new table for this thread, a lease (the thread's table before, if
 * any, is frozen); not yet its own.
 */
static struct __mon_arctab *
table_lease(unsigned int log2n)
{
	struct __mon_arctab *t;

	if ((t = __mon_arena_lease(&tabs, table_len(log2n))) != NULL)
		table_init(t, log2n, 0);
	return t;
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
			MON_ADD(&a->n.count, 1);
			return 1;
		}
		if (f == from && MON_LOAD(&a->cell) == cell) {
			MON_ADD(&a->n.count, 1);
			return 1;
		}
	}
	return 0;
}

/*
 * Count one call of (from, cell) in this thread's table t, adding the
 * arc if it is new; the arc.  NULL if it is new and t is three quarters
 * full.
 */
static struct __mon_arc *
tally_own(struct __mon_arctab *t, uintptr_t from, struct cnt *cell)
{
	struct __mon_arc *a;
	size_t i = slot(t, from, cell), k;

	/*
	 * Bounded: with loose leases (arena.c) an ending thread may insert
	 * beside the table's next holder, and used may fall short.
	 */
	for (k = 0;; k++, i = (i + 1) & t->mask) {
		if (k > t->mask)
			return NULL;
		a = &t->arc[i];
		if (a->cell == NULL)
			break;
		if (a->cell == cell && a->from == from) {
			bump(&a->n.count);
			return a;
		}
	}
	if ((t->used + 1) * 4 > (t->mask + 1) * 3)
		return NULL;
	t->used++;
	a->from = from;
	a->n.count = 1;
	/* Last: the writer and this thread's handlers see a whole entry. */
	MON_STORE(&a->cell, cell);
	return a;
}

/* A signal handler interrupted this thread's insertion: count aside. */
static void
tally_aside(uintptr_t from, struct cnt *cell)
{
	struct __mon_arctab *s, *t;

	if ((s = MON_LOAD(&shared)) == NULL &&
	    (t = table_map(__builtin_ctz(ARC_SHARED))) != NULL) {
		if (MON_CAS(&shared, &s, t))
			s = t;
		else
			munmap(t, t->maplen);
	}
	if (s == NULL || !tally_shared(s, from, cell))
		MON_ADD(&lost, 1);
}

/*
 * A call the fast path could not count: the first call of the function
 * or of the arc in this thread, a full table, or a cell not yet made.
 * selfpc is a pc inside the called function.  The arc, if the caller
 * may cache it: in this thread's table.  The x86-64 stub calls it too.
 */
struct __mon_arc * __attribute__((__noinline__))
__mon_arcs_slow(struct cnt **cellp, uintptr_t from, char *selfpc)
{
	struct __mon_arctab *t, *n;
	struct __mon_arc *a = NULL;
	struct cnt *cell;
	int saved = errno;

	/*
	 * Counted even when PROFDIR is empty (nothing is written then): a
	 * sink arc would match only one caller, and every other call would
	 * come here.
	 */
	if (!MON_LOAD(&used))
		MON_STORE(&used, 1);
	cell = __mon_cells_claim(cellp, selfpc, 1);
	if (cell == NULL) {
		MON_ADD(&lost, 1);
		goto out;
	}
	if (__mon_arcs_mine.busy) {
		tally_aside(from, cell);
		goto out;
	}
	__mon_arcs_mine.busy = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if ((t = __mon_arcs_mine.tab) == NULL) {
		/* A new thread: the table of one gone, if there is one. */
		__mon_cells_thread();
		t = __mon_arcs_mine.tab = __mon_arena_adopt(&tabs);
		if (t != NULL)
			__mon_sites_follow(t, NULL);
	}
	if (t == NULL || (a = tally_own(t, from, cell)) == NULL) {
		n = table_lease(t == NULL ? __builtin_ctz(ARC_FIRST) :
		    64 - t->shift + 1);
		if (n == NULL)
			MON_ADD(&lost, 1);
		else {
			a = tally_own(n, from, cell);
			__mon_sites_follow(n, t);
			__mon_arcs_mine.tab = n;
		}
	} else
		__mon_sites_look(t);	/* a new arc: a new object? */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__mon_arcs_mine.busy = 0;
out:
	errno = saved;
	return a;
}

/*
 * Count a call of cellp's function from from (selfpc: a pc inside it);
 * the arc, if the caller may cache it.  An arc this thread has seen
 * costs a TLS load, a hash, a probe and an increment.
 */
struct __mon_arc *
__mon_arcs_count(struct cnt **cellp, uintptr_t from, char *selfpc)
{
	struct __mon_arctab *t = __mon_arcs_mine.tab;
	struct cnt *cell = MON_LOAD(cellp);
	struct __mon_arc *a;
	size_t i;

	if (t != NULL && cell != NULL) {
		for (i = slot(t, from, cell);; i = (i + 1) & t->mask) {
			a = &t->arc[i];
			if (a->cell == cell && a->from == from) {
				bump(&a->n.count);
				return a;
			}
			if (a->cell == NULL)
				break;
		}
	}
	return __mon_arcs_slow(cellp, from, selfpc);
}

/* Whether a -pg hook ran: the program is a -pg program. */
int
__mon_arcs_used(void)
{
	return MON_LOAD(&used);
}

/* Calls not counted for lack of memory. */
long
__mon_arcs_lost(void)
{
	return MON_LOAD(&lost);
}

/* Bytes mapped for arc tables and their blocks. */
size_t
__mon_arcs_mapped(void)
{
	struct __mon_arctab *t = MON_LOAD(&shared);

	return __mon_arena_leased(&tabs) + (t != NULL ? t->maplen : 0) +
	    __mon_sites_mapped();
}

static void
visit_table(struct __mon_arctab *t, void (*f)(struct __mon_arc *, void *),
    void *arg)
{
	size_t i;

	for (i = 0; i <= t->mask; i++)
		if (MON_LOAD(&t->arc[i].cell) != NULL)
			f(&t->arc[i], arg);
}

/* Call f(a, arg) for every arc a of every table, the shared one too. */
static void
visit(void (*f)(struct __mon_arc *, void *), void *arg)
{
	struct __mon_lease *l;
	struct __mon_arctab *t;

	MON_FOREACH_LEASE(&tabs, l, t)
		visit_table(t, f, arg);
	if ((t = MON_LOAD(&shared)) != NULL)
		visit_table(t, f, arg);
}

struct report {
	void	(*f)(uintptr_t, struct cnt *, long, void *);
	void	*arg;
	int	 on;
};

static void
report(struct __mon_arc *a, void *arg)
{
	struct report *r = arg;
	long n = __mon_tally_value(&a->n, r->on);

	if (n != 0)
		r->f(a->from, a->cell, n, r->arg);
}

/*
 * Call f(from, cell, count, arg) for every arc counted since the last
 * zeroing.  The same arc comes once per table that holds it (threads,
 * frozen tables): f adds them up.
 */
void
__mon_arcs_each(void (*f)(uintptr_t, struct cnt *, long, void *), void *arg)
{
	struct report r = { f, arg, __mon_mode_on() };

	visit(report, &r);
}

static void
add(struct __mon_arc *a, void *on)
{
	long n = __mon_tally_value(&a->n, *(int *)on);

	a->cell->mcnt += n;
}

/* Add every arc to its callee's cell, after __mon_cells_fold. */
void
__mon_arcs_fold(void)
{
	int on = __mon_mode_on();

	visit(add, &on);
}

/*
 * -threads: add the arcs of the tables of thread tid (and, if shared_too,
 * the main thread's file, the shared table's and those of no thread
 * alive but not yet written: __mon_cells_whose) to their callees'
 * cells, after __mon_cells_fold_tid.
 */
void
__mon_arcs_fold_tid(long tid, int shared_too)
{
	struct __mon_lease *l;
	struct __mon_arctab *t;
	int on = __mon_mode_on();

	MON_FOREACH_LEASE(&tabs, l, t)
		if (__mon_cells_whose(MON_LOAD(&l->tid), tid, shared_too))
			visit_table(t, add, &on);
	if (shared_too && (t = MON_LOAD(&shared)) != NULL)
		visit_table(t, add, &on);
}

/*
 * -threads: this thread ends.  Its tables keep their arcs for its file
 * and gmon.out (the process's): no later thread counts in them; once
 * its file is written (forget), nor a thread that gets its tid.
 */
void
__mon_arcs_keep(int forget)
{
	struct __mon_lease *l;
	long tid = __mon_self_tid();

	__mon_arena_keep(&tabs);
	__mon_sites_end(__mon_arcs_mine.tab);
	if (!forget)
		return;
	for (l = MON_LOAD(&tabs.all); l != NULL; l = l->next)
		if (MON_LOAD(&l->tid) == tid)
			MON_STORE(&l->tid, -1L);
}

static void
control(struct __mon_arc *a, void *on)
{
	__mon_tally_control(&a->n, *(int *)on);
}

/* moncontrol(on): the inline path counts on; the tallies exclude it. */
void
__mon_arcs_control(int on)
{
	visit(control, &on);
}

static void
zero(struct __mon_arc *a, void *on)
{
	__mon_tally_zero(&a->n, *(int *)on);
}

/* -sigdump after a dump: what was counted so far no longer counts. */
void
__mon_arcs_zero(void)
{
	int on = __mon_mode_on();

	visit(zero, &on);
}

static void
reset(struct __mon_arc *a, void *unused)
{
	(void)unused;
	__mon_tally_reset(&a->n);
}

/*
 * fork child: the only thread left, it starts every arc from zero, and
 * the tables of the threads left behind are free.
 */
void
__mon_arcs_reset(void)
{
	visit(reset, NULL);
	__mon_arena_orphan(&tabs);
	__mon_sites_reset();
}
