/* SPDX-License-Identifier: MIT */
/*
 * check_main.c - runs every suite registered with UNIT_SUITE(), in name
 * order; exits non-zero if any test failed.
 */
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "unit.h"

#define MAX_SUITES 64

static struct {
	const char *name;
	Suite *(*make)(void);
} suites[MAX_SUITES];
static int nsuites;

void
unit_register(const char *name, Suite *(*make)(void))
{
	if (nsuites < MAX_SUITES) {
		suites[nsuites].name = name;
		suites[nsuites].make = make;
		nsuites++;
	}
}

static void
hooks_count(void)
{
	__mon_mode_set(1);
	__mon_mcount_disable(0);
}

TCase *
unit_hook_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	__mon_monitor_stop(0);
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, hooks_count, NULL);
	suite_add_tcase(s, tc);
	return tc;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
main(void)
{
	SRunner *sr;
	int i, failed;

	qsort(suites, nsuites, sizeof(suites[0]), by_name);
	sr = srunner_create(NULL);
	for (i = 0; i < nsuites; i++)
		srunner_add_suite(sr, suites[i].make());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
