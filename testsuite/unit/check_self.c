/* SPDX-License-Identifier: MIT */
/*
 * check_self.c - which process runs the runtime's code (runtime/self.c):
 * the one set up, a raw fork's child (a copy of its memory), or a child
 * sharing its memory (vfork).
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <unistd.h>

#include "control.h"
#include "unit.h"

/* What a child made by how sees, as its exit status. */
static int
child_sees(int how)
{
	pid_t pid;
	int st;

	if (how == 0)
		pid = (pid_t)syscall(SYS_fork);
	else
		pid = vfork();
	if (pid == 0)
		_exit(__mon_self_which());
	ck_assert_int_gt(pid, 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	return WEXITSTATUS(st);
}

START_TEST(test_the_process_set_up)
{
	__mon_self_record();
	ck_assert_int_eq(__mon_self_which(), MON_SELF_SAME);
	ck_assert_int_eq(__mon_self_pid(), (long)getpid());
}
END_TEST

START_TEST(test_raw_fork_child_has_a_copy)
{
	__mon_self_record();
	ck_assert_int_eq(child_sees(0), MON_SELF_COPY);
	ck_assert_int_eq(__mon_self_which(), MON_SELF_SAME);
}
END_TEST

START_TEST(test_vfork_child_shares)
{
	__mon_self_record();
	ck_assert_int_eq(child_sees(1), MON_SELF_SHARED);
	ck_assert_int_eq(__mon_self_which(), MON_SELF_SAME);
}
END_TEST

/* A fork handler (or a raw fork's child dropping the parent's state)
 * records the child: it is the process served from then on. */
START_TEST(test_recorded_child_is_the_one)
{
	pid_t pid;
	int st;

	__mon_self_record();
	if ((pid = (pid_t)syscall(SYS_fork)) == 0) {
		__mon_self_record();
		_exit(__mon_self_which() == MON_SELF_SAME &&
		    __mon_self_pid() == (long)getpid() ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(st, 0);
}
END_TEST

static Suite *
self_suite(void)
{
	Suite *s = suite_create("self");
	TCase *tc = tcase_create("which");

	tcase_add_test(tc, test_the_process_set_up);
	tcase_add_test(tc, test_raw_fork_child_has_a_copy);
	tcase_add_test(tc, test_vfork_child_shares);
	tcase_add_test(tc, test_recorded_child_is_the_one);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(self_suite)
