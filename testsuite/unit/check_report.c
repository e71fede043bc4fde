/* SPDX-License-Identifier: MIT */
/*
 * check_report.c - attribution and printing (prof/report.c, print.c) on a
 * table built by hand: cells summed, ticks shared in proportion, ticks
 * and cells outside every function on the <unknown> line, profiles of
 * another program refused, the classic line formats and -u's, and a
 * function's time split among its lines (lines.c).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "views.h"
#include "unit.h"

/* A [0x1000, 0x1010) and B [0x1010, 0x1020), both shown. */
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

/* A [0x1000, 0x100c), 4 bytes of padding, B [0x1010, 0x1020). */
static struct symentry gapents[] = {
	{ 0x1000, 0xc, 0x100c, 0, 1, 0, 0, 1, 0 },
	{ 0x1010, 0x10, 0x1020, 1, 1, 1, 1, 1, 0 },
};
static struct symtab gapst = {
	.path = "t", .ent = gapents, .nent = 2, .names = names, .nnames = 2,
	.nsyms = 2, .nshown = 2,
};

static unsigned char buf[1024];

/* A mon.out image: range, one metadata rate, cells, then bins. */
static void
image(struct monfile *mf, uint64_t lpc, uint64_t hpc, const uint64_t *cells,
    size_t ncells, const uint16_t *bins, size_t nbins)
{
	static char ebuf[160];
	uint64_t nfns = ncells / 2 + 1, rate[2] = { MON_META_RATE, 100 };
	size_t len = 0;

	memcpy(buf, &lpc, 8);
	memcpy(buf + 8, &hpc, 8);
	memcpy(buf + 16, &nfns, 8);
	len = 24;
	memcpy(buf + len, rate, 16);
	len += 16;
	memcpy(buf + len, cells, ncells * 8);
	len += ncells * 8;
	memcpy(buf + len, bins, nbins * 2);
	len += nbins * 2;
	ck_assert_ptr_null(monread_parse(mf, buf, len, ebuf, sizeof(ebuf)));
}

/* A report on SYMS of one profile (see image). */
static void
added(struct report *r, const struct symtab *syms, uint64_t lpc,
    uint64_t hpc, const uint64_t *cells, size_t ncells, const uint16_t *bins,
    size_t nbins)
{
	struct monfile mf;
	char ebuf[160];

	report_init(r, syms);
	image(&mf, lpc, hpc, cells, ncells, bins, nbins);
	ck_assert_ptr_null(report_add(r, &mf, ebuf, sizeof(ebuf)));
	monread_close(&mf);
}

START_TEST(test_cells_add_up_across_profiles)
{
	static const uint64_t cells[] = { 0x1004, 3, 0x1008, 4, 0x1011, 1 };
	struct report r;
	struct monfile mf;
	char ebuf[160];

	report_init(&r, &st);
	image(&mf, 0x1000, 0x1020, cells, 6, NULL, 0);
	ck_assert_ptr_null(report_add(&r, &mf, ebuf, sizeof(ebuf)));
	ck_assert_ptr_null(report_add(&r, &mf, ebuf, sizeof(ebuf)));
	ck_assert_int_eq(r.ncalls[0], 14);
	ck_assert_int_eq(r.ncalls[1], 2);
	ck_assert_uint_eq(r.cells_used, 6);
	monread_close(&mf);
	report_free(&r);
}
END_TEST

START_TEST(test_bin_shared_in_proportion)
{
	static const uint16_t bins[] = { 100 };
	static const uint64_t cells[] = { 0x1004, 1 };
	struct report r;

	/* One 16-byte bin, [0x100c, 0x101c): 4 bytes of A, 12 of B. */
	added(&r, &st, 0x100c, 0x101c, cells, 2, bins, 1);
	ck_assert_double_eq_tol(r.secs[0], 0.25, 1e-9);
	ck_assert_double_eq_tol(r.secs[1], 0.75, 1e-9);
	ck_assert_double_eq_tol(r.total, 1.0, 1e-9);
	report_free(&r);
}
END_TEST

