/* SPDX-License-Identifier: MIT */
/*
 * check_monread.c - prof's mon.out reader (prof/monread.c): every
 * malformed input is refused with its message; a good file round-trips.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "input.h"
#include "unit.h"

struct img {
	unsigned char	buf[4096];
	size_t		len;
};

static void
put(struct img *im, const void *p, size_t n)
{
	memcpy(im->buf + im->len, p, n);
	im->len += n;
}

static void
hdr(struct img *im, uint64_t lpc, uint64_t hpc, uint64_t nfns)
{
	im->len = 0;
	put(im, &lpc, 8);
	put(im, &hpc, 8);
	put(im, &nfns, 8);
}

static void
cell(struct img *im, uint64_t pc, long count)
{
	put(im, &pc, 8);
	put(im, &count, 8);
}

static void
bins(struct img *im, size_t n)
{
	static const unsigned char zero[1024];

	put(im, zero, 2 * n);
}

static const char *
parse(struct img *im, struct monfile *mf)
{
	static char ebuf[160];

	return monread_parse(mf, im->buf, im->len, ebuf, sizeof(ebuf));
}

#define REFUSED(im, msg) do {						\
	struct monfile mf_;						\
	const char *e_ = parse(im, &mf_);				\
	ck_assert_ptr_nonnull(e_);					\
	ck_assert_str_eq(e_, msg);					\
} while (0)

START_TEST(test_empty_file_refused)
{
	struct img im = { .len = 0 };

	REFUSED(&im, "empty file");
}
END_TEST

START_TEST(test_truncated_header_refused)
{
	struct img im;

	hdr(&im, 0x1000, 0x2000, 0);
	im.len = 23;
	REFUSED(&im, "truncated header (23 of 24 bytes)");
}
END_TEST

START_TEST(test_nfns_beyond_file_refused)
{
	struct img im;

	hdr(&im, 0x1000, 0x2000, 2);
	cell(&im, 0x1100, 1);
	REFUSED(&im, "header says 2 cells, the file holds at most 1");
	hdr(&im, 0x1000, 0x2000, UINT64_MAX);
	REFUSED(&im, "header says 18446744073709551615 cells, "
	    "the file holds at most 0");
}
END_TEST

START_TEST(test_odd_histogram_refused)
{
	struct img im;

	hdr(&im, 0x1000, 0x2000, 0);
	bins(&im, 2);
	im.len++;
	REFUSED(&im, "odd histogram size (5 bytes)");
}
END_TEST

START_TEST(test_bad_range_refused)
{
	struct img im;

	hdr(&im, 0x2000, 0x1000, 0);
	REFUSED(&im, "bad range: lpc 0x2000 >= hpc 0x1000");
	hdr(&im, 0x2000, 0x2000, 0);
	bins(&im, 1);
	REFUSED(&im, "bad range: lpc 0x2000 >= hpc 0x2000");
	hdr(&im, 0x2000, 0x2002, 0);
	bins(&im, 3);
	REFUSED(&im, "3 histogram bins for a range of 2 bytes");
}
END_TEST

START_TEST(test_bad_metadata_refused)
{
	struct img im;

	hdr(&im, 0x1000, 0x2000, 1);
	cell(&im, MON_META_MAGIC, 42);
	REFUSED(&im, "bad magic 0x2a");
	hdr(&im, 0x1000, 0x2000, 1);
	cell(&im, MON_META_VERSION, MON_FORMAT_VERSION + 1);
	REFUSED(&im, "unsupported format version 3");
	hdr(&im, 0x1000, 0x2000, 1);
	cell(&im, MON_META_RATE, -1);
	REFUSED(&im, "bad sampling rate -1");
	hdr(&im, 0x1000, 0x2000, 1);
	cell(&im, 0x1234, -1);
	REFUSED(&im, "cell 0: negative call count -1");
	hdr(&im, 0x1000, 0x2000, 0);
	im.len = 0;
	put(&im, "PROF\1\0\0\0", 8);
	REFUSED(&im, "Solaris versioned (PROF) profiles are not supported");
}
END_TEST

/* "/lib/x.so" in path cells (the NUL in the second one) */
static void
object(struct img *im, uint64_t lo, uint64_t hi, uint64_t off)
{
	long v[2] = { 0, 0 };

