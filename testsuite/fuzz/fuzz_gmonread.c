/* SPDX-License-Identifier: MIT */
/*
 * fuzz_gmonread.c - libFuzzer target for prof's gmon.out reader: any
 * bytes are either refused with a message or parsed into arcs that name
 * functions and add up, and whose costs (propagate.c, cycles and all)
 * are finite and not negative, without a fault (ASan/UBSan watch).
 *
 *	make fuzz [FUZZ_TIME=seconds]
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "views.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct symname names[] = {
	{ "low", 0, STB_GLOBAL, 1, "" },
	{ "<external>", 1, STB_LOCAL, 0, "" },
	{ "high", 2, STB_GLOBAL, 1, "" },
};
static struct symentry ents[] = {
	{ 0x1000, 0x100, 0x1100, 0, 1, 0, 0, 1 },
	{ 0x1100, 0x10, 0x1110, 1, 1, 0, -1, 0 },
	{ 0x1200, 0, 0x1800, 2, 1, 2, 2, 1 },
};
static const struct symtab st = {
	.path = "fuzz", .ent = ents, .nent = 3, .names = names, .nnames = 3,
	.nsyms = 3, .nshown = 2,
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct prof_opts o = { .sort = 'c', .zero = 1 };
	struct gmonfile gf;
	struct model m;
	struct callgraph *cg = &m.cg;
	struct report *r = &m.r;
	char ebuf[160], *out = NULL;
	size_t i, len;
	double *cost;
	FILE *fp;

	if (gmonread_parse(&gf, data, size, ebuf, sizeof(ebuf)) != NULL)
		return 0;
	if (gf.narc > size / 21 || gf.nhist > size / 41)
		abort();
	for (i = 0; i < gf.nhist; i++)
		if (gf.hist[i].lo > gf.hist[i].hi)
			abort();
	memset(&m, 0, sizeof(m));
	callgraph_init(cg, &st);
	if (callgraph_add(cg, &gf) != 0)
		abort();
	report_init(r, &st);
	m.hasarcs = 1;
	(void)callgraph_done(cg, r, ebuf, sizeof(ebuf));
	for (i = 0; i < cg->n; i++)
		if (cg->arc[i].count < 0 || cg->arc[i].callee > (long)st.nent ||
		    cg->arc[i].caller > (long)st.nent)
			abort();
	for (i = 0; i <= st.nent; i++)
		r->secs[i] = (double)(i + 1);
	cost = propagate(cg, r->secs);
	for (i = 0; i < cg->n; i++)
		if (!(cost[i] >= 0) || cost[i] > 1e300)
			abort();
	free(cost);
	if ((fp = open_memstream(&out, &len)) == NULL)
		abort();
	graphview_print(&m, &o, fp);
	fclose(fp);
	free(out);
	report_free(r);
	callgraph_free(cg);
	gmonread_close(&gf);
	return 0;
}