START_TEST(test_ticks_past_last_function_are_outside)
{
	static const uint16_t bins[] = { 10, 0, 30, 5 };
	static const uint64_t cells[] = { 0x1004, 1 };
	struct report r;

	added(&r, &st, 0x1000, 0x1040, cells, 2, bins, 4);
	ck_assert_double_eq_tol(r.secs[0], 0.10, 1e-9);
	ck_assert_double_eq_tol(r.secs[1], 0.0, 1e-9);
	ck_assert_double_eq_tol(r.secs[REPORT_UNKNOWN(&st)], 0.35, 1e-9);
	ck_assert_double_eq_tol(r.inside, 10, 1e-9);
	ck_assert_double_eq_tol(r.outside, 35, 1e-9);
	report_free(&r);
}
END_TEST

/*
 * A bin wholly between two functions goes to <unknown>, not to the one
 * before; a bin over a function's end and its padding goes to the
 * function (padding never runs); a cell in no function is counted on
 * <unknown>.
 */
START_TEST(test_gap_is_unknown_not_the_neighbour)
{
	static const uint16_t bins[] = { 0, 10, 20, 0 }, straddle[] = { 30, 0 };
	static const uint64_t cells[] = { 0x1004, 1, 0x100e, 7 };
	struct report r;

	/* 4-byte bins: [0x1008, 0x100c) A, [0x100c, 0x1010) padding. */
	added(&r, &gapst, 0x1004, 0x1014, cells, 4, bins, 4);
	ck_assert_double_eq_tol(r.secs[0], 0.10, 1e-9);
	ck_assert_double_eq_tol(r.secs[REPORT_UNKNOWN(&gapst)], 0.20, 1e-9);
	ck_assert_int_eq(r.ncalls[0], 1);
	ck_assert_int_eq(r.ncalls[REPORT_UNKNOWN(&gapst)], 7);
	ck_assert_uint_eq(r.cells_unmapped, 1);
	report_free(&r);
	/* 8-byte bins: [0x1008, 0x1010) is 4 bytes of A and its padding. */
	added(&r, &gapst, 0x1008, 0x1018, cells, 4, straddle, 2);
	ck_assert_double_eq_tol(r.secs[0], 0.30, 1e-9);
	ck_assert_double_eq_tol(r.secs[REPORT_UNKNOWN(&gapst)], 0.0, 1e-9);
	ck_assert_double_eq_tol(r.inside, 30, 1e-9);
	report_free(&r);
}
END_TEST

START_TEST(test_other_program_refused)
{
	static const uint64_t cells[] = { 0x9004, 1 };
	static const uint16_t bins[] = { 1 };
	struct report r;
	struct monfile mf;
	char ebuf[160];

	report_init(&r, &st);
	image(&mf, 0x1000, 0x1020, cells, 2, NULL, 0);
	ck_assert_str_eq(report_add(&r, &mf, ebuf, sizeof(ebuf)),
	    "profile of another executable (no call count maps into t): "
	    "name the program that wrote it: prof PROG FILE");
	monread_close(&mf);
	image(&mf, 0x9000, 0x9010, NULL, 0, bins, 1);
	ck_assert_str_eq(report_add(&r, &mf, ebuf, sizeof(ebuf)),
	    "profile of another executable (no sample falls in t): "
	    "name the program that wrote it: prof PROG FILE");
	monread_close(&mf);
	report_free(&r);
}
END_TEST

/*
 * A sparse profile: the holes (unread) count as the zeros they are, and
 * the bins after a hole are where the bytes say (their bounds are
 * computed, not stepped from the first bin).
 */
