/* SPDX-License-Identifier: MIT */
/*
 * report.c - attribute a profile's calls and ticks to functions, sort,
 * and print the classic prof report.
 *
 * Profiles are added one at a time and summed: a cell's count is added to
 * its function (never assigned), and each bin's ticks are shared among the
 * functions it overlaps in proportion to the bytes of overlap, with the
 * rate recorded in that file.  What lies in no function, a cell or a whole
 * bin, goes to a line of its own, never to a neighbour.  Bins and entries
 * are both in address order, so one linear merge attributes a histogram.
 */
#include <err.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include <demangle.h>

#include "mon.h"
#include "prof.h"

void
report_init(struct report *r, const struct symtab *st)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	r->secs = calloc(st->nent + 1, sizeof(*r->secs));
	r->ncalls = calloc(st->nent + 1, sizeof(*r->ncalls));
	if (r->secs == NULL || r->ncalls == NULL)
		err(1, "report");
}

void
report_free(struct report *r)
{
	free(r->secs);
	free(r->ncalls);
	r->secs = NULL;
	r->ncalls = NULL;
}

static void
hexid(char *buf, const void *id)
{
	const unsigned char *p = id;
	int i;

	for (i = 0; i < 8; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
}

/* -o/-x: a shared object's function shows its address in the object. */
#define ADDR(a)		((a) % SYMTAB_OBJECT_BASE)

/*
 * A cell's pc among the symbols: as it is for the executable; in a
 * shared object's mapping, that object's place in the table (0 if its
 * symbols were not loaded).
 */
static uint64_t
cellpc(const struct symtab *st, const struct monfile *mf, uint64_t pc)
{
	static struct monobj obj;
	size_t c;

	for (c = 0; monread_object(mf, &c, &obj) > 0;)
		if (pc >= obj.start && pc < obj.end)
			return symtab_object_addr(st, &obj,
			    pc - obj.start + obj.offset);
	return pc;
}

/*
 * Add each function cell's count to the line its function reports into,
 * or to the <unknown> line.
 */
static const char *
addcells(struct report *r, const struct monfile *mf, size_t *mapped)
{
	const struct symtab *st = r->st;
	uint64_t pc;
	long count, k, c;
	size_t i;

	*mapped = 0;
	for (i = 0; i < mf->nfns; i++) {
		monread_cell(mf, i, &pc, &count);
		if (pc < MON_META_LIMIT)
			continue;
		if ((k = symtab_lookup(st, cellpc(st, mf, pc))) < 0) {
			r->cells_unmapped++;
			c = REPORT_UNKNOWN(st);
		} else if ((c = st->ent[k].calls) < 0) {
			(*mapped)++;
			r->cells_dropped++;
			continue;
		} else {
			(*mapped)++;
			r->cells_used++;
		}
		if (__builtin_add_overflow(r->ncalls[c], count, &r->ncalls[c]))
			r->ncalls[c] = LONG_MAX;
	}
	return NULL;
}

/* The bytes of [B0, B1) in E's time region. */
static uint64_t
overlap(const struct symentry *e, uint64_t b0, uint64_t b1)
{
	uint64_t lo = e->addr > b0 ? e->addr : b0;
	uint64_t hi = e->end < b1 ? e->end : b1;

	return hi > lo ? hi - lo : 0;
}

/*
 * Share the histogram's ticks among the entries' time regions.  Bin i
 * holds the pcs with (pc - lpc) * nbins / range == i, as the runtime
 * fills it: [lpc + ceil(i * range / nbins), lpc + ceil((i + 1) * range /
 * nbins)), stepped exactly without a 128-bit division per bin.  nbins <=
 * range, so no bin is empty.  A bin goes to the regions it overlaps, by
 * bytes, or if it overlaps none to the <unknown> line.  Its bytes in no
 * region take no share: they are mostly the padding after a function,
 * which never runs.  Returns the ticks, adds those that reached a
 * function's line to IN.
 */
static double
addbins(struct report *r, const struct monfile *mf, double rate, double *in)
{
	const struct symtab *st = r->st;
	const struct symentry *e;
	uint64_t q, rmd, acc, base, b0, b1, w, covered, rowed;
	double t, ticks = 0;
	size_t i, j, k;

	if (mf->nbins == 0)
		return 0;
	q = (mf->hpc - mf->lpc) / mf->nbins;
	rmd = (mf->hpc - mf->lpc) % mf->nbins;
	acc = 0;
	base = b1 = mf->lpc;
	j = symtab_region(st, mf->lpc);
	for (i = 0; i < mf->nbins; i++) {
		b0 = b1;
		base += q;		/* lpc + floor((i + 1) * range / nbins) */
		if ((acc += rmd) >= mf->nbins) {
			base++;
			acc -= mf->nbins;
		}
		b1 = base + (acc != 0);
		if ((t = monread_bin(mf, i)) == 0)
			continue;
		ticks += t;
		while (j < st->nent && st->ent[j].end <= b0)
			j++;
		covered = 0;
		for (k = j; k < st->nent && st->ent[k].addr < b1; k++)
			covered += overlap(&st->ent[k], b0, b1);
		if (covered == 0) {
			r->secs[REPORT_UNKNOWN(st)] += t / rate;
			continue;
		}
		rowed = 0;
		for (k = j; k < st->nent && st->ent[k].addr < b1; k++) {
			e = &st->ent[k];
			if ((w = overlap(e, b0, b1)) == 0 || e->row < 0)
				continue;
			r->secs[e->row] += t * (double)w / covered / rate;
			rowed += w;
		}
		*in += rowed == covered ? t : t * rowed / covered;
	}
	return ticks;
}

/*
 * Add one profile.  Returns NULL, or a message (in EBUF) saying why the
 * profile does not belong to the executable.
 */
const char *
report_add(struct report *r, const struct monfile *mf, char *ebuf, size_t esz)
{
	const struct symtab *st = r->st;
	char want[17], have[17];
	double rate, ticks, in = 0;
	size_t mapped;
	long hz;

	/* A recorded 0 means the runtime found no build-id. */
	if ((mf->meta & MONREAD_HAS(MON_META_BUILDID)) && mf->buildid != 0 &&
	    st->has_buildid && memcmp(&mf->buildid, st->buildid, 8) != 0) {
		hexid(want, &mf->buildid);
		hexid(have, st->buildid);
		return prof_errf(ebuf, esz,
		    "profile of another executable (build-id %s, %s has %s)",
		    want, st->path, have);
	}
	if (mf->meta & MONREAD_HAS(MON_META_RATE))
		rate = mf->rate;
	else
		rate = (hz = sysconf(_SC_CLK_TCK)) > 0 ? hz : 100;
	addcells(r, mf, &mapped);
	ticks = addbins(r, mf, rate, &in);
	if (mapped == 0 && mf->nfns > mf->nmeta)
		return prof_errf(ebuf, esz,
		    "profile of another executable (no call count maps into %s)",
		    st->path);
	if (mapped == 0 && ticks > 0 && in == 0)
		return prof_errf(ebuf, esz,
		    "profile of another executable (no sample falls in %s)",
		    st->path);
	r->total += ticks / rate;
	r->inside += in;
	r->outside += ticks - in;
	r->nfns += mf->nfns - mf->nmeta;
	r->nmeta += mf->nmeta;
	r->saturated += mf->saturated;
	r->outrange += mf->outside;
	r->lost += mf->lost;
	if (r->nfiles++ == 0) {
		r->rate = rate;
		r->rate_recorded = (mf->meta & MONREAD_HAS(MON_META_RATE)) != 0;
		r->lpc = mf->lpc;
		r->hpc = mf->hpc;
		r->nbins = mf->nbins;
		if (mf->hpc > mf->lpc)
			r->scale = (uint64_t)(65536.0 * mf->nbins /
			    (mf->hpc - mf->lpc));
	}
	return NULL;
}

/* ---------------------------------------------------------------- print */

static const struct report *sort_r;
static int sort_key;

static const char *
firstname(const struct symtab *st, long k)
{
	const struct symentry *e = &st->ent[k];
	size_t i;

	if (k == REPORT_UNKNOWN(st))
		return REPORT_UNKNOWN_NAME;
	for (i = 0; i < e->nnames; i++)
		if (st->names[e->name0 + i].print)
			return st->names[e->name0 + i].name;
	return st->names[e->name0].name;
}

static int
rowcmp(const void *a, const void *b)
{
	const struct report *r = sort_r;
	long x = *(const long *)a, y = *(const long *)b;
	int c;

	switch (sort_key) {
	case 't':
		if (r->secs[x] != r->secs[y])
			return r->secs[x] > r->secs[y] ? -1 : 1;
		if (r->ncalls[x] != r->ncalls[y])
			return r->ncalls[x] > r->ncalls[y] ? -1 : 1;
		break;
	case 'c':
		if (r->ncalls[x] != r->ncalls[y])
			return r->ncalls[x] > r->ncalls[y] ? -1 : 1;
		if (r->secs[x] != r->secs[y])
			return r->secs[x] > r->secs[y] ? -1 : 1;
		break;
	case 'a':
		return x < y ? -1 : x > y;
	}
	if ((c = strcmp(firstname(r->st, x), firstname(r->st, y))) != 0)
		return c;
	return x < y ? -1 : x > y;
}

/* classic prof: decimals of msec/call, fewer for larger counts */
static int
fprecision(long count)
{
	return count < 10 ? 0 : count < 100 ? 1 : count < 1000 ? 2 :
	    count < 10000 ? 3 : 4;
}

/*
 * The names of entry K, "a, b" for aliases; with -C the demangled names,
 * then the mangled ones in brackets on a line of their own, under the
 * name column (INDENT columns in).
 */
static void
printnames(const struct symtab *st, long k, const struct prof_opts *o,
    int indent, FILE *fp)
{
	const struct symentry *e = &st->ent[k];
	const struct symname *nm;
	char *dm;
	size_t i;
	int n, mangled = 0;

	if (k == REPORT_UNKNOWN(st)) {
		fprintf(fp, "%s\n", REPORT_UNKNOWN_NAME);
		return;
	}
	for (i = n = 0; i < e->nnames; i++) {
		nm = &st->names[e->name0 + i];
		if (!nm->print)
			continue;
		dm = o->demangle ? cplus_demangle(nm->name,
		    DMGL_PARAMS | DMGL_ANSI) : NULL;
		fprintf(fp, "%s%s", n++ ? ", " : "", dm ? dm : nm->name);
		if (dm != NULL)
			mangled = 1;
		free(dm);
	}
	if (mangled) {
		fprintf(fp, "\n%.*s%*s[", indent / 8, "\t\t\t\t\t\t\t\t\t\t",
		    indent % 8, "");
		for (i = n = 0; i < e->nnames; i++) {
			nm = &st->names[e->name0 + i];
			if (nm->print)
				fprintf(fp, "%s%s", n++ ? ", " : "", nm->name);
		}
		fputc(']', fp);
	}
	fputc('\n', fp);
}

void
report_print(const struct report *r, const struct prof_opts *o, FILE *fp)
{
	const struct symtab *st = r->st;
	long *rows, k, count;
	size_t i, n;
	uint64_t maxaddr = 0;
	double cum = 0, pct, msec;
	int width = 8, f;
	char buf[32];

	if ((rows = calloc(st->nent + 1, sizeof(*rows))) == NULL)
		err(1, "report");
	for (i = n = 0; i < st->nent; i++) {
		if (!st->ent[i].shown)
			continue;
		if (!o->zero && r->secs[i] == 0.0 && r->ncalls[i] == 0)
			continue;
		rows[n++] = i;
		if (ADDR(st->ent[i].addr) > maxaddr)
			maxaddr = ADDR(st->ent[i].addr);
	}
	if (r->secs[i] != 0.0 || r->ncalls[i] != 0)
		rows[n++] = i;		/* <unknown>, no address */
	sort_r = r;
	sort_key = o->sort;
	qsort(rows, n, sizeof(*rows), rowcmp);

	if (o->addr != 0) {
		width = snprintf(buf, sizeof(buf), o->addr == 'x' ? "%llx" :
		    "%llo", (unsigned long long)maxaddr);
		if (width < 8)
			width = 8;
	}
	if (!o->noheader) {
		if (o->addr != 0)
			fprintf(fp, "%*s ", width, "Address");
		fputs(" %Time Seconds Cumsecs  #Calls   msec/call  Name\n", fp);
	}
	for (i = 0; i < n; i++) {
		k = rows[i];
		count = r->ncalls[k];
		cum += r->secs[k];
		pct = r->total > 0 ? 100.0 * r->secs[k] / r->total : 0.0;
		if (o->addr != 0 && k == REPORT_UNKNOWN(st))
			fprintf(fp, "%*s ", width, "");
		else if (o->addr != 0)
			fprintf(fp, o->addr == 'x' ? "%*llx " : "%*llo ", width,
			    (unsigned long long)ADDR(st->ent[k].addr));
		/*
		 * Classic prof's "%6.1f%8.2f%8.2f" and "%8ld", written so
		 * that a column too wide for its field (calls past 10^7,
		 * say) still has a blank before it; otherwise identical.
		 */
		fprintf(fp, "%6.1f %7.2f %7.2f", pct, r->secs[k], cum);
		if (count != 0) {
			f = fprecision(count);
			msec = 1000.0 * r->secs[k] / count;
			fprintf(fp, " %7ld%#*.*f", count, f + 8, f, msec);
			fprintf(fp, "%*s", 6 - f, " ");
		} else
			fprintf(fp, "%22s", " ");
		printnames(st, k, o, 44 + (o->addr ? width + 1 : 0), fp);
	}
	free(rows);
}

/* -s: what was read and how much of it found a function, on FP. */
void
report_summary(const struct report *r, const struct prof_opts *o, FILE *fp)
{
	const struct symtab *st = r->st;
	size_t i, zero = 0;

	(void)o;
	for (i = 0; i < st->nent; i++)
		if (st->ent[i].shown && r->secs[i] == 0.0 &&
		    r->ncalls[i] == 0)
			zero++;
	fprintf(fp, "%5zu/%zu call counts used", r->cells_used, r->nfns);
	if (r->cells_dropped || r->cells_unmapped)
		fprintf(fp, " (%zu in hidden locals, %zu outside functions)",
		    r->cells_dropped, r->cells_unmapped);
	fputc('\n', fp);
	fprintf(fp, "%5zu/%zu symbols qualified", st->nshown, st->nsyms);
	if (zero)
		fprintf(fp, ", %zu had zero time and zero call-counts\n",
		    zero);
	else
		fputc('\n', fp);
	fprintf(fp, "%#llx scale factor\n", (unsigned long long)r->scale);
	fprintf(fp, "%5.0f ticks in known functions, %.0f outside\n",
	    r->inside, r->outside);
	fprintf(fp, "%5ld samples dropped at saturated bins\n", r->saturated);
	fprintf(fp, "%5ld samples outside the profiled range\n", r->outrange);
	fprintf(fp, "%5ld samples lost\n", r->lost);
	fprintf(fp, "%5g samples per second (%s)\n", r->rate,
	    r->rate_recorded ? "recorded" : "assumed: no rate in the profile");
	fprintf(fp, "%5zu profile%s summed\n", r->nfiles,
	    r->nfiles == 1 ? "" : "s");
}
