/* SPDX-License-Identifier: MIT */
/*
 * fuzz_merge.c - libFuzzer target for the runtime's PROFFLAGS -merge
 * (runtime/merge.c, gmonmerge.c): a process adds its profile at exit
 * into whatever file PROFDIR holds under the merged name, inside the
 * program, so any bytes there must be refused (the process then writes
 * its own apart) or summed with its profile, without a fault (ASan and
 * UBSan watch).  A sum is itself a profile that takes the process's
 * once more.  The input's first byte chooses mon.out (even) or
 * gmon.out (odd); the rest is the merged file.  The writer's and the
 * environment's functions are stand-ins here: the sum goes to memory,
 * and the mergers' tables and files are malloc'd, for ASan to see.
 *
 *	make fuzz [FUZZ_TIME=seconds]
 */
#include <sys/stat.h>

#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "writer.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* ------------------------------------------------ the runtime, stood in */

static struct __mon_env env;
static char sum[1 << 20];	/* the sum written, its first bytes */
static size_t nsum;		/* its length */
static char dir[] = "/tmp/fuzz_merge.XXXXXX";

const struct __mon_env *
__mon_env_get(void)
{
	return &env;
}

int
__mon_env_merged_path(char *buf, size_t len, long build)
{
	return snprintf(buf, len, "%s/merged%s", dir, build ? ".b" : "") >=
	    (int)len ? -1 : 0;
}

int
__mon_env_own_path(char *buf, size_t len)
{
	return snprintf(buf, len, "%s/own", dir) >= (int)len ? -1 : 0;
}

void
__mon_err_write(const char *s, size_t len)
{
	(void)s;
	(void)len;
}

void
__mon_err_errno(const char *what, const char *path, int e)
{
	(void)what;
	(void)path;
	(void)e;
}

void
__mon_outfile_put(struct __mon_wbuf *w, const void *p, size_t len)
{
	size_t k = len < sizeof(sum) - nsum ? len : sizeof(sum) - nsum;

	(void)w;
	memcpy(sum + nsum, p, k);
	nsum += k;
	/* Past what is kept, still read: every byte the sum has. */
	for (; k < len; k++)
		sum[sizeof(sum) - 1] ^= ((const char *)p)[k];
}

void
__mon_outfile_flush(struct __mon_wbuf *w)
{
	(void)w;
}

int
__mon_outfile_patch(struct __mon_wbuf *w, off_t off, const void *p,
    size_t len)
{
	(void)w;
	if (off < 0 || (size_t)off + len > nsum)
		abort();
	memcpy(sum + off, p, len);
	return 0;
}

int
__mon_outfile_replace(const char *path,
    int (*fill)(struct __mon_wbuf *, void *), void *arg)
{
	static struct __mon_wbuf w;

	(void)path;
	memset(&w, 0, sizeof(w));
	nsum = 0;
	return fill(&w, arg);
}

/* The gmon.out writer's records: each bin read. */
void
__mon_gmonout_header(struct __mon_wbuf *w)
{
	__mon_outfile_put(w, "gmon\1\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20);
}

void
__mon_gmonout_hist(struct __mon_wbuf *w, const WORD *bins, size_t nbins,
    uintptr_t link, uintptr_t span, long rate, size_t a, size_t b, int one)
{
	unsigned char rec[41];
	uint32_t n = (uint32_t)nbins, r = (uint32_t)rate;
	uintptr_t hi = link + span;

	(void)a;
	(void)b;
	(void)one;
	if (bins == NULL || nbins == 0)
		return;
	memset(rec, 0, sizeof(rec));
	memcpy(rec + 1, &link, 8);
	memcpy(rec + 9, &hi, 8);
	memcpy(rec + 17, &n, 4);
	memcpy(rec + 21, &r, 4);
	__mon_outfile_put(w, rec, sizeof(rec));
	__mon_outfile_put(w, bins, nbins * sizeof(WORD));
}

void
__mon_gmonout_arc(struct __mon_wbuf *w, uintptr_t from, uintptr_t self,
    long n)
{
	unsigned char rec[21];
	uint32_t c = n > 0xffffffffL ? 0xffffffffU : (uint32_t)n;

	rec[0] = 1;
	memcpy(rec + 1, &from, 8);
	memcpy(rec + 9, &self, 8);
	memcpy(rec + 17, &c, 4);
	__mon_outfile_put(w, rec, sizeof(rec));
}

/*
 * mapped.c's memory from malloc, so that ASan sees every table's bounds
 * (in one mapping of pages it would see none), and a file's bytes read
 * into it.
 */
void *
__mon_mapped_anon(size_t len)
{
	return calloc(1, len > 0 ? len : 1);
}

void
__mon_mapped_free(const void *p, size_t len)
{
	(void)len;
	free((void *)(uintptr_t)p);
}

const unsigned char *
__mon_mapped_file(int fd, size_t min, size_t max, size_t *len)
{
	struct stat sb;
	unsigned char *p;

	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
	    (size_t)sb.st_size < min || (size_t)sb.st_size > max ||
	    sb.st_size == 0 || (p = malloc((size_t)sb.st_size)) == NULL)
		return NULL;
	if (pread(fd, p, (size_t)sb.st_size, 0) != sb.st_size) {
		free(p);
		return NULL;
	}
	*len = (size_t)sb.st_size;
	return p;
}

/* Not reached from __mon_merge_file and __mon_gmonmerge_fd. */
int
__mon_monout_image(int fd)
{
	(void)fd;
	abort();
}

int
__mon_monout_write(const char *path)
{
	(void)path;
	abort();
}

int
__mon_gmonout_image(int fd)
{
	(void)fd;
	abort();
}

int
__mon_gmonout_write(const char *path)
{
	(void)path;
	abort();
}

