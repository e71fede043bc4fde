/* SPDX-License-Identifier: MIT */
/*
 * check_outfile.c - the profile writer's holes (runtime/outfile.c): a
 * file block that is all zeros is left as a hole, the file reads back
 * byte for byte as written, and a file that ends in a hole has its
 * whole size.  A compact file holds the runs of words that are not
 * zeros, and only those: its length is known to the byte.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "unit.h"

#define BLK	MON_WBLOCK
#define MAXLEN	(8 * BLK)

static char dir[64];
static char path[128];
static int holes;	/* whether dir's file system keeps holes */

/*
 * What fill writes: len bytes of want, put in pieces of step bytes,
 * flushed after flush_at bytes (if not 0), the first hdr bytes then
 * rewritten with pwrite (the mon.out header).
 */
static struct spec {
	unsigned char	 want[MAXLEN];
	size_t		 len;
	size_t		 step;
	size_t		 flush_at;
	size_t		 hdr;
	int		 compact;
} sp;

static int
fill(struct __mon_wbuf *w, void *arg)
{
	static unsigned char piece[MAXLEN];
	struct spec *s = arg;
	size_t off, k;

	w->compact = s->compact;
	for (off = 0; off < s->len; off += k) {
		k = s->len - off < s->step ? s->len - off : s->step;
		if (off < s->flush_at && off + k > s->flush_at)
			k = s->flush_at - off;
		/* the header goes in as zeros first, as monout.c puts it */
		memcpy(piece, s->want + off, k);
		if (off < s->hdr)
			memset(piece, 0, s->hdr - off < k ? s->hdr - off : k);
		__mon_outfile_put(w, piece, k);
		if (off + k == s->flush_at)
			__mon_outfile_flush(w);
	}
	if (s->hdr > 0) {
		__mon_outfile_flush(w);
		if (w->err || __mon_outfile_patch(w, 0, s->want, s->hdr) != 0)
			return -1;
	}
	return 0;
}

static void
setup(void)
{
	char probe[128];
	struct stat sb;
	int fd;

	strcpy(dir, "/tmp/check_outfile.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(probe, sizeof(probe), "%s/probe", dir);
	fd = open(probe, O_WRONLY | O_CREAT, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 1 << 20), 0);
	ck_assert_int_eq(fstat(fd, &sb), 0);
	holes = sb.st_blocks * 512 < (1 << 20);
	close(fd);
	unlink(probe);
	memset(&sp, 0, sizeof(sp));
	sp.step = 1000;
}

static void
teardown(void)
{
	unlink(path);
	rmdir(dir);
}

/* Write sp, read it back: the same bytes, the same size; its stat. */
static void
write_check(struct stat *sb)
{
	static unsigned char got[MAXLEN + 1];
	ssize_t n;
	int fd;

	ck_assert_int_eq(__mon_outfile_write(path, fill, &sp), 0);
	ck_assert_int_ge(fd = open(path, O_RDONLY), 0);
	ck_assert_int_eq(fstat(fd, sb), 0);
	ck_assert_int_eq((long)sb->st_size, (long)sp.len);
	n = read(fd, got, sizeof(got));
	ck_assert_int_eq((long)n, (long)sp.len);
	ck_assert_int_eq(memcmp(got, sp.want, sp.len), 0);
	close(fd);
}

/* Whether file block b of path is a hole (1), data (0), or unknown. */
static int
is_hole(size_t b)
{
	int fd = open(path, O_RDONLY);
	off_t d;

	ck_assert_int_ge(fd, 0);
	d = lseek(fd, (off_t)(b * BLK), SEEK_DATA);
	close(fd);
	if (d < 0 && errno == ENXIO)
		return 1;	/* no data from there on */
	ck_assert_int_ge((long)d, 0);
	return d >= (off_t)((b + 1) * BLK);
}

/* A file that ends in holes: its size is whole, its zeros not on disk. */
START_TEST(test_ends_in_hole)
{
	struct stat sb;

	memset(sp.want, 'x', 100);
	sp.len = 100 + 3 * BLK + 10;	/* then zeros, to a partial block */
	write_check(&sb);
	if (!holes)
		return;
	ck_assert_int_le((long)sb.st_blocks * 512, BLK);
	ck_assert_int_eq(is_hole(0), 0);
	ck_assert_int_eq(is_hole(1), 1);
	ck_assert_int_eq(is_hole(3), 1);
}
END_TEST

/* Only zeros: all hole, and still its size. */
START_TEST(test_all_zeros)
{
	struct stat sb;

	sp.len = 5 * BLK;
	write_check(&sb);
	if (holes)
		ck_assert_int_eq((long)sb.st_blocks, 0);
	sp.len = 7;
	write_check(&sb);
	sp.len = 0;
	write_check(&sb);
}
END_TEST

/*
 * Holes between data that is not block-aligned, pieces that cross
 * blocks, a flush half way through a block, and the header rewritten
 * with pwrite: the bytes are the dense file's; only the blocks with a
 * byte that is not zero are on disk.
 */
