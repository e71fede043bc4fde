/* SPDX-License-Identifier: MIT */
/*
 * check_seccomp.c - what the program's seccomp filters let the runtime
 * do (runtime/seccomp.c): its copies of the filters run as the kernel
 * runs them, for the calls the runtime makes; nothing is installed here.
 */
#include <sys/syscall.h>

#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <stddef.h>

#include "base.h"
#include "unit.h"

#define NR	offsetof(struct seccomp_data, nr)
#define ARG(i)	offsetof(struct seccomp_data, args[i])
#define LD(k)	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, (k))
#define RET(k)	BPF_STMT(BPF_RET | BPF_K, (k))
#define ALLOW(n) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (n), 0, 1), \
	RET(SECCOMP_RET_ALLOW)

#define ALL	(MON_SECCOMP_STDERR | MON_SECCOMP_GETPID | \
		 MON_SECCOMP_GETTID | MON_SECCOMP_FUTEX | MON_SECCOMP_EXIT | \
		 MON_SECCOMP_DIE | MON_SECCOMP_SIGRETURN | MON_SECCOMP_REAP | \
		 MON_SECCOMP_SIGPROF)

static void
push(struct sock_filter *f, size_t n)
{
	struct sock_fprog p = { (unsigned short)n, f };

	ck_assert_int_eq(__mon_seccomp_push(SECCOMP_MODE_FILTER, &p), 0);
}

#define PUSH(f)	push((f), sizeof(f) / sizeof((f)[0]))

START_TEST(test_none)
{
	ck_assert_int_eq(__mon_seccomp_confined(), 0);
	ck_assert_int_eq(__mon_seccomp_may(ALL), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 0);
}
END_TEST

/* An allowlist that kills: only what it lists, by number. */
START_TEST(test_allowlist_kills)
{
	struct sock_filter f[] = {
		LD(NR), ALLOW(SYS_write), ALLOW(SYS_exit_group),
		ALLOW(SYS_rt_sigreturn), RET(SECCOMP_RET_KILL_PROCESS),
	};

	PUSH(f);
	ck_assert_int_eq(__mon_seccomp_confined(), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR |
	    MON_SECCOMP_SIGRETURN), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX), 0);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_GETPID), 0);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR |
	    MON_SECCOMP_GETTID), 0);
	__mon_seccomp_pop();
	ck_assert_int_eq(__mon_seccomp_confined(), 0);
	ck_assert_int_eq(__mon_seccomp_may(ALL), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 0);
}
END_TEST

/* EPERM for the rest: nothing can kill, but an errno is no allowance. */
START_TEST(test_errno_is_no_kill)
{
	struct sock_filter f[] = {
		LD(NR), ALLOW(SYS_write), ALLOW(SYS_getpid),
		RET(SECCOMP_RET_ERRNO | 1),
	};

	PUSH(f);
	ck_assert_int_eq(__mon_seccomp_kills(), 0);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR |
	    MON_SECCOMP_GETPID), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX), 0);
	__mon_seccomp_pop();
}
END_TEST

/* futex by its op: the runtime's four (private and shared, wait, wake). */
START_TEST(test_arguments)
{
	struct sock_filter some[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 1, 0),
		RET(SECCOMP_RET_KILL_THREAD),
		LD(ARG(1)), ALLOW(FUTEX_WAIT_PRIVATE), ALLOW(FUTEX_WAKE_PRIVATE),
		RET(SECCOMP_RET_KILL_THREAD),
	};
	struct sock_filter all[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 1, 0),
		RET(SECCOMP_RET_KILL_THREAD),
		LD(ARG(1)), ALLOW(FUTEX_WAIT_PRIVATE), ALLOW(FUTEX_WAKE_PRIVATE),
		ALLOW(FUTEX_WAIT), ALLOW(FUTEX_WAKE),
		RET(SECCOMP_RET_KILL_THREAD),
	};
	/* Its address: the runtime cannot know it beforehand. */
	struct sock_filter addr[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_futex, 1, 0),
		RET(SECCOMP_RET_KILL_THREAD),
		LD(ARG(0)), BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 4095, 0, 1),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_KILL_THREAD),
	};
	/* write to stderr only: the runtime's is to 2. */
	struct sock_filter fd2[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 1, 0),
		RET(SECCOMP_RET_TRAP),
		LD(ARG(0)), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 1),
		RET(SECCOMP_RET_ALLOW), RET(SECCOMP_RET_TRAP),
	};

	PUSH(some);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX), 0);
	__mon_seccomp_pop();
	PUSH(all);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR), 0);
	__mon_seccomp_pop();
	PUSH(addr);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX), 0);
	__mon_seccomp_pop();
	PUSH(fd2);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	__mon_seccomp_pop();
}
END_TEST

