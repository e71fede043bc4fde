/* SPDX-License-Identifier: MIT */
/*
 * check_env.c - PROFDIR / PROFFLAGS parsing (runtime/env.c) and the
 * names of the files a run writes (runtime/name.c).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "control.h"
#include "unit.h"

/* The profile's name for program prog, process pid, under e. */
static int
path(const struct __mon_env *e, const char *prog, long pid, char *buf,
    size_t len)
{
	return __mon_name_profile(e->dir, e->pids, prog, pid, buf, len);
}

START_TEST(test_profdir_unset_gives_mon_out)
{
	struct __mon_env e;
	char buf[64];

	ck_assert_int_eq(__mon_env_parse(&e, NULL, NULL), 0);
	ck_assert_int_eq(e.disabled, 0);
	ck_assert_int_eq(path(&e, "prog", 42, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "mon.out");
}
END_TEST

START_TEST(test_profdir_empty_disables)
{
	struct __mon_env e;

	__mon_env_parse(&e, "", NULL);
	ck_assert_int_eq(e.disabled, 1);
}
END_TEST

START_TEST(test_profdir_dir_gives_pid_prog)
{
	struct __mon_env e;
	char buf[64];

	__mon_env_parse(&e, "/tmp/p", NULL);
	ck_assert_int_eq(e.disabled, 0);
	ck_assert_int_eq(path(&e, "prog", 123456789, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/tmp/p/123456789.prog");
	ck_assert_int_eq(path(&e, "prog", 7, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/tmp/p/7.prog");
}
END_TEST

START_TEST(test_path_too_long_fails)
{
	struct __mon_env e;
	char buf[12];

	__mon_env_parse(&e, "/tmp/profiles", NULL);
	ck_assert_int_eq(path(&e, "prog", 1, buf, sizeof(buf)), -1);
	ck_assert_str_eq(buf, "");
}
END_TEST

START_TEST(test_profflags_all_options)
{
	struct __mon_env e;
	char buf[64];

	ck_assert_int_eq(__mon_env_parse(&e, NULL,
	    " -disable_default -itimer  -rate 4000 -sigdump SIGUSR1 "
	    "-dirname /d -nopids"), 0);
	ck_assert_int_eq(e.disable_default, 1);
	ck_assert_int_eq(e.itimer, 1);
	ck_assert_int_eq(e.rate, 4000);
	ck_assert_int_eq(e.sigdump, SIGUSR1);
	ck_assert_str_eq(e.dir, "/d");
	ck_assert_int_eq(e.pids, 0);
	path(&e, "prog", 5, buf, sizeof(buf));
	ck_assert_str_eq(buf, "/d/mon.out");
	__mon_env_parse(&e, NULL, "-pids -sigdump HUP");
	ck_assert_int_eq(e.sigdump, SIGHUP);
	path(&e, "prog", 5, buf, sizeof(buf));
	ck_assert_str_eq(buf, "5.prog");
}
END_TEST

START_TEST(test_profflags_bad_are_counted)
{
	struct __mon_env e;

	ck_assert_int_eq(__mon_env_parse(&e, NULL,
	    "-bogus -rate 0 -rate x -sigdump NOSUCH -dirname"), 5);
	ck_assert_int_eq(e.rate, 0);
	ck_assert_int_eq(e.sigdump, 0);
	ck_assert_str_eq(e.dir, "");
}
END_TEST

/* -threads; with -sigdump it is ignored (one warning: counted once). */
START_TEST(test_profflags_threads)
{
	struct __mon_env e;

	ck_assert_int_eq(__mon_env_parse(&e, NULL, "-threads"), 0);
	ck_assert_int_eq(e.threads, 1);
	ck_assert_int_eq(__mon_env_parse(&e, NULL, "-threads -sigdump USR1"),
	    1);
	ck_assert_int_eq(e.threads, 0);
	ck_assert_int_eq(e.sigdump, SIGUSR1);
	ck_assert_int_eq(__mon_env_parse(&e, NULL,
	    "-sigdump USR2 -threads"), 1);
	ck_assert_int_eq(e.threads, 0);
	/* a refused signal leaves no -sigdump: -threads stands */
	ck_assert_int_eq(__mon_env_parse(&e, NULL,
	    "-threads -sigdump KILL"), 1);
	ck_assert_int_eq(e.threads, 1);
}
END_TEST

/* -merge: one file for every process, not with a file per thread. */
START_TEST(test_profflags_merge)
{
	struct __mon_env e;

	ck_assert_int_eq(__mon_env_parse(&e, "d", "-merge"), 0);
	ck_assert_int_eq(e.merge, 1);
	ck_assert_int_eq(e.pids, 1);
	ck_assert_int_eq(__mon_env_parse(&e, NULL, NULL), 0);
	ck_assert_int_eq(e.merge, 0);
	ck_assert_int_eq(__mon_env_parse(&e, NULL, "-merge -threads"), 1);
	ck_assert_int_eq(e.merge, 0);
	ck_assert_int_eq(e.threads, 1);
}
END_TEST

/* Every name kill -l knows, RTMIN+n and RTMAX-n, any case, SIG or not. */
START_TEST(test_sigdump_signal_names)
{
	enum { NUM, MIN, MAX };
	static const struct {
		const char	*arg;
		int		 from;	/* the number is: as is, SIGRTMIN+, SIGRTMAX- */
		int		 n;	/* -1: refused */
	} t[] = {
		{ "USR1", NUM, SIGUSR1 }, { "sigusr2", NUM, SIGUSR2 },
		{ "SIGPWR", NUM, SIGPWR }, { "iot", NUM, SIGABRT },
		{ "CLD", NUM, SIGCHLD }, { "POLL", NUM, SIGIO },
		{ "WINCH", NUM, SIGWINCH }, { "10", NUM, 10 },
		{ "RTMIN", MIN, 0 }, { "RTMIN+2", MIN, 2 },
		{ "SIGRTMAX-1", MAX, 1 }, { "rtmax", MAX, 0 },
		/* not a signal, or not one to dump on */
		{ "FOO", NUM, -1 }, { "KILL", NUM, -1 }, { "STOP", NUM, -1 },
		{ "SEGV", NUM, -1 }, { "PROF", NUM, -1 }, { "32", NUM, -1 },
		{ "0", NUM, -1 }, { "65", NUM, -1 }, { "RTMIN-1", NUM, -1 },
		{ "RTMAX+1", NUM, -1 }, { "USR1x", NUM, -1 },
	};
	struct __mon_env e;
	char flags[64];
	size_t i;
	int want;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		snprintf(flags, sizeof(flags), "-sigdump %s", t[i].arg);
		__mon_env_parse(&e, NULL, flags);
		want = t[i].n < 0 ? 0 : t[i].from == MIN ? SIGRTMIN + t[i].n :
		    t[i].from == MAX ? SIGRTMAX - t[i].n : t[i].n;
		ck_assert_msg(e.sigdump == want, "%s: %d, not %d", t[i].arg,
		    e.sigdump, want);
	}
}
END_TEST

START_TEST(test_profdir_dirname_wins)
{
	struct __mon_env e;

	__mon_env_parse(&e, "a", "-dirname b");
	ck_assert_str_eq(e.dir, "b");
}
END_TEST

/* gmon.out's forms, and GMON_OUT_PREFIX before them all, as in glibc. */
START_TEST(test_gmon_names)
{
	static const struct {
		const char	*dir;
		int		 pids;
		const char	*prefix;
		const char	*want;
	} t[] = {
		{ "", 0, "", "gmon.out" },
		{ "/d", 0, "", "/d/gmon.out" },
		{ "/d", 1, "", "/d/5.prog.gmon" },
		{ "/d", 1, "/p/g", "/p/g.5" },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		ck_assert_int_eq(__mon_name_gmon(t[i].dir, t[i].pids,
		    t[i].prefix, "prog", 5, buf, sizeof(buf)), 0);
		ck_assert_str_eq(buf, t[i].want);
	}
}
END_TEST

START_TEST(test_unnamed_program_is_a_out)
{
	char buf[64];

	ck_assert_int_eq(__mon_name_profile("", 1, "", 12, buf, sizeof(buf)),
	    0);
	ck_assert_str_eq(buf, "12.a.out");
}
END_TEST

START_TEST(test_tmp_name_and_overflow)
{
	char buf[20];

	ck_assert_int_eq(__mon_name_tmp("mon.out", 42, 0, buf, sizeof(buf)),
	    0);
	ck_assert_str_eq(buf, ".monprof.42.tmp");
	ck_assert_int_eq(__mon_name_tmp("mon.out", 42000000, 0, buf,
	    sizeof(buf)), -1);
	ck_assert_str_eq(buf, "");
	ck_assert_int_eq(__mon_name_gmon("", 1, "", "program", 123456, buf,
	    16), -1);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* A long program name is cut, at a character, so every name fits. */
START_TEST(test_long_progname_is_cut)
{
	char prog[300], buf[PATH_MAX], want[PATH_MAX];

	memset(prog, 'p', sizeof(prog) - 1);
	prog[sizeof(prog) - 1] = '\0';
	ck_assert_int_eq(__mon_name_gmon("d", 1, "", prog, 4194304, buf,
	    sizeof(buf)), 0);
	snprintf(want, sizeof(want), "d/4194304.%.*s.gmon", MON_PROGNAME_MAX,
	    prog);
	ck_assert_str_eq(buf, want);
	ck_assert_uint_le(strlen(strrchr(buf, '/') + 1), NAME_MAX);
	/* "\xc3\xa9" (e acute) across the cut goes whole */
	prog[MON_PROGNAME_MAX - 1] = '\xc3';
	prog[MON_PROGNAME_MAX] = '\xa9';
	ck_assert_int_eq(__mon_name_profile("", 1, prog, 7, buf, sizeof(buf)),
	    0);
	ck_assert_uint_eq(strlen(buf), 2 + MON_PROGNAME_MAX - 1);
	/* a name that fits is whole */
	ck_assert_int_eq(__mon_name_profile("", 1, "prog", 7, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "7.prog");
}
END_TEST

/* Beside its target, whatever the program's name: within NAME_MAX. */
START_TEST(test_tmp_name_beside_target)
{
	char buf[PATH_MAX], prog[251], path[PATH_MAX];

	memset(prog, 'p', sizeof(prog) - 1);
	prog[sizeof(prog) - 1] = '\0';
	ck_assert_int_eq(__mon_name_profile("/a/b", 1, prog, 4194304, path,
	    sizeof(path)), 0);
	ck_assert_int_eq(__mon_name_tmp(path, 4194304, 0, buf, sizeof(buf)),
	    0);
	ck_assert_str_eq(buf, "/a/b/.monprof.4194304.tmp");
	ck_assert_int_eq(__mon_name_tmp("/gmon.out", 7, 0xbeef, buf,
	    sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/.monprof.7.000000000000beef.tmp");
	ck_assert_int_eq(__mon_name_dir("mon.out", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, ".");
	ck_assert_int_eq(__mon_name_dir("d/e/mon.out", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "d/e");
	ck_assert_int_eq(__mon_name_dir("/mon.out", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/");
}
END_TEST

static Suite *
env_suite(void)
{
	Suite *s = suite_create("env");
	TCase *tc = tcase_create("profdir");

	/* The unit program itself is not profiled. */
	__mon_monitor_stop(0);
	tcase_add_test(tc, test_profdir_unset_gives_mon_out);
	tcase_add_test(tc, test_profdir_empty_disables);
	tcase_add_test(tc, test_profdir_dir_gives_pid_prog);
	tcase_add_test(tc, test_path_too_long_fails);
	tcase_add_test(tc, test_profflags_all_options);
	tcase_add_test(tc, test_profflags_bad_are_counted);
	tcase_add_test(tc, test_profflags_threads);
	tcase_add_test(tc, test_profflags_merge);
	tcase_add_test(tc, test_sigdump_signal_names);
	tcase_add_test(tc, test_profdir_dirname_wins);
	tcase_add_test(tc, test_gmon_names);
	tcase_add_test(tc, test_unnamed_program_is_a_out);
	tcase_add_test(tc, test_tmp_name_beside_target);
	tcase_add_test(tc, test_long_progname_is_cut);
	tcase_add_test(tc, test_tmp_name_and_overflow);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(env_suite)
