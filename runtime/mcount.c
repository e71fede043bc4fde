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

/* Where hooks count when PROFDIR is empty: fast, and never written. */
static long sink;

/* Whether this thread has run the slow path (MON_META_THREADS). */
static __thread int seen __attribute__((__tls_model__("initial-exec")));

static void
bind_sink(long **word)
{
	long *prev = NULL;

	MON_CAS(word, &prev, &sink);
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
		bind_sink(word);
		goto out;
	}
	if (!seen) {
		seen = 1;
		MON_ADD(&__mon_state.threads, 1);
	}
	c = __mon_mcount_cell(&__mon_state.cells, cell, pc);
	if (c == NULL || (s = __mon_arena_alloc(&__mon_state.slots)) == NULL) {
		bind_sink(word);
		goto out;
	}
	s->n.count = 1;
	MON_STORE(&s->cell, c);
	prev = NULL;
	if (!MON_CAS(word, &prev, &s->n.count)) {
		/* The word is shared (single/atomic mode) and was set. */
		s->n.count = 0;
		MON_STORE(&s->cell, (struct cnt *)NULL);
		if (prev != &sink)
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