	memcpy(v, "/lib/x.so", 10);
	cell(im, MON_META_OBJECT, (long)lo);
	cell(im, MON_META_OBJECT_END, (long)hi);
	cell(im, MON_META_OBJECT_OFFSET, (long)off);
	cell(im, MON_META_OBJECT_PATH, v[0]);
	cell(im, MON_META_OBJECT_PATH, v[1]);
}

START_TEST(test_object_records_read_in_order)
{
	struct img im;
	struct monfile mf;
	long v[2] = { 0, 0 };

	memcpy(v, "/lib/y.so", 10);
	hdr(&im, 0x1000, 0x2000, 13);
	cell(&im, MON_META_VERSION, 1);
	object(&im, 0x7f1000001000, 0x7f1000003000, 0x1000);
	cell(&im, MON_META_OBJECT, 0x7f0000000000);
	cell(&im, MON_META_OBJECT_END, 0x7f0000001000);
	cell(&im, MON_META_OBJECT_OFFSET, 0);
	cell(&im, MON_META_OBJECT_BUILDID, 0x1234);
	cell(&im, MON_META_OBJECT_PATH, v[0]);
	cell(&im, MON_META_OBJECT_PATH, v[1]);
	cell(&im, 0x7f1000001234, 5);
	cell(&im, MON_META_OBJECT, 0x10);	/* after the function cells */
	ck_assert_ptr_null(parse(&im, &mf));
	ck_assert_uint_eq(mf.nobj, 2);
	ck_assert_uint_eq(mf.obj[0].start, 0x7f1000001000);
	ck_assert_uint_eq(mf.obj[0].end, 0x7f1000003000);
	ck_assert_uint_eq(mf.obj[0].offset, 0x1000);
	ck_assert_str_eq(mf.obj[0].path, "/lib/x.so");
	ck_assert_int_eq(mf.obj[0].buildid, 0);
	ck_assert_uint_eq(mf.obj[1].start, 0x7f0000000000);
	ck_assert_int_eq(mf.obj[1].buildid, 0x1234);
	ck_assert_str_eq(mf.obj[1].path, "/lib/y.so");
	/* By address: [start, end), the first below the second. */
	ck_assert_int_eq(monobj_at(&mf, 0x7f1000001000), 0);
	ck_assert_int_eq(monobj_at(&mf, 0x7f1000002fff), 0);
	ck_assert_int_eq(monobj_at(&mf, 0x7f1000003000), -1);
	ck_assert_int_eq(monobj_at(&mf, 0x7f0000000fff), 1);
	ck_assert_int_eq(monobj_at(&mf, 0x7f0000001000), -1);
	ck_assert_int_eq(monobj_at(&mf, 0x10), -1);
	monread_close(&mf);
}
END_TEST

/* 50,000 records: each read once, each found by address. */
START_TEST(test_many_object_records_read)
{
	enum { N = 50000 };
	struct monfile mf;
	char ebuf[160];
	size_t i, len = 24 + N * 5 * 16;
	unsigned char *p;
	uint64_t h[3] = { 0, 0, N * 5 }, c[2];

	ck_assert_ptr_nonnull(p = malloc(len));
	memcpy(p, h, 24);
	for (i = 0; i < N * 5; i++) {
		c[0] = MON_META_OBJECT + i % 5 - (i % 5 == 4);
		c[1] = i % 5 == 0 ? 0x7f0000000000 + (i / 5) * 0x2000 :
		    i % 5 == 1 ? 0x7f0000001000 + (i / 5) * 0x2000 :
		    i % 5 == 2 ? 0 : i % 5 == 3 ? 0x6f732e782f62696cL : 0;
		memcpy(p + 24 + i * 16, c, 16);
	}
	ck_assert_ptr_null(monread_parse(&mf, p, len, ebuf, sizeof(ebuf)));
	ck_assert_uint_eq(mf.nobj, N);
	ck_assert_str_eq(mf.obj[N - 1].path, "lib/x.so");
	ck_assert_int_eq(monobj_at(&mf, 0x7f0000000000 +
	    (N - 1) * 0x2000 + 5), N - 1);
	monread_close(&mf);
	free(p);
}
END_TEST

