/* SPDX-License-Identifier: MIT */
/*
 * check_profil.c - the profil(2) bin formula, the uniform histogram,
 * saturation and out-of-range samples (runtime/hist.c, runtime/profil.c).
 */
#include <sys/mman.h>

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "control.h"
#include "unit.h"

START_TEST(test_bin_formula)
{
	/* ((pc - offset) / 2) * scale / 65536 */
	ck_assert_uint_eq(__mon_hist_index(0x1000, 0x1000, 0x10000), 0);
	ck_assert_uint_eq(__mon_hist_index(0x1002, 0x1000, 0x10000), 1);
	ck_assert_uint_eq(__mon_hist_index(0x1003, 0x1000, 0x10000), 1);
	ck_assert_uint_eq(__mon_hist_index(0x1007, 0x1000, 0x8000), 1);
	ck_assert_uint_eq(__mon_hist_index(0x1008, 0x1000, 0x8000), 2);
	ck_assert_uint_eq(__mon_hist_index(0x1008, 0x1000, 0x4000), 1);
	ck_assert_uint_eq(__mon_hist_index(0x1000 + 65536 * 2, 0x1000, 1), 1);
	ck_assert_uint_eq(__mon_hist_index(0xfff, 0x1000, 0x10000),
	    (size_t)-1);
	/* no overflow for pcs far above the offset */
	ck_assert_uint_eq(__mon_hist_index(UINTPTR_MAX, 0, 0xffff),
	    (size_t)(((unsigned __int128)(UINTPTR_MAX / 2) * 0xffff) >> 16));
}
END_TEST

static WORD bins[8];

static struct __mon_hist_counts
counts(void)
{
	struct __mon_hist_counts c;

	__mon_hist_counts(&c);
	return c;
}

/*
 * Bins in pages the runtime mapped (monstartup's): a reset zeroes the
 * part pages at either end and drops the whole pages between, which
 * read as zeros; the bins still count from there.
 */
START_TEST(test_own_bins_reset)
{
	size_t pg = 4096, nb, i;	/* larger pages: a memset does it */
	WORD *b;
	char *m;

	m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(m, MAP_FAILED);
	b = (WORD *)(m + 100);		/* from mid-page to mid-page */
	nb = (3 * pg + 50) / sizeof(WORD);
	__mon_mode_set(1);
	__mon_hist_start(b, nb, 0x10000, 0x10000 + 2 * nb, 1);
	for (i = 0; i < nb; i++)
		b[i] = (WORD)(i | 1);
	m[99] = 7;			/* not a bin: kept */
	__mon_hist_reset();
	for (i = 0; i < nb; i++)
		ck_assert_uint_eq(b[i], 0);
	ck_assert_int_eq(m[99], 7);
	__mon_hist_tick(0x10000 + 2 * (nb - 1), 0);
	ck_assert_uint_eq(b[nb - 1], 1);
	__mon_hist_stop();
	munmap(m, 4 * pg);
}
END_TEST

START_TEST(test_uniform_bins_span_range)
{
	memset(bins, 0, sizeof(bins));
	__mon_mode_set(1);
	/* 8 bins over 100 bytes */
	__mon_hist_start(bins, 8, 1000, 1100, 0);
	__mon_hist_tick(1000, 0);
	__mon_hist_tick(1012, 0);
	__mon_hist_tick(1013, 0);
	__mon_hist_tick(1099, 0);
	__mon_hist_tick(1100, 0);
	__mon_hist_tick(999, 0);
	/* bin = (pc - lpc) * 8 / 100: 12 -> 0, 13 -> 1, 99 -> 7 */
	ck_assert_uint_eq(bins[0], 2);
	ck_assert_uint_eq(bins[1], 1);
	ck_assert_uint_eq(bins[7], 1);
	ck_assert_int_eq(counts().outside, 2);
}
END_TEST

START_TEST(test_bins_saturate)
{
	int i;

	memset(bins, 0, sizeof(bins));
	__mon_mode_set(1);
	__mon_hist_reset();
	__mon_hist_profil(bins, 8, 0x400, 0x10000);
	bins[3] = 65530;
	for (i = 0; i < 10; i++)
		__mon_hist_tick(0x406, 0);
	ck_assert_uint_eq(bins[3], 65535);
	ck_assert_int_eq(counts().saturated, 5);
}
END_TEST

START_TEST(test_off_takes_no_sample)
{
	memset(bins, 0, sizeof(bins));
	__mon_hist_profil(bins, 8, 0x400, 0x10000);
	__mon_mode_set(0);
	__mon_hist_reset();
	__mon_hist_tick(0x400, 0);
	ck_assert_uint_eq(bins[0], 0);
	ck_assert_int_eq(counts().samples, 0);
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

static void
sum(uintptr_t pc, long n, void *arg)
{
	(void)pc;
	*(long *)arg += n;
}

/* The samples of thread sid kept by pc (-threads). */
static long
of_thread(long sid)
{
	long n = 0;

	__mon_pcs_thread(sid);
	__mon_pcs_each(0, UINTPTR_MAX, sum, &n);
	__mon_pcs_thread(0);
	return n;
}

/*
 * -threads: every sample is also kept by (thread, pc), the threads'
 * adding up to the samples taken, in the histogram or out of it.
 */
START_TEST(test_threads_samples_add_up)
{
	long before1 = of_thread(1), before2 = of_thread(2);
	long tid = 1000000000L, s1, s2, s3;	/* no real thread */
	int i;

	memset(bins, 0, sizeof(bins));
	__mon_mode_set(1);
	__mon_hist_start(bins, 8, 1000, 1100, 0);
	__mon_hist_threads(1);
	/* this thread (the process's first: sid 1), then two others */
	for (i = 0; i < 5; i++)
		__mon_hist_tick(1000 + i, 0);
	for (i = 0; i < 7; i++)
		__mon_hist_tick(5000 + i * 64, tid);
	for (i = 0; i < 3; i++)
		__mon_hist_tick(1050, tid + 1);
	__mon_hist_threads(0);
	s1 = __mon_cells_sid(0);
	s2 = __mon_cells_sid(tid);
	s3 = __mon_cells_sid(tid + 1);
	ck_assert_int_eq(s1, 1);
	ck_assert_int_eq(s3, s2 + 1);
	ck_assert_int_eq(of_thread(s1) - before1, 5);
	ck_assert_int_eq(of_thread(s2) - (s2 == 2 ? before2 : 0), 7);
	ck_assert_int_eq(of_thread(s3), 3);
	ck_assert_int_eq(counts().samples, 15);
	/* the histogram's view is unchanged */
	ck_assert_int_eq(counts().outside, 7);
	ck_assert_uint_eq(bins[0], 5);
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
	tcase_add_test(tc, test_own_bins_reset);
	tcase_add_test(tc, test_bins_saturate);
	tcase_add_test(tc, test_off_takes_no_sample);
	tcase_add_test(tc, test_profil_bad_buffers);
	tcase_add_test(tc, test_threads_samples_add_up);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(profil_suite)
