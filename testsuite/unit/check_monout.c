/* SPDX-License-Identifier: MIT */
/*
 * check_monout.c - the mon.out writer (runtime/monout.c): write, read
 * back, compare byte for byte; nothing left behind on failure.
 */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "unit.h"
#include "../tools/hooks.h"

#define NF	3
#define RANGE	1600
#define BUFSIZE	((sizeof(struct hdr) + 4 * sizeof(struct cnt)) / \
		    sizeof(WORD) + RANGE / 8)

static WORD buf[BUFSIZE] __attribute__((aligned(16)));
static long *words[NF];
static struct cnt *cellp[NF];
static char dir[64];

static void
call(int i)
{
	mon_hook_count(&words[i], &cellp[i]);
}

/* The form the runtime writes: the classic mon.out (1) or compact (0). */
static void
form(int classic)
{
	((struct __mon_env *)(uintptr_t)__mon_env_get())->classic = classic;
}

static void
setup(void)
{
	strcpy(dir, "/tmp/check_monout.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	__mon_mode_set(1);
}

static void
teardown(void)
{
	char cmd[128];

	__mon_monitor_stop(0);	/* nothing written at the test's exit */
	form(0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return;
}

static long
meta_of(const struct cnt *c, size_t n, long key)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((long)c[i].fnpc == key)
			return c[i].mcnt;
	return -1;
}

/*
 * Metadata cells of a run with no shared object and no sample: 16 (the
 * last STACKS_LOST), and the executable's path, 8 bytes a cell with its
 * NUL.
 */
#define NMETA	(16 + strlen(__mon_exe_path()) / 8 + 1)

/*
 * monitor() on a buffer of RANGE bytes of text, function i called i + 1
 * times, every bin set: *SSIZ words of header and cells before the
 * *NBINS bins.
 */
static void
prepare(size_t *ssiz, size_t *nbins)
{
	char *lo = (char *)&setup;
	uintptr_t hlo, hhi;
	size_t i;
	int k;

	ck_assert_int_eq(__monitor((int (*)(void))lo,
	    (int (*)(void))(lo + RANGE), buf, BUFSIZE, 4), 0);
	__mon_sampler_stop();	/* no sample may change the bins now */
	for (i = 0; i < NF; i++)
		for (k = 0; k <= (int)i; k++)
			call((int)i);
	*ssiz = (sizeof(struct hdr) + 4 * sizeof(struct cnt)) / sizeof(WORD);
	*nbins = BUFSIZE - *ssiz;
	ck_assert_ptr_eq(__mon_hist_get(&i, &hlo, &hhi), buf + *ssiz);
	ck_assert_uint_eq(i, *nbins);
	for (i = 0; i < *nbins; i++)
		buf[*ssiz + i] = (WORD)(i * 7 + 1);
}

START_TEST(test_round_trip_byte_exact)
{
	char path[128], *lo = (char *)&setup;
	struct hdr h;
	struct cnt c[16 + PATH_MAX / 8 + 1 + NF];
	char exe[PATH_MAX + 8];
	size_t n;
	WORD hist[RANGE];
	size_t nbins, ssiz, i;
	struct stat sb;
	FILE *f;

	prepare(&ssiz, &nbins);
	form(1);		/* after monitor(), which reads PROFFLAGS */
	snprintf(path, sizeof(path), "%s/mon.out", dir);
	ck_assert_int_eq(__mon_monout_write(path), 0);

	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	ck_assert_int_eq(fstat(fileno(f), &sb), 0);
	ck_assert_uint_eq(fread(&h, sizeof(h), 1, f), 1);
	/* Every cell reserved: the unused ones (of the 4 and of the
	 * default buffer) are zero cells after the others. */
	ck_assert_uint_eq(h.nfns, NMETA + NF + __mon_cells_unused());
	ck_assert_int_eq((long)sb.st_size, (long)(sizeof(h) +
	    h.nfns * sizeof(struct cnt) + nbins * sizeof(WORD)));
	ck_assert_ptr_eq(h.lpc, (char *)__mon_exe_linktime((uintptr_t)lo));
	ck_assert_int_eq(h.hpc - h.lpc, RANGE);
	ck_assert_uint_eq(fread(c, sizeof(c[0]), NMETA + NF, f), NMETA + NF);
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_MAGIC), MON_META_MAGIC_VALUE);
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_VERSION), MON_FORMAT_VERSION);
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_PID), (long)getpid());
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_BIAS), (long)__mon_exe_bias());
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_THREADS), 1);
	/* Samples keep their stacks by default: none was taken here. */
	ck_assert_int_eq(meta_of(c, NMETA, MON_META_STACKS_LOST), 0);
	for (i = n = 0; i < NMETA; i++)
		if ((long)c[i].fnpc == MON_META_EXE_PATH) {
			memcpy(exe + n, &c[i].mcnt, 8);
			n += 8;
		}
	ck_assert_uint_gt(n, 0);
	ck_assert_str_eq(exe, __mon_exe_path());
	for (i = 0; i < NF; i++) {
		/* cells in allocation order: the monitor() buffer's */
		ck_assert_ptr_eq(cellp[i], (struct cnt *)(buf + 12) + i);
		ck_assert_ptr_eq(c[NMETA + i].fnpc, (char *)__mon_exe_linktime(
		    (uintptr_t)cellp[i]->fnpc));
		ck_assert_int_eq(c[NMETA + i].mcnt, (long)i + 1);
	}
	for (i = NMETA + NF; i < h.nfns; i++) {
		ck_assert_uint_eq(fread(c, sizeof(c[0]), 1, f), 1);
		ck_assert(c[0].fnpc == NULL && c[0].mcnt == 0);
	}
	ck_assert_uint_eq(fread(hist, sizeof(WORD), nbins + 1, f), nbins);
	ck_assert_int_eq(memcmp(hist, buf + ssiz, nbins * sizeof(WORD)), 0);
	fclose(f);
}
END_TEST

