/* SPDX-License-Identifier: MIT */
/*
 * check_srcline.c - line tables into the partition of the functions'
 * text (prof/srcline.c): every byte of a function in exactly one range,
 * overlapping rows resolved, no range running into the next function.
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "unit.h"

/* A [0x1000, 0x1010) and B [0x1010, 0x1020). */
static struct symname names[] = {
	{ "A", 0, STB_GLOBAL, 1, "" },
	{ "B", 1, STB_GLOBAL, 1, "" },
};
static struct symentry ents[] = {
	{ 0x1000, 0x10, 0x1010, 0, 1, 0, 0, 1, 0 },
	{ 0x1010, 0x10, 0x1020, 1, 1, 1, 1, 1, 0 },
};
static struct symtab st = {
	.path = "t", .ent = ents, .nent = 2, .names = names, .nnames = 2,
	.nsyms = 2, .nshown = 2,
};

/* The partition of st for RAW, as "lo-hi ent file:line" lines. */
static char *
cut(struct srcraw *raw, size_t n)
{
	struct srclines sl;
	char ebuf[64], *out = NULL;
	size_t i, len;
	FILE *fp;

	memset(&sl, 0, sizeof(sl));
	ck_assert_ptr_null(srclines_build(&sl, &st, raw, n, ebuf,
	    sizeof(ebuf)));
	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	for (i = 0; i < sl.n; i++)
		fprintf(fp, "%llx-%llx %ld %s:%d\n",
		    (unsigned long long)sl.r[i].lo,
		    (unsigned long long)sl.r[i].hi, sl.r[i].ent,
		    sl.r[i].file ? sl.r[i].file : "??", sl.r[i].line);
	fclose(fp);
	free(sl.r);
	return out;
}

START_TEST(test_every_byte_in_one_range)
{
	struct srcraw raw[] = {
		{ 0x1008, 0x1010, "a.c", 2 },
		{ 0x1000, 0x1008, "a.c", 1 },
	};
	char *out = cut(raw, 2);

	ck_assert_str_eq(out,
	    "1000-1008 0 a.c:1\n"
	    "1008-1010 0 a.c:2\n"
	    "1010-1020 1 ??:0\n");
	free(out);
}
END_TEST

/* Code the linker discarded is left at 0, under the real code. */
START_TEST(test_later_range_wins)
{
	struct srcraw raw[] = {
		{ 0x0, 0x1020, "gone.c", 9 },
		{ 0x1000, 0x1004, "a.c", 1 },
		{ 0x1002, 0x1004, "a.c", 3 },
		{ 0x1018, 0x101c, "b.c", 7 },
	};
	char *out = cut(raw, 4);

	ck_assert_str_eq(out,
	    "1000-1002 0 a.c:1\n"
	    "1002-1004 0 a.c:3\n"
	    "1004-1010 0 ??:0\n"
	    "1010-1018 1 ??:0\n"
	    "1018-101c 1 b.c:7\n"
	    "101c-1020 1 ??:0\n");
	free(out);
}
END_TEST

/* A row that runs on (libdw's order of a sequence's last row) stops. */
START_TEST(test_no_range_runs_into_the_next_function)
{
	struct srcraw raw[] = {
		{ 0x1008, 0x1018, "a.c", 5 },
	};
	char *out = cut(raw, 1);

	ck_assert_str_eq(out,
	    "1000-1008 0 ??:0\n"
	    "1008-1010 0 a.c:5\n"
	    "1010-1018 1 ??:0\n"
	    "1018-1020 1 ??:0\n");
	free(out);
}
END_TEST

START_TEST(test_lookup_by_address)
{
	struct srcraw raw[] = {
		{ 0x1000, 0x1008, "a.c", 1 },
	};
	struct srclines sl;
	char ebuf[64];

	memset(&sl, 0, sizeof(sl));
	ck_assert_ptr_null(srclines_build(&sl, &st, raw, 1, ebuf,
	    sizeof(ebuf)));
	ck_assert_int_eq(srclines_at(&sl, 0xfff), -1);
	ck_assert_int_eq(srclines_at(&sl, 0x1000), 0);
	ck_assert_int_eq(srclines_at(&sl, 0x1007), 0);
	ck_assert_int_eq(srclines_at(&sl, 0x1008), 1);
	ck_assert_int_eq(srclines_at(&sl, 0x101f), 2);
	ck_assert_int_eq(srclines_at(&sl, 0x1020), -1);
	free(sl.r);
}
END_TEST

static Suite *
srcline_suite(void)
{
	Suite *s = suite_create("srcline");
	TCase *tc = tcase_create("partition");

	tcase_add_test(tc, test_every_byte_in_one_range);
	tcase_add_test(tc, test_later_range_wins);
	tcase_add_test(tc, test_no_range_runs_into_the_next_function);
	tcase_add_test(tc, test_lookup_by_address);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(srcline_suite)
