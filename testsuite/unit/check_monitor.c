/* SPDX-License-Identifier: MIT */
/*
 * check_monitor.c - monitor() argument checks and buffer layout
 * (runtime/monitor.c).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "control.h"
#include "unit.h"

static WORD buf[4096] __attribute__((aligned(16)));

#define LO	((int (*)(void))0x10000)
#define HI(n)	((int (*)(void))(0x10000 + (n)))

static void
setup(void)
{
	memset(buf, 0xaa, sizeof(buf));
}

static void
teardown(void)
{
	__mon_monitor_stop(0);	/* nothing written at the test's exit */
}

static int
untouched(void)
{
	size_t i;

	for (i = 0; i < sizeof(buf) / sizeof(buf[0]); i++)
		if (buf[i] != 0xaaaa)
			return 0;
	return !__mon_monitor_running();
}

START_TEST(test_null_buffer_is_einval)
{
	errno = 0;
	ck_assert_int_eq(__monitor(LO, HI(800), NULL, 4096, 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert(untouched());
}
END_TEST

START_TEST(test_bad_range_is_einval)
{
	errno = 0;
	ck_assert_int_eq(__monitor(HI(800), LO, buf, 4096, 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(__monitor(LO, LO, buf, 4096, 8), -1);
	ck_assert(untouched());
}
END_TEST

START_TEST(test_small_buffer_is_einval)
{
	size_t ssiz = (sizeof(struct hdr) + 8 * sizeof(struct cnt)) / 2;

	errno = 0;
	ck_assert_int_eq(__monitor(LO, HI(800), buf, ssiz, 8), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(__monitor(LO, HI(800), buf, 4096, SIZE_MAX / 4), -1);
	ck_assert_int_eq(__monitor(LO, HI(800), (WORD *)((char *)buf + 2),
	    4096, 8), -1);
	ck_assert(untouched());
}
END_TEST

START_TEST(test_layout_and_bins)
{
	size_t ssiz = (sizeof(struct hdr) + 8 * sizeof(struct cnt)) / 2;
	struct hdr *h = (struct hdr *)buf;
	uintptr_t lo, hi;
	size_t nbins;

	/* The man page's formula: 800 bytes / BARSIZE 8 = 100 bins. */
	ck_assert_int_eq(__monitor(LO, HI(800), buf, (sizeof(struct hdr) +
	    8 * sizeof(struct cnt) + (800 / 8) * 2 + 1) / 2, 8), 0);
	ck_assert_ptr_eq(h->lpc, (char *)LO);
	ck_assert_ptr_eq(h->hpc, (char *)HI(800));
	ck_assert_uint_eq(h->nfns, 8);
	ck_assert_ptr_eq(__mon_hist_get(&nbins, &lo, &hi), buf + ssiz);
	ck_assert_uint_eq(nbins, 100);
	ck_assert_uint_eq(buf[ssiz], 0);
	/* More room than 2 bytes a bin needs: only (hpc - lpc) / 2 bins. */
	ck_assert_int_eq(__monitor(LO, HI(801), buf, 4096, 8), 0);
	__mon_hist_get(&nbins, &lo, &hi);
	ck_assert_uint_eq(nbins, 401);
	__mon_monitor_stop(0);
	ck_assert_int_eq(__mon_monitor_running(), 0);
}
END_TEST

/*
 * A second monitor() call hands out its buffer's cells next, keeps the
 * first buffer's, and samples into its own histogram.
 */
START_TEST(test_repeated_monitor_adds_cells)
{
	static WORD b2[1024] __attribute__((aligned(16)));
	static long *w[7];
	static struct cnt *cell[7];
	uintptr_t lo, hi;
	size_t nbins;
	int i;

	ck_assert_int_eq(__monitor(LO, HI(800), buf, 4096, 8), 0);
	__mon_mcount_slow(&w[0], &cell[0]);
	ck_assert_ptr_eq(cell[0], (struct cnt *)(buf + 12));
	ck_assert_int_eq(__monitor(LO, HI(400), b2, 1024, 5), 0);
	for (i = 1; i < 7; i++)
		__mon_mcount_slow(&w[i], &cell[i]);
	for (i = 1; i < 6; i++)
		ck_assert_ptr_eq(cell[i], (struct cnt *)(b2 + 12) + i - 1);
	/* Then a chunk of the runtime's. */
	ck_assert(cell[6] < (struct cnt *)b2 || cell[6] >= (struct cnt *)(b2 + 1024));
	ck_assert_uint_eq(__mon_cells_fold(), 7);
	ck_assert_ptr_eq(__mon_hist_get(&nbins, &lo, &hi), b2 + 12 + 5 * 8);
	ck_assert_uint_eq(hi, (uintptr_t)HI(400));
	__mon_monitor_stop(0);
}
END_TEST

static Suite *
monitor_suite(void)
{
	Suite *s = suite_create("monitor");
	TCase *tc = tcase_create("args");

	__mon_monitor_stop(0);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_null_buffer_is_einval);
	tcase_add_test(tc, test_bad_range_is_einval);
	tcase_add_test(tc, test_small_buffer_is_einval);
	tcase_add_test(tc, test_layout_and_bins);
	tcase_add_test(tc, test_repeated_monitor_adds_cells);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(monitor_suite)