/* The file at PATH, whole, and its length. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	static unsigned char b[2][1 << 16];
	static int k;
	FILE *f;

	ck_assert_ptr_nonnull(f = fopen(path, "rb"));
	*len = fread(b[k], 1, sizeof(b[k]), f);
	ck_assert_uint_lt(*len, sizeof(b[k]));
	fclose(f);
	return b[k++ % 2];
}

/*
 * The compact mon.out (the default) of a run is the classic file's bytes
 * that are not zeros (mon.h): expanded, it is the classic file, byte for
 * byte; its runs are in order and hold no run of 3 zero words.
 */
START_TEST(test_compact_is_the_classic_file)
{
	static unsigned char dense[1 << 16];
	char classic[128], compact[128];
	const unsigned char *cl, *co, *p;
	uint64_t magic, size, off, n, prev = 0;
	size_t clen, colen, ssiz, nbins, j, zeros;

	prepare(&ssiz, &nbins);
	snprintf(classic, sizeof(classic), "%s/classic", dir);
	snprintf(compact, sizeof(compact), "%s/compact", dir);
	form(1);
	ck_assert_int_eq(__mon_monout_write(classic), 0);
	form(0);
	ck_assert_int_eq(__mon_monout_write(compact), 0);
	cl = slurp(classic, &clen);
	co = slurp(compact, &colen);
	memcpy(&magic, co, 8);
	memcpy(&size, co + 8, 8);
	ck_assert_uint_eq(magic, MON_COMPACT_MAGIC);
	ck_assert_uint_eq(size, clen);
	memset(dense, 0, sizeof(dense));
	for (p = co + MON_COMPACT_HDR; p < co + colen;
	    p += MON_COMPACT_RUN + n) {
		memcpy(&off, p, 8);
		memcpy(&n, p + 8, 8);
		ck_assert_uint_ge(off, prev);
		ck_assert_uint_gt(n, 0);
		ck_assert_uint_le(off + n, size);
		ck_assert_uint_le((size_t)(p - co) + MON_COMPACT_RUN + n, colen);
		memcpy(dense + off, p + MON_COMPACT_RUN, n);
		for (j = zeros = 0; j + 8 <= n; j += 8) {
			zeros = memcmp(p + MON_COMPACT_RUN + j, "\0\0\0\0\0\0\0\0",
			    8) == 0 ? zeros + 1 : 0;
			ck_assert_uint_lt(zeros, 3);
		}
		prev = off + n;
	}
	ck_assert_int_eq(memcmp(dense, cl, clen), 0);
	/* The unused cells (the default buffer's) are not in it. */
	ck_assert_uint_lt(colen, clen);
}
END_TEST

START_TEST(test_failure_leaves_nothing)
{
	char path[128];
	DIR *d;
	struct dirent *e;
	int n = 0;

	snprintf(path, sizeof(path), "%s/no/such/dir/mon.out", dir);
	ck_assert_int_eq(__mon_monout_write(path), -1);
	/* a directory in the way of the rename */
	snprintf(path, sizeof(path), "%s/mon.out", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	ck_assert_int_eq(__mon_monout_write(path), -1);
	ck_assert_ptr_nonnull(d = opendir(dir));
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	ck_assert_int_eq(n, 1);		/* the directory only */
}
END_TEST

/*
 * A temporary file of this pid left by a writer that was killed (an
 * earlier process with the same pid, or a file system without
 * O_TMPFILE) does not stop the next write, and goes.
 */
START_TEST(test_stale_temporary_is_no_obstacle)
{
	char path[128], tmp[128];
	struct stat sb;
	FILE *f;

	ck_assert_int_eq(__monitor((int (*)(void))&setup,
	    (int (*)(void))((char *)&setup + RANGE), buf, BUFSIZE, 4), 0);
	snprintf(tmp, sizeof(tmp), "%s/.monprof.%ld.tmp", dir, (long)getpid());
	ck_assert_ptr_nonnull(f = fopen(tmp, "w"));
	fputs("half a profile", f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/mon.out", dir);
	ck_assert_int_eq(__mon_monout_write(path), 0);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert_int_gt(sb.st_size, 14);
	ck_assert_int_eq(stat(tmp, &sb), -1);
}
END_TEST

static Suite *
monout_suite(void)
{
	Suite *s = suite_create("monout");
	TCase *tc = tcase_create("write");

	__mon_monitor_stop(0);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_round_trip_byte_exact);
	tcase_add_test(tc, test_compact_is_the_classic_file);
	tcase_add_test(tc, test_failure_leaves_nothing);
	tcase_add_test(tc, test_stale_temporary_is_no_obstacle);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(monout_suite)
