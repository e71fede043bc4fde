/* SPDX-License-Identifier: MIT */
/*
 * check_profil.c - the profil(2) bin formula, the uniform histogram,
 * saturation and out-of-range samples (runtime/profil.c).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "internal.h"
#include "unit.h"

START_TEST(test_bin_formula)
{
	/* ((pc - offset) / 2) * scale / 65536 */
	ck_assert_uint_eq(__mon_profil_index(0x1000, 0x1000, 0x10000), 0);
	ck_assert_uint_eq(__mon_profil_index(0x1002, 0x1000, 0x10000), 1);
	ck_assert_uint_eq(__mon_profil_index(0x1003, 0x1000, 0x10000), 1);
	ck_assert_uint_eq(__mon_profil_index(0x1007, 0x1000, 0x8000), 1);
	ck_assert_uint_eq(__mon_profil_index(0x1008, 0x1000, 0x8000), 2);
	ck_assert_uint_eq(__mon_profil_index(0x1008, 0x1000, 0x4000), 1);
	ck_assert_uint_eq(__mon_profil_index(0x1000 + 65536 * 2, 0x1000, 1), 1);
	ck_assert_uint_eq(__mon_profil_index(0xfff, 0x1000, 0x10000),
	    (size_t)-1);
	/* no overflow for pcs far above the offset */
	ck_assert_uint_eq(__mon_profil_index(UINTPTR_MAX, 0, 0xffff),
	    (size_t)(((unsigned __int128)(UINTPTR_MAX / 2) * 0xffff) >> 16));
}
END_TEST

static WORD bins[8];

START_TEST(test_uniform_bins_span_range)
{
	struct __mon_state *st = &__mon_state;

	memset(bins, 0, sizeof(bins));
	st->on = 1;
	st->outside = 0;
	/* 8 bins over 100 bytes */
	__mon_hist_set(bins, 8, 1000, 1100, 0, 0);
	__mon_hist_tick(1000);
	__mon_hist_tick(1012);
	__mon_hist_tick(1013);
	__mon_hist_tick(1099);
	__mon_hist_tick(1100);
	__mon_hist_tick(999);
	/* bin = (pc - lpc) * 8 / 100: 12 -> 0, 13 -> 1, 99 -> 7 */
	ck_assert_uint_eq(bins[0], 2);
	ck_assert_uint_eq(bins[1], 1);
	ck_assert_uint_eq(bins[7], 1);
	ck_assert_int_eq(st->outside, 2);
}
END_TEST

START_TEST(test_bins_saturate)
{
	struct __mon_state *st = &__mon_state;
	int i;

	memset(bins, 0, sizeof(bins));
	st->on = 1;
	st->saturated = 0;
	__mon_hist_set(bins, 8, 0, 0, 0x400, 0x10000);
	bins[3] = 65530;
	for (i = 0; i < 10; i++)
		__mon_hist_tick(0x406);
	ck_assert_uint_eq(bins[3], 65535);
	ck_assert_int_eq(st->saturated, 5);
}
END_TEST

START_TEST(test_off_takes_no_sample)
{
	struct __mon_state *st = &__mon_state;

	memset(bins, 0, sizeof(bins));
	__mon_hist_set(bins, 8, 0, 0, 0x400, 0x10000);
	st->on = 0;
	st->samples = 0;
	__mon_hist_tick(0x400);
	ck_assert_uint_eq(bins[0], 0);
	ck_assert_int_eq(st->samples, 0);
}
END_TEST

START_TEST(test_profil_bad_buffers)
{
	errno = 0;
	ck_assert_int_eq(profil(NULL, 16, 0, 0x10000), -1);
	ck_assert_int_eq(errno, EFAULT);
	errno = 0;
	ck_assert_int_eq(profil(bins, 1, 0, 0x10000), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(profil((WORD *)((char *)bins + 1), 8, 0, 0x10000),
	    -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(profil(bins, sizeof(bins), 0, 0), 0);
}
END_TEST

static Suite *
profil_suite(void)
{
	Suite *s = suite_create("profil");
	TCase *tc = tcase_create("bins");

	__mon_monitor_stop(0);
	tcase_add_test(tc, test_bin_formula);
	tcase_add_test(tc, test_uniform_bins_span_range);
	tcase_add_test(tc, test_bins_saturate);
	tcase_add_test(tc, test_off_takes_no_sample);
	tcase_add_test(tc, test_profil_bad_buffers);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(profil_suite)