START_TEST(test_bad_object_records_refused)
{
	struct img im;
	long v = 0x2f2f2f2f2f2f2f2fL;		/* "////////": no NUL */

	hdr(&im, 0x1000, 0x2000, 4);
	cell(&im, MON_META_OBJECT, 0x7f0000001000);
	cell(&im, MON_META_OBJECT_END, 0x7f0000002000);
	cell(&im, MON_META_OBJECT_OFFSET, 0);
	cell(&im, MON_META_OBJECT_PATH, v);
	REFUSED(&im, "bad shared object record at cell 4");
	hdr(&im, 0x1000, 0x2000, 2);
	cell(&im, MON_META_OBJECT, 0x7f0000001000);
	cell(&im, MON_META_OBJECT_OFFSET, 0);	/* END missing */
	REFUSED(&im, "bad shared object record at cell 1");
	hdr(&im, 0x1000, 0x2000, 5);
	object(&im, 0x7f0000002000, 0x7f0000002000, 0);	/* empty */
	REFUSED(&im, "bad shared object record at cell 5");
	hdr(&im, 0x1000, 0x2000, 10);
	object(&im, 0x7f0000002000, 0x7f0000004000, 0);
	object(&im, 0x7f0000003000, 0x7f0000005000, 0);
	REFUSED(&im, "shared object records overlap at 0x7f0000003000");
}
END_TEST

START_TEST(test_count_only_profile_accepted)
{
	struct img im;
	struct monfile mf;

	hdr(&im, 0, 0, 1);
	cell(&im, 0x1234, 5);
	ck_assert_ptr_null(parse(&im, &mf));
	ck_assert_uint_eq(mf.nbins, 0);
	ck_assert_uint_eq(mf.nfns, 1);
}
END_TEST

START_TEST(test_round_trip_through_a_file)
{
	char path[] = "/tmp/check_monread.XXXXXX";
	struct hdr h = { (char *)0x1000, (char *)0x1100, 4 };
	struct cnt c[4] = {
		{ (char *)MON_META_MAGIC, MON_META_MAGIC_VALUE },
		{ (char *)MON_META_RATE, 997 },
		{ (char *)MON_META_SATURATED, 3 },
		{ (char *)0x1010, 12 },
	};
	WORD w[32] = { [5] = 9, [31] = 65535 };
	struct monfile mf;
	struct monrun r;
	uint64_t pc;
	size_t k;
	long n;
	FILE *f;
	int fd;

	ck_assert_int_ge(fd = mkstemp(path), 0);
	ck_assert_ptr_nonnull(f = fdopen(fd, "wb"));
	fwrite(&h, sizeof(h), 1, f);
	fwrite(c, sizeof(c), 1, f);
	fwrite(w, sizeof(w), 1, f);
	fclose(f);
	monread_open(&mf, path);
	unlink(path);
	ck_assert_uint_eq(mf.lpc, 0x1000);
	ck_assert_uint_eq(mf.hpc, 0x1100);
	ck_assert_uint_eq(mf.nfns, 4);
	ck_assert_uint_eq(mf.nmeta, 3);
	ck_assert_uint_eq(mf.nbins, 32);
	ck_assert_int_eq(mf.meta[MON_META_RATE], 997);
	ck_assert_int_eq(mf.meta[MON_META_SATURATED], 3);
	ck_assert(mf.has & MONREAD_HAS(MON_META_RATE));
	ck_assert(!(mf.has & MONREAD_HAS(MON_META_BUILDID)));
	k = 0;
	ck_assert(monread_cells(&mf, &k, &r));
	ck_assert_uint_eq(r.first, 0);
	ck_assert_uint_eq(r.n, 4);
	monrun_cell(&r, 3, &pc, &n);
	ck_assert_uint_eq(pc, 0x1010);
	ck_assert_int_eq(n, 12);
	ck_assert(!monread_cells(&mf, &k, &r));
	k = 0;
	ck_assert(monread_bins(&mf, &k, &r));
	ck_assert_uint_eq(r.first, 0);
	ck_assert_uint_eq(r.n, 32);
	ck_assert_uint_eq(monrun_bin(&r, 5), 9);
	ck_assert_uint_eq(monrun_bin(&r, 31), 65535);
	monread_close(&mf);
}
END_TEST

/*
 * monread_compact(): the zeros go, the rest keeps its place: zero cells
 * (unused) and bins (no sample) are no longer visited, a cell of count
 * 0 still is, and a short run of zeros between two bins stays.
 */
