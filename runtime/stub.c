/* SPDX-License-Identifier: MIT */
/*
 * stub.c - the x86-64 entries the plugin calls from inline assembly.
 * They preserve every register (the flags excepted), so the instrumented
 * function keeps its arguments in place and a leaf function needs no
 * frame for the call:
 *
 * __mon_mcount_stub, the -p slow path (the first call of a function).
 * __mon_mcount_arc_rec_stub, the -pg hook when the arc cache missed:
 *	the fast path of __mon_arcs_count (arcs.c) in assembly, which
 *	counts and caches an arc this thread has seen with four scratch
 *	registers (anything else goes to __mon_arcs_slow), and leaves the
 *	arc in this thread's word of the call site that announced itself
 *	(mon_abi.h), if any.
 * __mon_mcount_area_stub and __mon_mcount_arc_area_stub, the -p and
 *	-pg entries of
 *	-fPIC code, told the offset of the word in this thread's
 *	area where the others are told its address.
 *
 * In:	%rax = &word (-p) or &cell (-pg), %r11 = &cell (-p) or the
 *	function's return address (-pg), the return address = a pc inside
 *	the instrumented function, and above it &cache (-pg), and above
 *	that the site's record or 0.  The caller
 *	has stepped over its red zone.  The C code they call (mcount.c
 *	and the storage under it) is built for general registers only, so
 *	only those are saved here.  The C functions are called by name:
 *	__mon_mcount_slow_at, __mon_arcs_slow, and
 *	__mon_arcs_mine is read.
 */
#include <stddef.h>

#include "hooks.h"

#ifdef __x86_64__
/* name: call fn(%rax, %r11, the return address), every register kept. */
#define C_STUB(name, fn)						\
	"	.text\n"						\
	"	.globl	" name "\n"					\
	"	.type	" name ", @function\n"				\
	"	.p2align 4\n"						\
	name ":\n"							\
	MON_STUB_ENTER							\
	"	movq	%rax, %rdi\n"					\
	"	movq	%r11, %rsi\n"					\
	"	movq	8(%rbp), %rdx\n"				\
	"	call	" fn "\n"					\
	MON_STUB_LEAVE							\
	"	.size	" name ", .-" name "\n"

/* The link hint of the hook ABI this runtime serves names the stub. */
__asm__("	.globl	\"" MON_LINK_HINT "\"\n"
	"	.hidden	\"" MON_LINK_HINT "\"\n"
	"	.set	\"" MON_LINK_HINT "\", __mon_mcount_stub\n"
	C_STUB("__mon_mcount_stub", "__mon_mcount_slow_at"));

/*
 * -fPIC code's: the same, told the word's offset in this thread's area
 * (area.c) in %rax instead of its address.
 */
__asm__(C_STUB("__mon_mcount_area_stub", "__mon_mcount_area_at"));

