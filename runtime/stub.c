/* SPDX-License-Identifier: MIT */
/*
 * stub.c - __mon_mcount_stub, the x86-64 entry of the -p slow path that
 * the plugin calls from inline assembly: it preserves every register
 * (the flags excepted), so the instrumented function keeps its arguments
 * in place and a leaf function needs no frame for the rare first call.
 *
 * In:	%rax = &word, %r11 = &cell, the return address = a pc inside the
 *	instrumented function.  The caller has stepped over its red zone.
 * The C code it calls (mcount.c, cells.c) uses only general registers,
 * so only those are saved here.
 */
#include "internal.h"

#ifdef __x86_64__
__asm__(
	"	.text\n"
	"	.globl	__mon_mcount_stub\n"
	"	.type	__mon_mcount_stub, @function\n"
	"	.p2align 4\n"
	"__mon_mcount_stub:\n"
	"	.cfi_startproc\n"
	"	pushq	%rbp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	.cfi_rel_offset %rbp, 0\n"
	"	movq	%rsp, %rbp\n"
	"	.cfi_def_cfa_register %rbp\n"
	"	pushq	%rax\n"
	"	pushq	%rcx\n"
	"	pushq	%rdx\n"
	"	pushq	%rsi\n"
	"	pushq	%rdi\n"
	"	pushq	%r8\n"
	"	pushq	%r9\n"
	"	pushq	%r10\n"
	"	pushq	%r11\n"
	"	andq	$-16, %rsp\n"
	"	movq	%rax, %rdi\n"
	"	movq	%r11, %rsi\n"
	"	movq	8(%rbp), %rdx\n"
	"	call	__mon_mcount_slow_at\n"
	"	leaq	-72(%rbp), %rsp\n"
	"	popq	%r11\n"
	"	popq	%r10\n"
	"	popq	%r9\n"
	"	popq	%r8\n"
	"	popq	%rdi\n"
	"	popq	%rsi\n"
	"	popq	%rdx\n"
	"	popq	%rcx\n"
	"	popq	%rax\n"
	"	popq	%rbp\n"
	"	.cfi_def_cfa %rsp, 8\n"
	"	ret\n"
	"	.cfi_endproc\n"
	"	.size	__mon_mcount_stub, .-__mon_mcount_stub\n");
#endif
