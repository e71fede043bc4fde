/* SPDX-License-Identifier: MIT */
/*
 * check_name.c - the names runtime/name.c reads back for prof: every
 * name the runtime gives a PROFDIR profile, and nothing else, is one.
 */
#include <limits.h>
#include <string.h>

#include "base.h"
#include "unit.h"

/* Whether name is prog's, and its length without a salt (-1: not). */
static long
stem_of(const char *name, const char *prog)
{
	size_t stem = 0;

	return __mon_name_is_profile(name, prog, &stem) ? (long)stem : -1;
}

START_TEST(test_profile_names_are_read_back)
{
	char prog[251], buf[PATH_MAX], salted[PATH_MAX];

	/* Built by the runtime's own functions, then read back. */
	ck_assert_int_eq(__mon_name_profile("", 1, "prog", 4194304, buf,
	    sizeof(buf)), 0);
	ck_assert_int_eq(stem_of(buf, "prog"), strlen(buf));
	ck_assert_int_eq(__mon_name_seq(buf, sizeof(buf), 12), 0);
	ck_assert_str_eq(buf, "4194304.prog.12");
	ck_assert_int_eq(stem_of(buf, "prog"), strlen(buf));
	ck_assert_int_eq(__mon_name_salted(buf, 0x1234, salted,
	    sizeof(salted)), 0);
	ck_assert_int_eq(stem_of(salted, "prog"), strlen(buf));
	ck_assert_int_eq(stem_of("7.prog.00000000deadbeef", "prog"), 6);
	/* 16 digits are a salt, not dump 1234567890123456 */
	ck_assert_int_eq(stem_of("7.prog.1234567890123456", "prog"), 6);
	ck_assert_int_eq(stem_of("7.a.out", "a.out"), 7);
	ck_assert_int_eq(stem_of("7.a.out.3", "a.out"), 9);
	/* the long name as the runtime cuts it, not as given */
	memset(prog, 'p', sizeof(prog) - 1);
	prog[sizeof(prog) - 1] = '\0';
	ck_assert_int_eq(__mon_name_profile("", 1, prog, 7, buf, sizeof(buf)),
	    0);
	ck_assert_int_eq(stem_of(buf, prog), 2 + MON_PROGNAME_MAX);
	ck_assert_int_eq(__mon_name_seq(buf, sizeof(buf), 2), 0);
	ck_assert_int_eq(stem_of(buf, prog), 4 + MON_PROGNAME_MAX);
}
END_TEST

START_TEST(test_other_names_are_not_profiles)
{
	static const char *const other[] = {
		"prog", "7.prog.gmon", "7.prog.gmon.1", "7.prog.0", "7.prog.01",
		"7.prog.1.2", "7.prog.", "7.progs", "7.pro", "07.prog", ".7.prog",
		"x7.prog", "7prog", "7.prog.00000000DEADBEEF",
		"7.prog.0000000deadbeef", "7.prog.00000000deadbeef.1",
		".monprof.7.tmp", "99999999999999999999.prog", "mon.out",
	};
	size_t i;

	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		ck_assert_msg(stem_of(other[i], "prog") == -1, "%s", other[i]);
}
END_TEST