START_TEST(test_compact_keeps_what_counts)
{
	static const WORD w[64] = { [8] = 3, [11] = 5, [40] = 7, [63] = 1 };
	struct img im;
	struct monfile mf;
	struct monrun r;
	uint64_t pc;
	size_t k, i;
	long n;

	hdr(&im, 0x1000, 0x1040, 6);
	cell(&im, 0, 0);
	cell(&im, 0x1010, 12);
	cell(&im, 0, 0);
	cell(&im, 0, 0);
	cell(&im, 0x1020, 0);
	cell(&im, 0, 0);
	put(&im, w, sizeof(w));
	ck_assert_ptr_null(parse(&im, &mf));
	ck_assert_int_eq(monread_compact(&mf), 0);
	k = 0;
	ck_assert(monread_cells(&mf, &k, &r));
	ck_assert_uint_eq(r.first, 1);
	ck_assert_uint_eq(r.n, 1);
	monrun_cell(&r, 0, &pc, &n);
	ck_assert_uint_eq(pc, 0x1010);
	ck_assert_int_eq(n, 12);
	ck_assert(monread_cells(&mf, &k, &r));
	ck_assert_uint_eq(r.first, 4);
	ck_assert_uint_eq(r.n, 1);
	monrun_cell(&r, 0, &pc, &n);
	ck_assert_uint_eq(pc, 0x1020);
	ck_assert_int_eq(n, 0);
	ck_assert(!monread_cells(&mf, &k, &r));
	/* Bins 8 to 11 in one run (2 zero bins between), 40, then 63. */
	k = 0;
	ck_assert(monread_bins(&mf, &k, &r));
	ck_assert_uint_eq(r.first, 8);
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(monrun_bin(&r, 0), 3);
	ck_assert_uint_eq(monrun_bin(&r, 3), 5);
	for (i = 40; i <= 63; i += 23) {
		ck_assert(monread_bins(&mf, &k, &r));
		ck_assert_uint_eq(r.first, i);
		ck_assert_uint_eq(r.n, 1);
		ck_assert_uint_eq(monrun_bin(&r, 0), w[i]);
	}
	ck_assert(!monread_bins(&mf, &k, &r));
	monread_close(&mf);
}
END_TEST

/*
 * The classic image IM as a compact mon.out (mon.h) into OUT: a run for
 * each stretch of bytes that are not zeros, cut anywhere (in a cell, in
 * a bin), as a reader must take them.
 */
static void
to_compact(const struct img *im, struct img *out)
{
	uint64_t v[2] = { MON_COMPACT_MAGIC, im->len };
	size_t i = 0, j;

	out->len = 0;
	put(out, v, sizeof(v));
	while (i < im->len) {
		if (im->buf[i] == 0) {
			i++;
			continue;
		}
		for (j = i; j < im->len && im->buf[j] != 0; j++)
			;
		v[0] = i;
		v[1] = j - i;
		put(out, v, sizeof(v));
		put(out, im->buf + i, j - i);
		i = j;
	}
}

/* Each cell or bin of MF that is not zero, as text, into BUF. */
static void
visible(struct monfile *mf, char *buf, size_t len)
{
	struct monrun r;
	uint64_t pc;
	size_t k = 0, i, at = 0;
	long n;

	buf[0] = '\0';
	while (monread_cells(mf, &k, &r))
		for (i = 0; i < r.n; i++) {
			monrun_cell(&r, i, &pc, &n);
			if (pc != 0 || n != 0)
				at += (size_t)snprintf(buf + at, len - at,
				    "c%zu:%llx:%ld ", r.first + i,
				    (unsigned long long)pc, n);
		}
	k = 0;
	while (monread_bins(mf, &k, &r))
		for (i = 0; i < r.n; i++)
			if (monrun_bin(&r, i) != 0)
				at += (size_t)snprintf(buf + at, len - at,
				    "b%zu:%u ", r.first + i, monrun_bin(&r, i));
}

/*
 * A compact mon.out reads as the classic file it stands for: the same
 * header, metadata, cells and bins, however its runs are cut; and the
 * same again once compacted.
 */
