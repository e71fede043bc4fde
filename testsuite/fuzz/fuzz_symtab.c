/* SPDX-License-Identifier: MIT */
/*
 * fuzz_symtab.c - libFuzzer target for prof's ELF symbol reader: any
 * bytes, as the executable and as a shared object a profile names, are
 * either refused with a message or loaded into a table whose lookups and
 * report hold, whose line tables (libdw) cut every function into
 * ranges that cover it exactly, and whose inlined calls have their
 * functions' names and files (ASan/UBSan watch).  The bytes are a
 * file (a memfd), so the path prof takes is the one fuzzed.
 *
 *	make fuzz [FUZZ_TIME=seconds]
 */
#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "views.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* Every lookup the report makes, at and around each entry. */
static void
lookups(const struct symtab *st)
{
	const struct symobj *o;
	size_t i;
	long k;

	for (i = 0; i < st->nent; i++) {
		if (st->ent[i].end < st->ent[i].addr ||
		    (i > 0 && st->ent[i].addr <= st->ent[i - 1].addr))
			abort();
		k = symtab_lookup(st, st->ent[i].addr + 1);
		if (k >= (long)st->nent ||
		    symtab_region(st, st->ent[i].addr) > (long)st->nent)
			abort();
		(void)symtab_lookup(st, st->ent[i].addr);
	}
	for (i = 0; i < st->nobj; i++) {
		o = symtab_object(st, st->obj[i].path, st->obj[i].buildid);
		if (o != &st->obj[i])
			abort();
		(void)symtab_object_addr(o, 0);
		(void)symtab_object_addr(o, 0x1000);
		(void)symtab_object_addr(o, UINT64_MAX);
	}
}

/*
 * The line ranges: in address order, each inside its entry, no gap; the
 * functions inlined at each, named and with files, but for the last.
 */
static void
lines(const struct symtab *st)
{
	struct srclines sl;
	const struct srcrange *r;
	struct inlines in;
	struct inlframe *fr;
	char ebuf[160];
	uint64_t at = 0;
	size_t i, j;
	long k = -1, n;

	if (srclines_load(&sl, st, ebuf, sizeof(ebuf)) != NULL)
		return;
	for (i = 0; i < sl.n; i++) {
		r = &sl.r[i];
		if (r->ent < 0 || r->ent >= (long)st->nent || r->lo >= r->hi ||
		    r->lo < st->ent[r->ent].addr || r->hi > st->ent[r->ent].end)
			abort();
		if (r->ent != k && r->lo != st->ent[r->ent].addr)
			abort();
		if (r->ent == k && r->lo != at)
			abort();
		if (srclines_at(&sl, r->lo) != (long)i)
			abort();
		at = r->hi;
		k = r->ent;
	}
	if (inlines_open(&in, &sl, st) != 0)
		abort();
	for (i = 0; i < sl.n; i++) {
		if ((n = inlines_at(&in, sl.r[i].lo, &fr)) < 0 || n == 1)
			abort();
		for (j = 0; j < (size_t)n; j++)
			if (fr[j].file == NULL ||
			    (fr[j].name == NULL) != (j + 1 == (size_t)n))
				abort();
		free(fr);
	}
	inlines_close(&in);
	srclines_close(&sl);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct prof_opts o = { .sort = 't', .zero = 1, .addr = 'x' };
	struct monobj obj = { .start = 0x1000, .end = 0x2000, .named = 1,
	    .path = path };
	struct symtab st;
	struct model m;
	char ebuf[160], *out = NULL;
	size_t len;
	FILE *fp;

	if (fd == -1) {
		if ((fd = memfd_create("fuzz_symtab", 0)) == -1)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 ||
	    pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	o.locals = size > 0 && (data[size - 1] & 1);
	o.demangle = size > 0 && (data[size - 1] & 2);
	if (symtab_load(&st, path, &obj, 1, o.locals, ebuf,
	    sizeof(ebuf)) == NULL) {
		lookups(&st);
		lines(&st);
		memset(&m, 0, sizeof(m));
		report_init(&m.r, &st);
		if ((fp = open_memstream(&out, &len)) == NULL)
			abort();
		print_report(&m, &o, fp);
		fclose(fp);
		free(out);
		report_free(&m.r);
	}
	symtab_close(&st);
	return 0;
}
