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
	if (24 + mf.nfns * 16 + mf.nbins * 2 != size)
		abort();
	/* What counts is the same once the zeros are let go. */
	sum = checksum(&mf);
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