int
__mon_arcs_used(void)
{
	return 0;
}

/* ------------------------------------------------ the process's profile */

static int ownfd = -1, owngmon = -1;

static void
cell(unsigned char **p, uint64_t key, int64_t v)
{
	memcpy(*p, &key, 8);
	memcpy(*p + 8, &v, 8);
	*p += 16;
}

/*
 * With FUZZ_MERGE_SEEDS=dir, the process's files as inputs there, the
 * first byte choosing the kind: each merged into is a sum of two.
 */
static void
seed(const char *name, unsigned char kind, const void *p, size_t n)
{
	const char *d = getenv("FUZZ_MERGE_SEEDS");
	char path[PATH_MAX];
	FILE *fp;

	if (d == NULL)
		return;
	snprintf(path, sizeof(path), "%s/own-%s", d, name);
	if ((fp = fopen(path, "w")) == NULL || fwrite(&kind, 1, 1, fp) != 1 ||
	    fwrite(p, 1, n, fp) != n || fclose(fp) != 0)
		abort();
}

/*
 * A process's profile: its metadata, a shared object's record with a
 * sample, a stack through it, three function cells (one in the object)
 * and 512 bins over [0x1000, 0x2000); and its gmon.out.
 */
static int
own_files(void)
{
	static unsigned char m[24 + 32 * 16 + 1024], g[20 + 41 + 512 * 2 + 21];
	unsigned char *p = m + 24;
	uint64_t h[3] = { 0x1000, 0x2000, 0 };
	char path[PATH_MAX];
	int64_t lib = 0x7f0000000000, pathcell;
	uint32_t v;

	memcpy(&pathcell, "/x.so\0\0\0", 8);
	cell(&p, MON_META_MAGIC, MON_META_MAGIC_VALUE);
	cell(&p, MON_META_VERSION, MON_FORMAT_VERSION);
	cell(&p, MON_META_RATE, 1000);
	cell(&p, MON_META_SAMPLES, 7);
	cell(&p, MON_META_BUILDID, 0x1234);
	cell(&p, MON_META_STRIDE, 8);
	cell(&p, MON_META_EXE_SAMPLE, 0x1008 << 16 | 2);
	cell(&p, MON_META_OBJECT, lib);
	cell(&p, MON_META_OBJECT_END, lib + 0x10000);
	cell(&p, MON_META_OBJECT_OFFSET, 0);
	cell(&p, MON_META_OBJECT_PATH, pathcell);
	cell(&p, MON_META_OBJECT_SAMPLES, 1);
	cell(&p, MON_META_OBJECT_SAMPLE, 0x10 << 16 | 1);
	cell(&p, MON_META_STACKS_LOST, 0);
	cell(&p, MON_META_STACK, 3 << 8);
	cell(&p, MON_META_FRAME, 0x1100);
	cell(&p, MON_META_FRAME, lib + 0x20);
	cell(&p, MON_META_STACK, 1 << 8 | 1);
	cell(&p, MON_META_FRAME, 0x1200);
	cell(&p, 0x1010, 5);
	cell(&p, 0x1110, 7);
	cell(&p, lib + 0x30, 2);
	h[2] = (uint64_t)(p - (m + 24)) / 16;
	memcpy(m, h, sizeof(h));
	m[p - m] = 3;		/* a bin with samples */
	p = g;
	memcpy(p, "gmon\1\0\0\0", 8);
	memset(p + 8, 0, 12);
	p += 20;
	*p = 0;
	memcpy(p + 1, &h[0], 8);
	memcpy(p + 9, &h[1], 8);
	v = 512;
	memcpy(p + 17, &v, 4);
	v = 1000;
	memcpy(p + 21, &v, 4);
	memcpy(p + 25, "seconds", 8);
	p[40] = 's';
	p[41] = 4;
	p += 41 + 1024;
	*p = 1;
	memcpy(p + 1, &h[0], 8);
	memcpy(p + 9, &h[1], 8);
	v = 9;
	memcpy(p + 17, &v, 4);
	if (mkdtemp(dir) == NULL)
		return -1;
	seed("mon", 0, m, sizeof(m));
	seed("gmon", 1, g, sizeof(g));
	snprintf(path, sizeof(path), "%s/own.mon", dir);
	if ((ownfd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    write(ownfd, m, sizeof(m)) != (ssize_t)sizeof(m))
		return -1;
	snprintf(path, sizeof(path), "%s/own.gmon", dir);
	if ((owngmon = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    write(owngmon, g, sizeof(g)) != (ssize_t)sizeof(g))
		return -1;
	return 0;
}

/* The merged file: these bytes. */
static void
put_merged(const char *path, const void *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, p, n) != (ssize_t)n || close(fd) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PATH_MAX];
	const char *why;
	size_t n;
	int rc;

	if (ownfd < 0 && own_files() != 0)
		abort();
	if (size < 1)
		return 0;
	snprintf(path, sizeof(path), "%s/merged", dir);
	put_merged(path, data + 1, size - 1);
	if (data[0] % 2 == 0) {
		nsum = 0;
		if (__mon_merge_file(path, ownfd, -1) != 0)
			return 0;
		/* The sum takes the process's profile once more. */
		if ((n = nsum) > sizeof(sum) - 1)
			return 0;
		put_merged(path, sum, n);
		if (__mon_merge_file(path, ownfd, -1) != 0)
			abort();
		return 0;
	}
	nsum = 0;
	if ((rc = __mon_gmonmerge_fd(path, owngmon, &why)) != 0)
		return 0;
	if ((n = nsum) > sizeof(sum) - 1)
		return 0;
	put_merged(path, sum, n);
	if (__mon_gmonmerge_fd(path, owngmon, &why) != 0)
		abort();
	return 0;
}