/* -threads: <pid>.<sid>.<prog>, built and read back. */
/* -merge's names, built and read back; no other name is one. */
START_TEST(test_merged_names)
{
	static const char *const other[] = {
		"merged.prog.gmon", "merged.prog.build-", "merged.prog.1",
		"merged.prog.build-00000000DEADBEEF", "merged.prog.build-0123",
		"merged.prog.build-0123456789abcdef0", "merged.progs",
		"merged.pro", "merged.", "7.prog", "merged.prog.00000000deadbeef",
		"merged.prog.build-0123456789abcdef.gmon",
	};
	char prog[251], buf[PATH_MAX];
	size_t i;

	ck_assert_int_eq(__mon_name_merged("d", 1, "prog", 0, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "d/merged.prog");
	ck_assert_int_eq(__mon_name_merged("d", 1, "prog", 0x0123456789abcdefL,
	    buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "d/merged.prog.build-0123456789abcdef");
	ck_assert_int_eq(__mon_name_merged("", 0, "prog", 0, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mon.out");
	ck_assert_int_eq(__mon_name_merged("", 0, "prog", -1, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mon.out.build-ffffffffffffffff");
	ck_assert_int_eq(__mon_name_merged("", 1, "", 0, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "merged.a.out");
	ck_assert_int_eq(__mon_name_is_merged("merged.prog", "prog"), 1);
	ck_assert_int_eq(__mon_name_is_merged(
	    "merged.prog.build-0123456789abcdef", "prog"), 1);
	for (i = 0; i < sizeof(other) / sizeof(other[0]); i++)
		ck_assert_msg(!__mon_name_is_merged(other[i], "prog"), "%s",
		    other[i]);
	/* the long name as the runtime cuts it, not as given */
	memset(prog, 'p', sizeof(prog) - 1);
	prog[sizeof(prog) - 1] = '\0';
	ck_assert_int_eq(__mon_name_merged("", 1, prog, 7, buf, sizeof(buf)),
	    0);
	ck_assert_int_eq(strlen(buf), 7 + MON_PROGNAME_MAX + 7 + 16);
	ck_assert_int_eq(__mon_name_is_merged(buf, prog), 1);
	ck_assert_int_eq(__mon_name_merged("", 1, "prog", 7, buf, 20), -1);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(__mon_name_merged_tmp("d/merged.prog", buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "d/.monprof.merged.tmp");
	ck_assert_int_eq(__mon_name_merged_tmp("mon.out", buf, sizeof(buf)),
	    0);
	ck_assert_str_eq(buf, ".monprof.merged.tmp");
}
END_TEST

START_TEST(test_thread_names)
{
	char buf[PATH_MAX];

	ck_assert_int_eq(__mon_name_thread("d", "prog", 42, 3, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "d/42.3.prog");
	ck_assert_int_eq(__mon_name_thread("", "", 42, 1, buf, sizeof(buf)),
	    0);
	ck_assert_str_eq(buf, "42.1.a.out");
	ck_assert_int_eq(stem_of("42.1.prog", "prog"), 9);
	ck_assert_int_eq(stem_of("42.17.prog", "prog"), 10);
	ck_assert_int_eq(stem_of("42.2.prog.00000000deadbeef", "prog"), 9);
	ck_assert_int_eq(stem_of("42.2.a.out", "a.out"), 10);
	/* a program whose name starts with digits is still read */
	ck_assert_int_eq(stem_of("42.1.x", "1.x"), 6);
	ck_assert_int_eq(stem_of("42.0.prog", "prog"), -1);
	ck_assert_int_eq(stem_of("42.01.prog", "prog"), -1);
	ck_assert_int_eq(stem_of("42.1.prog2", "prog"), -1);
	ck_assert_int_eq(stem_of("42.1.", "prog"), -1);
	ck_assert_int_eq(__mon_name_thread("", "prog", 42, 3, buf, 9), -1);
}
END_TEST

/* The dump number only: prof finds a numbered dump's gmon.out by it. */
START_TEST(test_unseq)
{
	ck_assert_uint_eq(__mon_name_unseq("mon.out.3"), 7);
	ck_assert_uint_eq(__mon_name_unseq("7.prog.12"), 6);
	ck_assert_uint_eq(__mon_name_unseq("mon.out"), 7);
	ck_assert_uint_eq(__mon_name_unseq("mon.out.0"), 9);
	ck_assert_uint_eq(__mon_name_unseq("7.prog.gmon"), 11);
	ck_assert_uint_eq(__mon_name_unseq(".1"), 0);
	ck_assert_uint_eq(__mon_name_unseq(""), 0);
}
END_TEST

static Suite *
name_suite(void)
{
	Suite *s = suite_create("name");
	TCase *tc = tcase_create("read back");

	tcase_add_test(tc, test_profile_names_are_read_back);
	tcase_add_test(tc, test_other_names_are_not_profiles);
	tcase_add_test(tc, test_unseq);
	tcase_add_test(tc, test_thread_names);
	tcase_add_test(tc, test_merged_names);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(name_suite)