START_TEST(test_holes_between)
{
	static const size_t flush_at[] = { 0, 50, BLK + 7, 2 * BLK };
	struct stat sb;
	size_t i, b;

	memset(sp.want, 'h', 24);
	memset(sp.want + 24, 'c', 300);
	sp.want[2 * BLK - 1] = 1;		/* the last byte of block 1 */
	sp.want[4 * BLK] = 2;			/* the first of block 4 */
	sp.want[6 * BLK + 100] = 3;		/* in the last block, */
	sp.len = 6 * BLK + 200;			/* which ends in zeros */
	sp.hdr = 24;
	for (i = 0; i < sizeof(flush_at) / sizeof(flush_at[0]); i++) {
		sp.flush_at = flush_at[i];
		sp.step = i % 2 ? 1000 : 4096;
		write_check(&sb);
		if (!holes)
			continue;
		for (b = 0; b < 7; b++)
			ck_assert_int_eq(is_hole(b), b == 2 || b == 3 ||
			    b == 5);
		ck_assert_int_le((long)sb.st_blocks * 512, 4 * BLK);
	}
}
END_TEST

/*
 * Write sp compact, read it back: its magic and the classic length, and
 * its runs expanded are sp's bytes.  Returns the file's length; its runs
 * into nruns.
 */
static size_t nruns;

static size_t
compact_check(void)
{
	static unsigned char got[MAXLEN + 64], dense[MAXLEN];
	uint64_t v[2], off, n;
	size_t at, len;
	ssize_t r;
	int fd;

	sp.compact = 1;
	ck_assert_int_eq(__mon_outfile_write(path, fill, &sp), 0);
	ck_assert_int_ge(fd = open(path, O_RDONLY), 0);
	r = read(fd, got, sizeof(got));
	close(fd);
	ck_assert_int_ge((long)r, MON_COMPACT_HDR);
	len = (size_t)r;
	memcpy(v, got, sizeof(v));
	ck_assert_uint_eq(v[0], MON_COMPACT_MAGIC);
	ck_assert_uint_eq(v[1], sp.len);
	memset(dense, 0, sizeof(dense));
	nruns = 0;
	for (at = MON_COMPACT_HDR; at < len; at += MON_COMPACT_RUN + n) {
		nruns++;
		memcpy(&off, got + at, 8);
		memcpy(&n, got + at + 8, 8);
		ck_assert_uint_le(off + n, sp.len);
		memcpy(dense + off, got + at + MON_COMPACT_RUN, n);
	}
	ck_assert_uint_eq(at, len);
	ck_assert_int_eq(memcmp(dense, sp.want, sp.len), 0);
	return len;
}

/*
 * Compact: the header's 24 bytes always (patched at the end), then each
 * word that is not zeros, with at most 2 words of zeros between two of
 * a run: here the header and 300 bytes (to the end of their word, 328),
 * and three lone bytes, each a word: 16 + (16 + 328) + 3 * (16 + 8).
 */
START_TEST(test_compact_runs)
{
	static const size_t flush_at[] = { 0, 50, BLK + 7, 2 * BLK };
	size_t i;

	memset(sp.want, 'h', 24);
	memset(sp.want + 24, 'c', 300);
	sp.want[2 * BLK - 1] = 1;
	sp.want[4 * BLK] = 2;
	sp.want[6 * BLK + 100] = 3;
	sp.len = 6 * BLK + 200;
	sp.hdr = 24;
	for (i = 0; i < sizeof(flush_at) / sizeof(flush_at[0]); i++) {
		sp.flush_at = flush_at[i];
		sp.step = i % 2 ? 1000 : 4096;
		/* A flush that leaves a block half full, as only a test
		 * does, may cut a run in two there. */
		if (flush_at[i] % BLK == 0)
			ck_assert_uint_eq(compact_check(), 16 + 344 + 3 * 24);
		else
			ck_assert_uint_le(compact_check(),
			    16 + 344 + 3 * 24 + 2 * 24);
	}
	/* Two words of zeros between two others: one run; three: two. */
	memset(sp.want, 0, sizeof(sp.want));
	memset(sp.want, 'h', 24);		/* words 0 to 2 */
	sp.want[40] = 1;			/* word 5 */
	sp.len = 56;
	sp.flush_at = 0;
	ck_assert_uint_eq(compact_check(), 16 + 16 + 48);
	ck_assert_uint_eq(nruns, 1);
	sp.want[40] = 0;
	sp.want[48] = 1;			/* word 6 */
	ck_assert_uint_eq(compact_check(), 16 + 16 + 24 + 16 + 8);
	ck_assert_uint_eq(nruns, 2);
}
END_TEST

/* Compact zeros: the header's 24 bytes only, or what there is of them. */
START_TEST(test_compact_zeros)
{
	sp.len = 5 * BLK;
	ck_assert_uint_eq(compact_check(), 16 + 16 + 24);
	sp.len = 7;
	ck_assert_uint_eq(compact_check(), 16 + 16 + 7);
	sp.len = 0;
	ck_assert_uint_eq(compact_check(), 16);
}
END_TEST

static Suite *
outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("holes");

	__mon_monitor_stop(0);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_ends_in_hole);
	tcase_add_test(tc, test_all_zeros);
	tcase_add_test(tc, test_holes_between);
	tcase_add_test(tc, test_compact_runs);
	tcase_add_test(tc, test_compact_zeros);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(outfile_suite)
