/* SPDX-License-Identifier: MIT */
/*
 * mcount.c - the C entries of the hook ABI (mon.h): the -p slow path, the
 * first call of a function (per thread, in the default mode), which gets
 * it a cell and a counter; the -pg hook, which counts an arc; and the
 * -pg call sites' announcements, which the plugin's code uses.  On x86-64 the plugin calls the stubs of stub.c instead, which
 * come here (-p) or to arcs.c (-pg).
 *
 * It may run before any constructor, inside a signal handler, in many
 * threads at once: only atomics, mmap and system calls (and, once a
 * thread, pthread_setspecific: arena.c), no malloc, locks, stdio or
 * errno change, and it never calls instrumented code.  The stubs save
 * only the general registers: this file and the storage it calls use no
 * vector register, and call no libc function that might.
 */
#include <errno.h>

#include "hooks.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

/*
 * Every instrumented object calls into this file (or into stub.c, which
 * calls it), so linking one with libmonprof.a pulls it in, and this
 * reference to the constructor (init.c) pulls in the rest of the
 * runtime.  For the linker only: nothing here calls it.
 */
__asm__(".globl __mon_init");

/*
 * The mark whose address tells -fPIC code that it is in an executable,
 * whose section of call-site records the runtime keeps blocks for.
 * Hidden: a shared object's reference stays 0 (the specs file links
 * this archive into executables only; libmonprof.so's copy is its own).
 */
const char __mon_mcount_exe __attribute__((__visibility__("hidden"))) = 1;

/* PROFDIR is empty: new words go to the sink, nothing is written. */
static int disabled;

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

/* PROFDIR empty (at start or at a monitor() call): from now on, sink. */
void
__mon_mcount_disable(int off)
{
	MON_STORE(&disabled, off != 0);
	if (off)
		__mon_arena_loose();
}

int
__mon_mcount_disabled(void)
{
	return MON_LOAD(&disabled);
}

/*
 * The first call of a function in this thread (or, with a shared word,
 * in the program): pc is a pc inside the function.  The x86-64 stub
 * calls it too.
 */
void
__mon_mcount_slow_at(long **word, struct cnt **cell, char *pc)
{
	struct __mon_slot *s;
	struct cnt *c;
	long *prev;
	int saved = errno;

	if (MON_LOAD(&disabled)) {
		bind_sink(word, cell);
		goto out;
	}
	__mon_cells_thread();
	c = __mon_cells_claim(cell, pc, 0);
	if (c == NULL || (s = __mon_cells_slot(c)) == NULL) {
		bind_sink(word, cell);
		goto out;
	}
	/*
	 * This call counts after the word is published: a slot of a set
	 * this thread adopted has counts already, and a shared word's
	 * (single/atomic mode) is counted by every thread.
	 */
	prev = NULL;
	if (MON_CAS(word, &prev, &s->n.count))
		MON_ADD(&s->n.count, 1);
	else if (!is_sink(prev))
		MON_ADD(prev, 1);	/* a shared word, set meanwhile */
out:
	errno = saved;
}

/* The -p hook: the caller's return address is the pc. */
void __attribute__((__noinline__, __noclone__)) MON_EXPORT
__mon_mcount_slow(long **word, struct cnt **cell)
{
	__mon_mcount_slow_at(word, cell, __builtin_return_address(0));
}

/*
 * The -pg hook, called when the function's arc cache does not hold this
 * caller (the first call, or a call from another place than the last):
 * count the arc and cache it.
 */
void __attribute__((__noinline__, __noclone__)) MON_EXPORT
__mon_mcount_arc_cache(struct cnt **cellp, void *frompc, long **cache)
{
	struct __mon_arc *a;

	a = __mon_arcs_count(cellp, (uintptr_t)frompc,
	    __builtin_return_address(0));
	/* One store: a signal handler sees the old arc or the new one. */
	if (a != NULL && cache != NULL &&
	    (cache = __mon_pcells_word(cache)) != NULL)
		MON_STORE(cache, &a->n.count - MON_ARC_COUNT);
}

/*
 * The -p slow path for -fPIC code, whose words are in this
 * thread's area (area.c), at offset off.  Without one (no memory, a
 * thread glibc did not start, a unit that got no words) the call is
 * counted and its counter left nowhere.
 */
void
__mon_mcount_area_at(long off, struct cnt **cell, char *pc)
{
	long *none = NULL, **w = __mon_area_word(off);

	__mon_mcount_slow_at(w != NULL ? w : &none, cell, pc);
}
