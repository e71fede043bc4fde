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
	ck_assert_uint_eq(gf.lpc, 0x1000);
	ck_assert_uint_eq(gf.hpc, 0x1010);
	ck_assert_uint_eq(gf.nbins, 2);
	gmonread_close(&gf);
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
	tcase_add_test(tc, test_every_truncation_refused);
	tcase_add_test(tc, test_bad_files_refused);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(gmonread_suite)