/* The instruction pointer is unknown: whatever it reads is refused. */
START_TEST(test_instruction_pointer)
{
	struct sock_filter f[] = {
		LD(offsetof(struct seccomp_data, instruction_pointer)),
		RET(SECCOMP_RET_ALLOW),
	};

	PUSH(f);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR), 0);
	ck_assert_int_eq(__mon_seccomp_kills(), 0);
	__mon_seccomp_pop();
}
END_TEST

/* Filters stack: the strictest action wins; a return of A may kill. */
START_TEST(test_stacked)
{
	struct sock_filter open[] = {
		BPF_STMT(BPF_LD | BPF_IMM, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_filter nopid[] = {
		LD(NR), BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpid, 0, 1),
		RET(SECCOMP_RET_KILL_PROCESS), RET(SECCOMP_RET_LOG),
	};

	PUSH(open);
	ck_assert_int_eq(__mon_seccomp_may(ALL), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	PUSH(nopid);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_GETPID), 0);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_DIE), 0);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_FUTEX |
	    MON_SECCOMP_GETTID | MON_SECCOMP_STDERR), 1);
	__mon_seccomp_pop();
	ck_assert_int_eq(__mon_seccomp_may(ALL), 1);
	__mon_seccomp_pop();
	ck_assert_int_eq(__mon_seccomp_confined(), 0);
}
END_TEST

/* Strict mode: read, write, exit and rt_sigreturn only. */
START_TEST(test_strict)
{
	ck_assert_int_eq(__mon_seccomp_push(SECCOMP_MODE_STRICT, NULL), 0);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR |
	    MON_SECCOMP_SIGRETURN), 1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_GETTID), 0);
	__mon_seccomp_pop();
}
END_TEST

/* A filter that could not be read refuses everything. */
START_TEST(test_unknown)
{
	struct sock_fprog p = { 0, NULL };

	ck_assert_int_eq(__mon_seccomp_push(SECCOMP_MODE_FILTER, &p), -1);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR), 0);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	__mon_seccomp_pop();
}
END_TEST

/* Code on a stack started before the filter answers for none. */
START_TEST(test_exempt)
{
	struct sock_filter f[] = { RET(SECCOMP_RET_KILL_PROCESS) };
	char here = 0;
	/* An address range around this frame, by integers (not pointers
	 * past an object). */
	uintptr_t at = (uintptr_t)&here;

	__mon_seccomp_exempt((const void *)(at - 65536),
	    (const void *)(at + 4096));
	PUSH(f);
	ck_assert_int_eq(__mon_seccomp_may(ALL), 1);
	ck_assert_int_eq(__mon_seccomp_kills(), 0);
	__mon_seccomp_exempt(NULL, NULL);
	ck_assert_int_eq(__mon_seccomp_may(MON_SECCOMP_STDERR), 0);
	ck_assert_int_eq(__mon_seccomp_kills(), 1);
	__mon_seccomp_pop();
}
END_TEST

static Suite *
seccomp_suite(void)
{
	Suite *s = suite_create("seccomp");
	TCase *tc = tcase_create("filters");

	tcase_add_test(tc, test_none);
	tcase_add_test(tc, test_allowlist_kills);
	tcase_add_test(tc, test_errno_is_no_kill);
	tcase_add_test(tc, test_arguments);
	tcase_add_test(tc, test_instruction_pointer);
	tcase_add_test(tc, test_stacked);
	tcase_add_test(tc, test_strict);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_exempt);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(seccomp_suite)
