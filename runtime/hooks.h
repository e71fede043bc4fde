/* SPDX-License-Identifier: MIT */
/*
 * hooks.h - the hook ABI's entries (mon.h), on top of storage: mcount.c
 * in C, stub.c in x86-64 assembly, thread.c for the threads of ABI 3,
 * and foreign.c, the mcount of objects built by GCC's own -p.
 */
#ifndef MON_HOOKS_H
#define MON_HOOKS_H

#include "storage.h"

/* mcount.c */
void	 __mon_mcount_slow_at(long **, struct cnt **, char *) MON_HIDDEN;
void	 __mon_mcount_area_at(long, struct cnt **, char *) MON_HIDDEN;
void	 __mon_mcount_disable(int) MON_HIDDEN;
int	 __mon_mcount_disabled(void) MON_HIDDEN;

/* thread.c: pthread_create, the threads it starts known to pcells.c */
#include <pthread.h>
#include <threads.h>
int	 __mon_thread_create(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *) MON_EXPORT;
int	 __mon_thread_plain(pthread_t *, const pthread_attr_t *,
	    void *(*)(void *), void *) MON_HIDDEN;
int	 __mon_thread_c11(thrd_t *, thrd_start_t, void *) MON_EXPORT;
void	 __mon_thread_known(void) MON_HIDDEN;
void	 __mon_thread_before(void (*)(void)) MON_HIDDEN;

/* foreign.c */
void	 __mon_foreign_count(uintptr_t, uintptr_t) MON_HIDDEN;

/*
 * x86-64: the frame of an entry that calls C with every general register
 * kept (stub.c, foreign.c): %rbp is the frame, the return address above
 * it; the C call sits between the two, the stack aligned.
 */
#define MON_STUB_ENTER							\
	"	.cfi_startproc\n"					\
	"	pushq	%rbp\n"						\
	"	.cfi_adjust_cfa_offset 8\n"				\
	"	.cfi_rel_offset %rbp, 0\n"				\
	"	movq	%rsp, %rbp\n"					\
	"	.cfi_def_cfa_register %rbp\n"				\
	"	pushq	%rax\n	pushq	%rcx\n	pushq	%rdx\n"		\
	"	pushq	%rsi\n	pushq	%rdi\n	pushq	%r8\n"		\
	"	pushq	%r9\n	pushq	%r10\n	pushq	%r11\n"		\
	"	andq	$-16, %rsp\n"
#define MON_STUB_LEAVE							\
	"	leaq	-72(%rbp), %rsp\n"					\
	"	popq	%r11\n	popq	%r10\n	popq	%r9\n"		\
	"	popq	%r8\n	popq	%rdi\n	popq	%rsi\n"		\
	"	popq	%rdx\n	popq	%rcx\n	popq	%rax\n"		\
	"	popq	%rbp\n"						\
	"	.cfi_def_cfa %rsp, 8\n"					\
	"	ret\n"							\
	"	.cfi_endproc\n"

#endif /* MON_HOOKS_H */