/* The offsets the -pg stub reads; the build fails if a structure moves. */
#define OFF_MASK	8	/* __mon_arctab.mask */
#define OFF_SHIFT	16	/* __mon_arctab.shift */
#define OFF_ARC		40	/* __mon_arctab.arc, 40 bytes each */
#define OFF_SITES	32	/* __mon_arctab.sites */
#define OFF_N		0	/* __mon_sitemap.n */
#define OFF_R		8	/* __mon_sitemap.r, 16 bytes each */
#define OFF_FROM	0	/* __mon_arc.from */
#define OFF_CELL	8	/* __mon_arc.cell */
#define OFF_COUNT	16	/* __mon_arc.n.count */
_Static_assert(offsetof(struct __mon_arctab, mask) == OFF_MASK, "mask");
_Static_assert(offsetof(struct __mon_arctab, shift) == OFF_SHIFT, "shift");
_Static_assert(offsetof(struct __mon_arctab, arc) == OFF_ARC, "arc");
_Static_assert(offsetof(struct __mon_arctab, sites) == OFF_SITES, "sites");
_Static_assert(offsetof(struct __mon_sitemap, n) == OFF_N, "n");
_Static_assert(offsetof(struct __mon_sitemap, r) == OFF_R, "r");
_Static_assert(sizeof(((struct __mon_sitemap *)0)->r[0]) == 16, "r size");
_Static_assert(sizeof(struct __mon_arc) == 40, "arc size");
_Static_assert(offsetof(struct __mon_arc, from) == OFF_FROM, "from");
_Static_assert(offsetof(struct __mon_arc, cell) == OFF_CELL, "cell");
_Static_assert(offsetof(struct __mon_arc, n.count) == OFF_COUNT, "count");
_Static_assert(OFF_FROM == MON_ARC_FROM * 8, "mon.h from");
_Static_assert(OFF_CELL == MON_ARC_CELL * 8, "mon.h cell");
_Static_assert(OFF_COUNT == MON_ARC_COUNT * 8, "mon.h count");
_Static_assert(offsetof(struct __mon_arc_thread, tab) == 0, "tab");
_Static_assert(offsetof(struct __mon_pcells_dirty, n) == 0, "dirty n");
_Static_assert(offsetof(struct __mon_pcells_dirty, off) == 8, "dirty off");
_Static_assert(sizeof(((struct __mon_pcells_dirty *)0)->off[0]) == 4,
    "dirty off size");

#define STR(x)	#x
#define XSTR(x)	STR(x)
#define PUSH(r)	"	pushq	%" #r "\n	.cfi_adjust_cfa_offset 8\n" \
		"	.cfi_rel_offset %" #r ", 0\n"
#define POP(r)	"	popq	%" #r "\n	.cfi_adjust_cfa_offset -8\n" \
		"	.cfi_restore %" #r "\n"

/*
 * As __mon_arcs_count: i = hash(from, cell), probe from i for the entry
 * (from, cell) in this thread's table, add 1 to its count and store it
 * (STORE, with the arc in %rcx: &cache is above the return address).
 *	%rsi = cell, %rdx = table, %rdi = i, %rcx = &arc[i]
 */
