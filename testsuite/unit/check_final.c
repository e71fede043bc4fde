/* SPDX-License-Identifier: MIT */
/*
 * check_final.c - the writer process of the last profile
 * (runtime/final.c): it writes once, at the go or when the process has
 * ended, and is reaped.
 */
#include <sys/stat.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "unit.h"

static int writes;	/* shared with the writer process */
static long writer_pid;

static int
write_once(void)
{
	writes++;
	writer_pid = (long)getpid();
	return 0;
}

START_TEST(test_writes_once_at_the_go)
{
	__mon_final_reset();
	writes = 0;
	ck_assert_int_eq(__mon_final_start(write_once), 0);
	ck_assert_int_eq(__mon_final_start(write_once), 0);
	ck_assert_int_eq(__mon_final_ready(), 1);
	ck_assert_int_eq(__mon_final_finish(), 0);
	ck_assert_int_eq(writes, 1);
	ck_assert_int_ne(writer_pid, (long)getpid());
	ck_assert_int_eq(__mon_final_finish(), 0);
	ck_assert_int_eq(writes, 1);
	/* reaped: no child of any kind is left */
	errno = 0;
	ck_assert_int_eq(waitpid(-1, NULL, __WALL | WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

START_TEST(test_none_started_finish_says_so)
{
	__mon_final_reset();
	ck_assert_int_eq(__mon_final_ready(), 0);
	ck_assert_int_eq(__mon_final_finish(), -1);
}
END_TEST

static char marker[64];

static int
write_marker(void)
{
	int fd = open(marker, O_WRONLY | O_CREAT, 0644);

	return fd >= 0 ? close(fd) : -1;
}

/* A process that ends without the go (_exit) still gets its write. */
START_TEST(test_writes_when_the_process_ends)
{
	static const struct timespec nap = { 0, 10000000L };
	struct stat sb;
	pid_t pid;
	int fd, st, i;

	strcpy(marker, "/tmp/check_final.XXXXXX");
	ck_assert_int_ge(fd = mkstemp(marker), 0);
	close(fd);
	unlink(marker);
	if ((pid = fork()) == 0) {
		__mon_final_reset();
		_exit(__mon_final_start(write_marker) == 0 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_int_eq(st, 0);
	for (i = 0; i < 200 && stat(marker, &sb) != 0; i++)
		nanosleep(&nap, NULL);
	ck_assert_int_eq(stat(marker, &sb), 0);
	unlink(marker);
}
END_TEST

static Suite *
final_suite(void)
{
	Suite *s = suite_create("final");
	TCase *tc = tcase_create("writer");

	tcase_add_test(tc, test_writes_once_at_the_go);
	tcase_add_test(tc, test_none_started_finish_says_so);
	tcase_add_test(tc, test_writes_when_the_process_ends);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(final_suite)