START_TEST(test_sparse_profile_reads_as_its_bytes)
{
	enum { N = 1 << 20 };		/* bins, 3 * N + 1 bytes of text */
	static struct symentry far[] = {
		{ 0x1000, 0x10, 0x1010, 0, 1, 0, 0, 1, 0 },
		{ 0x1000 + 3 * (N - 10) - 1, 0x8, 0x1000 + 3 * (N - 10) + 7,
		    1, 1, 1, 1, 1, 0 },
	};
	static struct symtab farst = {
		.path = "t", .ent = far, .nent = 2, .names = names,
		.nnames = 2, .nsyms = 2, .nshown = 2,
	};
	char path[] = "/tmp/check_report.XXXXXX", ebuf[160];
	uint64_t h[3] = { 0x1000, 0x1000 + 3 * (uint64_t)N + 1, 1 };
	uint64_t meta[2] = { MON_META_RATE, 100 };
	uint16_t tick = 7;
	size_t size = 24 + 16 + 2 * (size_t)N, i;
	struct monfile dense, sparse;
	struct report rd, rs;
	unsigned char *img;
	int fd;

	ck_assert_ptr_nonnull(img = calloc(1, size));
	memcpy(img, h, 24);
	memcpy(img + 24, meta, 16);
	for (i = 0; i < 20; i++)	/* bins 0..9, N-10..N-1 */
		memcpy(img + 40 + 2 * (i < 10 ? i : N - 20 + i), &tick, 2);
	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)size), 0);
	ck_assert_int_eq(pwrite(fd, img, 4096, 0), 4096);
	ck_assert_int_eq(pwrite(fd, img + size - 4096, 4096,
	    (off_t)(size - 4096)), 4096);
	close(fd);
	ck_assert_ptr_null(monread_load(&sparse, path, ebuf, sizeof(ebuf)));
	unlink(path);
	ck_assert_ptr_null(monread_parse(&dense, img, size, ebuf,
	    sizeof(ebuf)));
	report_init(&rd, &farst);
	report_init(&rs, &farst);
	ck_assert_ptr_null(report_add(&rd, &dense, ebuf, sizeof(ebuf)));
	ck_assert_ptr_null(report_add(&rs, &sparse, ebuf, sizeof(ebuf)));
	for (i = 0; i <= 2; i++)
		ck_assert_double_eq(rs.secs[i], rd.secs[i]);
	ck_assert_double_eq_tol(rs.total, 1.4, 1e-9);
	ck_assert_double_gt(rs.secs[1], 0);
	monread_close(&dense);
	monread_close(&sparse);
	report_free(&rd);
	report_free(&rs);
	free(img);
}
END_TEST

/* The report of one profile of st from 0x1000 to HPC, printed with O. */
static char *
printed(const struct prof_opts *o, uint64_t hpc, const uint64_t *cells,
    size_t ncells, const uint16_t *bins, size_t nbins)
{
	struct model m;
	char *out = NULL;
	size_t len;
	FILE *fp;

	memset(&m, 0, sizeof(m));
	added(&m.r, &st, 0x1000, hpc, cells, ncells, bins, nbins);
	ck_assert_ptr_nonnull(fp = open_memstream(&out, &len));
	print_report(&m, o, fp);
	fclose(fp);
	report_free(&m.r);
	return out;
}

START_TEST(test_classic_line_format)
{
	static const uint64_t cells[] = { 0x1004, 15, 0x1014, 1000 };
	static const uint16_t bins[] = { 350, 10 };
	struct prof_opts o = { .sort = 't' };
	char *out = printed(&o, 0x1020, cells, 4, bins, 2);

	ck_assert_str_eq(out,
	    " %Time Seconds Cumsecs  #Calls   msec/call  Name\n"
	    "  97.2    3.50    3.50      15    233.3     A\n"
	    "   2.8    0.10    3.60    1000      0.100   B\n");
	free(out);
}
END_TEST

/* <unknown>: a line like a function's, without an address. */
START_TEST(test_unknown_line_format)
{
	static const uint64_t cells[] = { 0x1004, 15, 0x9000, 3 };
	static const uint16_t bins[] = { 350, 0, 25 };
	struct prof_opts o = { .sort = 't', .addr = 'x' };
	char *out = printed(&o, 0x1030, cells, 4, bins, 3);

	ck_assert_str_eq(out,
	    " Address  %Time Seconds Cumsecs  #Calls   msec/call  Name\n"
	    "    1000   93.3    3.50    3.50      15    233.3     A\n"
	    "            6.7    0.25    3.75       3     83.      <unknown>\n");
	free(out);
}
END_TEST