#define ARC_STUB(name, store)						\
	"	.text\n"						\
	"	.globl	" name "\n"					\
	"	.type	" name ", @function\n"				\
	"	.p2align 4\n"						\
	name ":\n"							\
	"	.cfi_startproc\n"					\
	PUSH(rcx) PUSH(rdx) PUSH(rsi) PUSH(rdi)				\
	"	movq	(%rax), %rsi\n"					\
	"	testq	%rsi, %rsi\n"					\
	"	jz	5f\n"						\
	"	movq	__mon_arcs_mine@gottpoff(%rip), %rdx\n"		\
	"	movq	%fs:(%rdx), %rdx\n"				\
	"	testq	%rdx, %rdx\n"					\
	"	jz	5f\n"						\
	"	movq	%rsi, %rdi\n"					\
	"	shlq	$17, %rdi\n"					\
	"	xorq	%r11, %rdi\n"					\
	"	movabsq	$0x9e3779b97f4a7c15, %rcx\n"			\
	"	imulq	%rcx, %rdi\n"					\
	"	movl	" XSTR(OFF_SHIFT) "(%rdx), %ecx\n"		\
	"	shrq	%cl, %rdi\n"					\
	"2:	leaq	(%rdi,%rdi,4), %rcx\n"				\
	"	leaq	" XSTR(OFF_ARC) "(%rdx,%rcx,8), %rcx\n"		\
	"	cmpq	%rsi, " XSTR(OFF_CELL) "(%rcx)\n"		\
	"	jne	3f\n"						\
	"	cmpq	%r11, " XSTR(OFF_FROM) "(%rcx)\n"		\
	"	jne	4f\n"						\
	"	addq	$1, " XSTR(OFF_COUNT) "(%rcx)\n"		\
	"7:	movq	40(%rsp), %rdx\n"				\
	/* A word of the executable's span: this thread's copy (pcells.c) */ \
	"	movq	%rdx, %rsi\n"					\
	"	subq	__mon_pcells_lo(%rip), %rsi\n"			\
	"	cmpq	__mon_pcells_len(%rip), %rsi\n"			\
	"	jae	10f\n"						\
	"	movq	__mon_pcells_win@gottpoff(%rip), %rdx\n"		\
	"	movq	%fs:(%rdx), %rdx\n"				\
	"	testq	%rdx, %rdx\n"					\
	"	jz	11f\n"						\
	"	addq	%rsi, %rdx\n"					\
	/* logged for the window's next holder: n += 1, off[old n] */	\
	"	movq	__mon_pcells_dirty@gottpoff(%rip), %rdi\n"	\
	"	movq	%fs:(%rdi), %rdi\n"				\
	"	testq	%rdi, %rdi\n"					\
	"	jz	10f\n"						\
	"	movl	$1, %r11d\n"					\
	"	xaddq	%r11, (%rdi)\n"				\
	"	cmpq	$" XSTR(MON_PCELLS_DIRTY) ", %r11\n"		\
	"	jae	10f\n"						\
	"	movl	%esi, 8(%rdi,%r11,4)\n"			\
	"10:	movq	%rcx, (%rdx)\n"					\
	"11:\n"								\
	store								\
	"6:\n"								\
	"	.cfi_remember_state\n"					\
	POP(rdi) POP(rsi) POP(rdx) POP(rcx)				\
	"	ret\n"							\
	"	.cfi_restore_state\n"					\
	"3:	cmpq	$0, " XSTR(OFF_CELL) "(%rcx)\n"			\
	"	je	5f\n"						\
	"4:	addq	$1, %rdi\n"					\
	"	andq	" XSTR(OFF_MASK) "(%rdx), %rdi\n"		\
	"	jmp	2b\n"						\
	/* %rcx = __mon_arcs_slow(&cell, from, pc), all else preserved */	\
	"5:\n"								\
	PUSH(rbp)							\
	"	movq	%rsp, %rbp\n"					\
	"	.cfi_def_cfa_register %rbp\n"				\
	"	pushq	%r8\n"						\
	"	pushq	%r9\n"						\
	"	pushq	%r10\n"						\
	"	pushq	%rax\n"						\
	"	pushq	%r11\n"						\
	"	andq	$-16, %rsp\n"					\
	"	movq	%rax, %rdi\n"					\
	"	movq	%r11, %rsi\n"					\
	"	movq	40(%rbp), %rdx\n"				\
	"	call	__mon_arcs_slow\n"				\
	"	movq	%rax, %rcx\n"					\
	"	leaq	-40(%rbp), %rsp\n"				\
	"	popq	%r11\n"						\
	"	popq	%rax\n"						\
	"	popq	%r10\n"						\
	"	popq	%r9\n"						\
	"	popq	%r8\n"						\
	"	popq	%rbp\n"						\
	"	.cfi_def_cfa %rsp, 40\n"				\
	"	.cfi_restore %rbp\n"					\
	"	testq	%rcx, %rcx\n"					\
	"	jnz	7b\n"						\
	"	jmp	6b\n"						\
	"	.cfi_endproc\n"						\
	"	.size	" name ", .-" name "\n"

/*
 * With the announced site's record w above &cache (shared objects': the
 * record plus their mod), whose word at __mon_site_bias from it gets the
 * arc too, if the word lies in one of the blocks of this thread's table
 * (sites.c).
 */
