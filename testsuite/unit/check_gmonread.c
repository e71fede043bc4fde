/* SPDX-License-Identifier: MIT */
/*
 * check_gmonread.c - the gmon.out reader (prof/gmonread.c) on files built
 * here: arcs and the first histogram read, basic-block records skipped,
 * every truncation, a bad tag and another version refused.
 */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "unit.h"

static unsigned char img[512];
static size_t len;

static void
put(const void *p, size_t n)
{
	memcpy(img + len, p, n);
	len += n;
}

static void
header(int32_t version)
{
	len = 0;
	put("gmon", 4);
	put(&version, 4);
	put("\0\0\0\0\0\0\0\0\0\0\0\0", 12);
}

static void
arc(uint64_t from, uint64_t self, uint32_t count)
{
	put("\1", 1);
	put(&from, 8);
	put(&self, 8);
	put(&count, 4);
}

static void
hist(uint64_t lo, uint64_t hi, uint32_t nbins)
{
	uint32_t rate = 1000;
	uint16_t bin = 7;

	put("\0", 1);
	put(&lo, 8);
	put(&hi, 8);
	put(&nbins, 4);
	put(&rate, 4);
	put("seconds\0\0\0\0\0\0\0\0s", 16);
	while (nbins-- > 0)
		put(&bin, 2);
}

static const char *
parsed(struct gmonfile *gf)
{
	static char ebuf[160];

	return gmonread_parse(gf, img, len, ebuf, sizeof(ebuf));
}

START_TEST(test_arcs_and_histogram_read)
{
	struct gmonfile gf;
	uint32_t n = 1;

	header(1);
	hist(0x1000, 0x1010, 2);
	arc(0x1008, 0x1004, 7);
	put("\2", 1);			/* one basic-block count, skipped */
	put(&n, 4);
	put("0123456789abcdef", 16);
	arc(0x1008, 0x1004, 0xffffffff);
	hist(0x2000, 0x2010, 1);
	ck_assert_ptr_null(parsed(&gf));
	ck_assert_uint_eq(gf.narc, 2);
	ck_assert_uint_eq(gf.arc[0].from, 0x1008);
	ck_assert_uint_eq(gf.arc[0].self, 0x1004);
	ck_assert_uint_eq(gf.arc[0].count, 7);
	ck_assert_uint_eq(gf.arc[1].count, 0xffffffff);
	ck_assert_uint_eq(gf.nhist, 2);
	ck_assert_uint_eq(gf.hist[0].lo, 0x1000);
	ck_assert_uint_eq(gf.hist[0].hi, 0x1010);
	ck_assert_uint_eq(gf.hist[0].nbins, 2);
	ck_assert_uint_eq(gf.hist[1].lo, 0x2000);
	ck_assert_uint_eq(gf.hist[1].nbins, 1);
	gmonread_close(&gf);
}
END_TEST

/*
 * A gmon.out is of the run of a mon.out whose histogram is NBINS bins
 * over [LPC, HPC) if each of its records is all of it, or whole bins of
 * it at its scale from its start to its end: here 256 bins of 8 bytes
 * over [0x1000, 0x1800).
 */
START_TEST(test_records_within_the_histogram)
{
	static const struct {
		uint64_t	 rec[3][3];	/* lo, hi, bins; 0 0 0 ends */
		uint64_t	 lpc, hpc, nbins;
		int		 want;
	} c[] = {
		{ { { 0x1000, 0x1800, 256 } }, 0x1000, 0x1800, 256, 1 },
		{ { { 0x1000, 0x1800, 256 } }, 0x1000, 0x1800, 128, 0 },
		{ { { 0x1000, 0x1800, 256 } }, 0x1000, 0x1810, 129, 0 },
		/* Runs of bins: the first, 4 at 0x1040, the last. */
		{ { { 0x1000, 0x1008, 1 }, { 0x1040, 0x1060, 4 },
		    { 0x17f8, 0x1800, 1 } }, 0x1000, 0x1800, 256, 1 },
		/* Another scale, another range: not this run's. */
		{ { { 0x1000, 0x1008, 1 }, { 0x1040, 0x1060, 4 },
		    { 0x17f8, 0x1800, 1 } }, 0x1000, 0x1800, 512, 0 },
		{ { { 0x1000, 0x1008, 1 }, { 0x1040, 0x1060, 4 },
		    { 0x17f8, 0x1800, 1 } }, 0x1000, 0x17f8, 255, 0 },
		/* Short of the range's start (another program's, by chance
		 * at this scale), not on a bin's edge, past the range. */
		{ { { 0x1040, 0x1060, 4 }, { 0x17f8, 0x1800, 1 } },
		    0x1000, 0x1800, 256, 0 },
		{ { { 0x1000, 0x1008, 1 }, { 0x1044, 0x1064, 4 },
		    { 0x17f8, 0x1800, 1 } }, 0x1000, 0x1800, 256, 0 },
		{ { { 0x17f8, 0x1808, 2 } }, 0x1000, 0x1800, 256, 0 },
		/* None: nothing to disagree. */
		{ { { 0 } }, 0x1000, 0x1800, 256, 1 },
	};
	struct gmonfile gf;
	size_t i, k;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		header(1);
		arc(0x1008, 0x1004, 1);
		for (k = 0; k < 3 && c[i].rec[k][1] != 0; k++)
			hist(c[i].rec[k][0], c[i].rec[k][1],
			    (uint32_t)c[i].rec[k][2]);
		ck_assert_ptr_null(parsed(&gf));
		ck_assert_int_eq(gmonread_within(&gf, c[i].lpc, c[i].hpc,
		    c[i].nbins), c[i].want);
		gmonread_close(&gf);
	}
}
END_TEST

START_TEST(test_every_truncation_refused)
{
	struct gmonfile gf;
	size_t full, cut;

	header(1);
	hist(0x1000, 0x1010, 2);
	arc(0x1008, 0x1004, 7);
	full = len;
	for (cut = 0; cut < full; cut++) {
		len = cut;
		/* A cut at a record's end is a shorter, good file. */
		if (cut == 20 || cut == 20 + 41 + 4)
			ck_assert_ptr_null(parsed(&gf));
		else
			ck_assert_ptr_nonnull(parsed(&gf));
		gmonread_close(&gf);
	}
}
END_TEST

START_TEST(test_bad_files_refused)
{
	struct gmonfile gf;

	header(1);
	put("\7", 1);
	ck_assert_str_eq(parsed(&gf), "bad tag 7 at offset 20");
	header(2);
	ck_assert_str_eq(parsed(&gf), "gmon.out version 2, not 0 or 1");
	header(0);
	ck_assert_ptr_null(parsed(&gf));
	memcpy(img, "GMON", 4);
	ck_assert_str_eq(parsed(&gf), "not a GNU gmon.out (no \"gmon\" header)");
	header(1);
	hist(0x2000, 0x1000, 0);
	ck_assert_str_eq(parsed(&gf), "histogram at 20: low_pc above high_pc");
}
END_TEST

static Suite *
gmonread_suite(void)
{
	Suite *s = suite_create("gmonread");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_arcs_and_histogram_read);
	tcase_add_test(tc, test_records_within_the_histogram);
	tcase_add_test(tc, test_every_truncation_refused);
	tcase_add_test(tc, test_bad_files_refused);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(gmonread_suite)
