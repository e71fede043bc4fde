/* SPDX-License-Identifier: MIT */
/*
 * fuzz_monread.c - libFuzzer target for prof's mon.out reader: any bytes
 * are either refused with a message or parsed into bounds that hold, and
 * a parsed profile attributes without a fault (ASan/UBSan watch).
 *
 *	make fuzz [FUZZ_TIME=seconds]
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mon.h"
#include "model.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct symname names[] = {
	{ "low", 0, STB_GLOBAL, 1, "" },
	{ "mid", 1, STB_GLOBAL, 1, "" },
	{ "high", 2, STB_LOCAL, 0, "" },
};
static struct symentry ents[] = {
	{ 0x1000, 0x100, 0x1100, 0, 1, 0, 0, 1 },
	{ 0x1100, 0, 0x1800, 1, 1, 1, 1, 1 },
	{ 0xffffffffffff0000ull, 0x10, 0xffffffffffffff00ull, 2, 1, 1, -1, 0 },
};
static const struct symtab st = {
	.path = "fuzz", .ent = ents, .nent = 3, .names = names, .nnames = 3,
	.nsyms = 3, .nshown = 2,
};

/* The cells and bins of MF, each weighed by its place. */
static uint64_t
checksum(const struct monfile *mf)
{
	struct monrun run;
	uint64_t pc, sum = 0;
	long count;
	size_t i, k;

	for (k = 0; monread_cells(mf, &k, &run);)
		for (i = 0; i < run.n; i++) {
			monrun_cell(&run, i, &pc, &count);
			sum += (pc + (uint64_t)count) * (run.first + i + 1);
		}
	for (k = 0; monread_bins(mf, &k, &run);)
		for (i = 0; i < run.n; i++)
			sum += monrun_bin(&run, i) * (run.first + i + 7);
	return sum;
}

/*
 * The compact file DATA (SIZE bytes), which read as MF (its checksum
 * SUM), expanded by its runs (mon.h): the classic file reads the same.
 */
static void
same_as_classic(const uint8_t *data, size_t size, const struct monfile *mf,
    uint64_t sum)
{
	struct monfile dense;
	uint64_t off, n;
	uint8_t *b;
	char ebuf[160];
	size_t at;

	if ((b = calloc(1, mf->size + 1)) == NULL)
		return;
	for (at = MON_COMPACT_HDR; at < size; at += MON_COMPACT_RUN + n) {
		memcpy(&off, data + at, 8);
		memcpy(&n, data + at + 8, 8);
		memcpy(b + off, data + at + MON_COMPACT_RUN, n);
	}
	if (monread_parse(&dense, b, mf->size, ebuf, sizeof(ebuf)) != NULL ||
	    checksum(&dense) != sum || dense.nfns != mf->nfns ||
	    dense.nbins != mf->nbins)
		abort();
	monread_close(&dense);
	free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct monfile mf;
	struct report r;
	char ebuf[160];
	uint64_t sum;
	size_t k;

	if (monread_parse(&mf, data, size, ebuf, sizeof(ebuf)) != NULL)
		return 0;
	if (24 + mf.nfns * 16 + mf.nbins * 2 != mf.size)
		abort();
	sum = checksum(&mf);
	/* A compact file reads as the classic file it expands to. */
	if (mf.size != size && mf.size <= (1 << 20))
		same_as_classic(data, size, &mf, sum);
	/* What counts is the same once the zeros are let go. */
	if (monread_compact(&mf) != 0 || checksum(&mf) != sum)
		abort();
	for (k = 0; k < mf.nobj; k++)
		if (monobj_at(&mf, mf.obj[k].start) != (long)k ||
		    mf.obj[k].start >= mf.obj[k].end || *mf.obj[k].path == 0)
			abort();
	report_init(&r, &st);
	(void)report_add(&r, &mf, ebuf, sizeof(ebuf));
	if (r.secs[0] < 0 || r.secs[1] < 0 || r.total < 0)
		abort();
	report_free(&r);
	monread_close(&mf);
	return 0;
}