__asm__(ARC_STUB("__mon_mcount_arc_rec_stub",
	"	movq	48(%rsp), %rdx\n"
	"	testq	%rdx, %rdx\n"
	"	jz	6f\n"
	"	movq	__mon_site_bias@gottpoff(%rip), %rsi\n"
	"	addq	%fs:(%rsi), %rdx\n"
	"	testb	$7, %dl\n"
	"	jnz	6f\n"
	"	movq	__mon_arcs_mine@gottpoff(%rip), %rsi\n"
	"	movq	%fs:(%rsi), %rsi\n"
	"	testq	%rsi, %rsi\n"
	"	jz	6f\n"
	"	movq	" XSTR(OFF_SITES) "(%rsi), %rsi\n"
	"	testq	%rsi, %rsi\n"
	"	jz	6f\n"
	"	movq	" XSTR(OFF_N) "(%rsi), %rdi\n"
	"	leaq	" XSTR(OFF_R) "(%rsi), %rsi\n"
	"8:	testq	%rdi, %rdi\n"
	"	jz	6f\n"
	"	cmpq	(%rsi), %rdx\n"
	"	jb	9f\n"
	"	cmpq	8(%rsi), %rdx\n"
	"	jae	9f\n"
	"	movq	%rcx, (%rdx)\n"
	"	jmp	6f\n"
	"9:	addq	$16, %rsi\n"
	"	subq	$1, %rdi\n"
	"	jmp	8b\n"));

/*
 * The -pg stub of -fPIC code, whose arc cache is a word of this
 * thread's area (area.c): the offset pushed where &cache goes becomes
 * the word's address, or (no area, or an offset no unit has) the
 * address of that stack slot itself, which the caller drops; then on to
 * the stub above.  The area is mapped here at a thread's first
 * call, every register kept.
 */
#define AREA_LO		XSTR(MON_AREA_SCRATCH)
#define AREA_HI		XSTR(MON_AREA_LEN) "-8"
__asm__("	.text\n"
	"	.globl	__mon_mcount_arc_area_stub\n"
	"	.type	__mon_mcount_arc_area_stub, @function\n"
	"	.p2align 4\n"
	"__mon_mcount_arc_area_stub:\n"
	"	.cfi_startproc\n"
	PUSH(rdx)
	"	movq	__mon_area_mine@gottpoff(%rip), %rdx\n"
	"	movq	%fs:(%rdx), %rdx\n"
	"	testq	%rdx, %rdx\n"
	"	jz	3f\n"
	"1:	cmpq	$" AREA_LO ", 16(%rsp)\n"
	"	jb	2f\n"
	"	cmpq	$" AREA_HI ", 16(%rsp)\n"
	"	ja	2f\n"
	"	addq	16(%rsp), %rdx\n"
	"	movq	%rdx, 16(%rsp)\n"
	"	.cfi_remember_state\n"
	POP(rdx)
	"	jmp	__mon_mcount_arc_rec_stub\n"
	"	.cfi_restore_state\n"
	"2:	leaq	16(%rsp), %rdx\n"
	"	movq	%rdx, 16(%rsp)\n"
	"	.cfi_remember_state\n"
	POP(rdx)
	"	jmp	__mon_mcount_arc_rec_stub\n"
	"	.cfi_restore_state\n"
	/* %rdx = __mon_area_get(), all else preserved */
	"3:\n"
	PUSH(rbp)
	"	movq	%rsp, %rbp\n"
	"	.cfi_def_cfa_register %rbp\n"
	"	pushq	%rax\n	pushq	%rcx\n	pushq	%rsi\n"
	"	pushq	%rdi\n	pushq	%r8\n	pushq	%r9\n"
	"	pushq	%r10\n	pushq	%r11\n"
	"	andq	$-16, %rsp\n"
	"	call	__mon_area_get\n"
	"	movq	%rax, %rdx\n"
	"	leaq	-64(%rbp), %rsp\n"
	"	popq	%r11\n	popq	%r10\n	popq	%r9\n"
	"	popq	%r8\n	popq	%rdi\n	popq	%rsi\n"
	"	popq	%rcx\n	popq	%rax\n"
	"	popq	%rbp\n"
	"	.cfi_def_cfa %rsp, 16\n"
	"	.cfi_restore %rbp\n"
	"	testq	%rdx, %rdx\n"
	"	jz	2b\n"
	"	jmp	1b\n"
	"	.cfi_endproc\n"
	"	.size	__mon_mcount_arc_area_stub, .-__mon_mcount_arc_area_stub\n");

#endif