START_TEST(test_compact_file_read)
{
	static const WORD w[64] = { [0] = 2, [8] = 3, [11] = 5, [40] = 7,
	    [63] = 1 };
	static char a[2048], b[2048];
	struct img im, co;
	struct monfile mf, mc;

	hdr(&im, 0x1000, 0x1040, 6);
	cell(&im, MON_META_MAGIC, MON_META_MAGIC_VALUE);
	cell(&im, MON_META_RATE, 250);
	cell(&im, 0x1010, 12);
	cell(&im, 0, 0);
	cell(&im, 0x1020, 0);
	cell(&im, 0x1030, 0x10000000001L);
	put(&im, w, sizeof(w));
	to_compact(&im, &co);
	ck_assert_ptr_null(parse(&im, &mf));
	ck_assert_ptr_null(parse(&co, &mc));
	ck_assert_uint_eq(mc.size, im.len);
	ck_assert_uint_eq(mc.lpc, 0x1000);
	ck_assert_uint_eq(mc.hpc, 0x1040);
	ck_assert_uint_eq(mc.nfns, 6);
	ck_assert_uint_eq(mc.nbins, 64);
	ck_assert_int_eq(mc.meta[MON_META_RATE], 250);
	visible(&mf, a, sizeof(a));
	visible(&mc, b, sizeof(b));
	ck_assert_str_eq(b, a);
	ck_assert_str_eq(b, "c0:1:3559655092786196333 c1:3:250 c2:1010:12 c4:1020:0 "
	    "c5:1030:1099511627777 b0:2 b8:3 b11:5 b40:7 b63:1 ");
	ck_assert_int_eq(monread_compact(&mc), 0);
	visible(&mc, b, sizeof(b));
	ck_assert_str_eq(b, a);
	monread_close(&mf);
	monread_close(&mc);
}
END_TEST

/* A damaged compact mon.out is refused, in one line naming the problem. */
START_TEST(test_bad_compact_refused)
{
	struct img im, co;
	uint64_t v[2];

	hdr(&im, 0x1000, 0x1010, 1);
	cell(&im, 0x1004, 3);
	bins(&im, 8);
	to_compact(&im, &co);
	co.len = 8;
	REFUSED(&co, "truncated compact header (8 of 16 bytes)");
	to_compact(&im, &co);
	co.len -= 1;
	/* Runs: a byte of lpc, of hpc, of nfns, 2 of the cell's pc, 1 of
	 * its count; the last cut short. */
	REFUSED(&co, "compact run 5 (1 bytes at 32) out of order, empty or "
	    "past the end");
	to_compact(&im, &co);
	co.len = MON_COMPACT_HDR + 8;
	REFUSED(&co, "compact run 1 truncated");
	/* A run before the last one's end; a run past the classic size. */
	to_compact(&im, &co);
	v[0] = 0;
	v[1] = 1;
	put(&co, v, sizeof(v));
	put(&co, "x", 1);
	REFUSED(&co, "compact run 6 (1 bytes at 0) out of order, empty or "
	    "past the end");
	to_compact(&im, &co);
	v[0] = im.len;
	put(&co, v, sizeof(v));
	put(&co, "x", 1);
	REFUSED(&co, "compact run 6 (1 bytes at 56) out of order, empty or "
	    "past the end");
	to_compact(&im, &co);
	v[0] = 40;
	v[1] = 0;
	put(&co, v, sizeof(v));
	REFUSED(&co, "compact run 6 (0 bytes at 40) out of order, empty or "
	    "past the end");
	/* Its header, from the runs, checked as a classic one's. */
	hdr(&im, 0x1000, 0x1010, 9);
	to_compact(&im, &co);
	REFUSED(&co, "header says 9 cells, the file holds at most 0");
}
END_TEST

START_TEST(test_missing_file_exits_1)
{
	struct monfile mf;

	monread_open(&mf, "/nonexistent/mon.out");
}
END_TEST

static Suite *
monread_suite(void)
{
	Suite *s = suite_create("monread");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_empty_file_refused);
	tcase_add_test(tc, test_truncated_header_refused);
	tcase_add_test(tc, test_nfns_beyond_file_refused);
	tcase_add_test(tc, test_odd_histogram_refused);
	tcase_add_test(tc, test_bad_range_refused);
	tcase_add_test(tc, test_bad_metadata_refused);
	tcase_add_test(tc, test_object_records_read_in_order);
	tcase_add_test(tc, test_many_object_records_read);
	tcase_add_test(tc, test_bad_object_records_refused);
	tcase_add_test(tc, test_count_only_profile_accepted);
	tcase_add_test(tc, test_round_trip_through_a_file);
	tcase_add_test(tc, test_compact_file_read);
	tcase_add_test(tc, test_bad_compact_refused);
	tcase_add_test(tc, test_compact_keeps_what_counts);
	tcase_add_exit_test(tc, test_missing_file_exits_1, 1);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(monread_suite)
