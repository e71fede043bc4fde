/* SPDX-License-Identifier: MIT */
/*
 * mcount.c - the slow path of the -p hook ABI (mon.h): the first call of
 * a function (per thread, in the default mode) gets its cell and a
 * counter.  (The -pg hook is in arcs.c.)
 *
 * It may run before any constructor, inside a signal handler, in many
 * threads at once: only atomics and mmap, no malloc, locks, stdio or
 * errno change, and it never calls instrumented code.  On x86-64 the
 * plugin reaches it through __mon_mcount_stub (stub.c), which saves
 * only the general registers: this file and cells.c, the code it runs,
 * use no vector register, and call no libc function that might.
 */
#include <errno.h>

#include "internal.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

/*
 * Where hooks count when PROFDIR is empty: never written out.  Each
 * thread has a block of its own (threads share one only past
 * SINK_THREADS), so threads do not fight over a cache line, and in it
 * each function a word picked by its cell's address, so the calls of
 * different functions are not one chain of dependent increments.  The
 * blocks outlive every thread: a word shared by all threads (single or
 * atomic mode) may keep pointing into the block of a thread that ended.
 */
#define SINK_THREADS	64
#define SINK_WORDS	32	/* per thread: 256 bytes, four lines */
static long sink[SINK_THREADS][SINK_WORDS] __attribute__((__aligned__(128)));
static unsigned sink_next;
static __thread unsigned sink_mine __attribute__((__tls_model__("initial-exec")));

/* Whether this thread has run the slow path (MON_META_THREADS). */
static __thread int seen __attribute__((__tls_model__("initial-exec")));

static void
bind_sink(long **word, struct cnt **cell)
{
	long *prev = NULL;

	if (sink_mine == 0)
		sink_mine = MON_ADD(&sink_next, 1) % SINK_THREADS + 1;
	MON_CAS(word, &prev, &sink[sink_mine - 1][
	    (uintptr_t)cell / sizeof(*cell) % SINK_WORDS]);
}

static int
is_sink(const long *p)
{
	uintptr_t a = (uintptr_t)p, s = (uintptr_t)sink;

	return a >= s && a < s + sizeof(sink);
}

/*
 * The function's cell, allocated from arena a on first use with fnpc =
 * pc (a pc inside the function) and published by a compare-and-swap.
 * Shared with the -pg hook (arcs.c).  NULL only when mmap fails.
 */
struct cnt *
__mon_mcount_cell(struct __mon_arena *a, struct cnt **cell, char *pc)
{
	struct cnt *c, *old;

	if ((c = MON_LOAD(cell)) != NULL)
		return c;
	if ((c = __mon_arena_alloc(a)) == NULL)
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

/*
 * The first call of a function in this thread (or, with a shared word,
 * in the program): pc is a pc inside the function.
 */
void
__mon_mcount_slow_at(long **word, struct cnt **cell, char *pc)
{
	struct __mon_slot *s;
	struct cnt *c;
	long *prev;
	int saved = errno;

	if (MON_LOAD(&__mon_state.disabled)) {
		bind_sink(word, cell);
		goto out;
	}
	if (!seen) {
		seen = 1;
		MON_ADD(&__mon_state.threads, 1);
	}
	c = __mon_mcount_cell(&__mon_state.cells, cell, pc);
	if (c == NULL || (s = __mon_arena_alloc(&__mon_state.slots)) == NULL) {
		bind_sink(word, cell);
		goto out;
	}
	s->n.count = 1;
	MON_STORE(&s->cell, c);
	prev = NULL;
	if (!MON_CAS(word, &prev, &s->n.count)) {
		/* The word is shared (single/atomic mode) and was set. */
		s->n.count = 0;
		MON_STORE(&s->cell, (struct cnt *)NULL);
		if (!is_sink(prev))
			MON_ADD(prev, 1);
	}
out:
	errno = saved;
}

/* The hook ABI's C entry: the caller's return address is the pc. */
void __attribute__((__noinline__, __noclone__)) MON_EXPORT
__mon_mcount_slow(long **word, struct cnt **cell)
{
	__mon_mcount_slow_at(word, cell, __builtin_return_address(0));
}
