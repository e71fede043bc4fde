/* SPDX-License-Identifier: MIT */
/*
 * foreign.c - calls from objects built by GCC's own -p or -pg, without
 * the plugin (a library compiled with glibc's profiling, linked into a
 * monprof program): their functions call mcount after the prologue.
 * glibc's mcount would drop those calls (its gmon is never started), so
 * the runtime defines mcount and _mcount, and the specs file keeps and
 * exports them: instrumented shared objects bind to them too.
 *
 * Such a function has no cell or word of its own: a table keyed by the
 * pc of its mcount call holds them.  Its calls count as in the plugin's
 * update=atomic mode (one shared word, a locked add) in a -p program,
 * and as arcs once a -pg hook has run.  A full table drops the calls.
 */
#pragma GCC target("general-regs-only")	/* see stub.c */

#include <sys/mman.h>

#include <errno.h>
#include <stddef.h>

#include "hooks.h"

#define TABLE_BITS	16	/* distinct functions */
#define TABLE_SIZE	((size_t)1 << TABLE_BITS)

struct entry {
	uintptr_t	 pc;	/* the mcount call's return address; 0: free */
	struct cnt	*cell;
	long		*word;
};

static struct entry *table;

static struct entry *
lookup(uintptr_t pc)
{
	struct entry *t = MON_LOAD(&table), *fresh;
	uintptr_t seen;
	size_t i, n;

	if (t == NULL) {
		fresh = __mon_arena_map(TABLE_SIZE * sizeof(*t));
		if (fresh == NULL)
			return NULL;
		if (!MON_CAS(&table, &t, fresh))
			munmap(fresh, TABLE_SIZE * sizeof(*t));
		else
			t = fresh;
	}
	i = (size_t)((pc * 0x9e3779b97f4a7c15ULL) >> (64 - TABLE_BITS));
	for (n = 0; n < TABLE_SIZE; n++, i = (i + 1) & (TABLE_SIZE - 1)) {
		seen = MON_LOAD(&t[i].pc);
		if (seen == 0 && MON_CAS(&t[i].pc, &seen, pc))
			return &t[i];
		if (seen == pc)
			return &t[i];
	}
	return NULL;
}

/* One call of the function at selfpc, from frompc. */
void
__mon_foreign_count(uintptr_t selfpc, uintptr_t frompc)
{
	struct entry *e;
	long *w;
	int saved = errno;

	if (__mon_mcount_disabled() || (e = lookup(selfpc)) == NULL)
		goto out;
	if (__mon_arcs_used())
		__mon_arcs_count(&e->cell, frompc, (char *)selfpc);
	else if ((w = MON_LOAD(&e->word)) != NULL)
		MON_ADD(w, 1);
	else
		__mon_mcount_slow_at(&e->word, &e->cell, (char *)selfpc);
out:
	errno = saved;
}

#ifdef __x86_64__
/*
 * Called after the prologue's push %rbp; mov %rsp, %rbp: the return
 * address is selfpc, the function's own is above its frame pointer.
 * The argument registers are live (glibc's mcount keeps them too).
 */
__asm__(
	"	.text\n"
	"	.globl	mcount\n"
	"	.type	mcount, @function\n"
	"	.globl	_mcount\n"
	"	.type	_mcount, @function\n"
	"	.p2align 4\n"
	"mcount:\n"
	"_mcount:\n"
	MON_STUB_ENTER
	"	movq	8(%rbp), %rdi\n"
	"	movq	(%rbp), %rsi\n"
	"	movq	8(%rsi), %rsi\n"
	"	call	__mon_foreign_count\n"
	MON_STUB_LEAVE
	"	.size	mcount, .-mcount\n"
	"	.size	_mcount, .-_mcount\n");
#endif