/* -u us / ns: the per-call column in micro- or nanoseconds, 3 decimals. */
START_TEST(test_percall_units)
{
	static const uint64_t cells[] = { 0x1004, 15, 0x1014, 1000 };
	static const uint16_t bins[] = { 350, 10 };
	struct prof_opts o = { .sort = 't', .unit = 'u' };
	char *out = printed(&o, 0x1020, cells, 4, bins, 2);

	ck_assert_str_eq(out,
	    " %Time Seconds Cumsecs  #Calls   usec/call  Name\n"
	    "  97.2    3.50    3.50      15  233333.333  A\n"
	    "   2.8    0.10    3.60    1000     100.000  B\n");
	free(out);
	o.unit = 'n';
	out = printed(&o, 0x1020, cells, 4, bins, 2);
	ck_assert_str_eq(out,
	    " %Time Seconds Cumsecs  #Calls   nsec/call  Name\n"
	    "  97.2    3.50    3.50      15 233333333.333  A\n"
	    "   2.8    0.10    3.60    1000  100000.000  B\n");
	free(out);
}
END_TEST

/* -L: a share of a function's time splits among its lines by bytes. */
START_TEST(test_time_split_among_lines)
{
	static const uint64_t cells[] = { 0x1004, 15 };
	static const uint16_t bins[] = { 100, 40 };
	struct srcraw raw[] = {
		{ 0x1000, 0x1004, "a.c", 1 },
		{ 0x1004, 0x1010, "a.c", 2 },
		{ 0x1010, 0x1020, "b.c", 7 },
	};
	struct lines ln;
	struct report r;
	struct monfile mf;
	char ebuf[160];

	memset(&ln, 0, sizeof(ln));
	ln.st = &st;
	ck_assert_ptr_null(srclines_build(&ln.sl, &st, raw, 3, ebuf,
	    sizeof(ebuf)));
	ck_assert_ptr_nonnull(ln.secs = calloc(ln.sl.n, sizeof(*ln.secs)));
	report_init(&r, &st);
	lines_attach(&ln, &r);
	image(&mf, 0x1000, 0x1020, cells, 2, bins, 2);
	ck_assert_ptr_null(report_add(&r, &mf, ebuf, sizeof(ebuf)));
	monread_close(&mf);
	lines_collect(&ln, &r);
	ck_assert_uint_eq(ln.n, 4);	/* A:1, A:2, B:7, <unknown> */
	ck_assert_int_eq(ln.rows[0].line, 1);
	ck_assert_double_eq_tol(ln.rows[0].secs, 0.25, 1e-9);
	ck_assert_int_eq(ln.rows[0].calls, 15);
	ck_assert_int_eq(ln.rows[1].line, 2);
	ck_assert_double_eq_tol(ln.rows[1].secs, 0.75, 1e-9);
	ck_assert_int_eq(ln.rows[2].line, 7);
	ck_assert_double_eq_tol(ln.rows[2].secs, 0.40, 1e-9);
	ck_assert_int_eq(ln.rows[3].row, REPORT_UNKNOWN(&st));
	free(ln.sl.r);
	free(ln.secs);
	free(ln.rows);
	report_free(&r);
}
END_TEST

static Suite *
report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("attribute");

	tcase_add_test(tc, test_cells_add_up_across_profiles);
	tcase_add_test(tc, test_bin_shared_in_proportion);
	tcase_add_test(tc, test_ticks_past_last_function_are_outside);
	tcase_add_test(tc, test_gap_is_unknown_not_the_neighbour);
	tcase_add_test(tc, test_other_program_refused);
	tcase_add_test(tc, test_sparse_profile_reads_as_its_bytes);
	tcase_add_test(tc, test_classic_line_format);
	tcase_add_test(tc, test_unknown_line_format);
	tcase_add_test(tc, test_percall_units);
	tcase_add_test(tc, test_time_split_among_lines);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(report_suite)
