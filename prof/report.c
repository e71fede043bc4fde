/* SPDX-License-Identifier: MIT */
/*
 * report.c - attribute a profile's calls and ticks to functions (print.c
 * prints the result).
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

#include "mon.h"
#include "model.h"

void
report_init(struct report *r, const struct symtab *st)
{
	memset(r, 0, sizeof(*r));
	r->st = st;
	r->secs = calloc(st->nent + 1, sizeof(*r->secs));
	r->ncalls = calloc(st->nent + 1, sizeof(*r->ncalls));
	r->objsamples = calloc(st->nent + 1, sizeof(*r->objsamples));
	if (r->secs == NULL || r->ncalls == NULL || r->objsamples == NULL)
		err(1, "report");
	callstacks_init(&r->stacks, st);
}

/* Every profile is added: what depends on them all (inclusive times). */
void
report_done(struct report *r)
{
	callstacks_done(&r->stacks, r->secs);
}

void
report_free(struct report *r)
{
	free(r->secs);
	free(r->ncalls);
	free(r->objsamples);
	callstacks_free(&r->stacks);
	r->objsamples = NULL;
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

/*
 * Add each function cell's count to the line its function reports into,
 * or to the <unknown> line; *MAPPED = the cells that found a function.
 */
static const char *
addcells(struct report *r, const struct monfile *mf, size_t *mapped,
    char *ebuf, size_t esz)
{
	const struct symtab *st = r->st;
	const struct symobj **objof;
	struct monrun run;
	uint64_t pc;
	long count, k, c;
	size_t i, part;

	*mapped = 0;
	if ((objof = symtab_records(st, mf)) == NULL)
		return prof_errf(ebuf, esz, "out of memory");
	for (part = 0; monread_cells(mf, &part, &run);)
		for (i = 0; i < run.n; i++) {
			monrun_cell(&run, i, &pc, &count);
			if (pc < MON_META_LIMIT)
				continue;
			if ((k = symtab_lookup(st,
			    symtab_profile_addr(mf, objof, pc))) < 0) {
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
			if (__builtin_add_overflow(r->ncalls[c], count,
			    &r->ncalls[c]))
				r->ncalls[c] = LONG_MAX;
		}
	free(objof);
	return NULL;
}

/* N samples to entry K's line if it has one, else to object row ROW. */
static void
addticks(struct report *r, long k, long row, double n, double rate,
    double *in)
{
	const struct symtab *st = r->st;

	if (k >= 0 && st->ent[k].row >= 0) {
		r->secs[st->ent[k].row] += n / rate;
		*in += n;
	} else
		r->secs[row >= 0 ? row : REPORT_UNKNOWN(st)] += n / rate;
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
 * nbins)), stepped exactly without a 128-bit division per bin (one per
 * stretch of bins the file holds: the others are 0).  nbins <= range, so
 * no bin is empty.  A bin goes to the regions it overlaps, by bytes, or
 * if it overlaps none to the <unknown> line.  Its bytes in no region
 * take no share: they are mostly the padding after a function, which
 * never runs.  Returns the ticks, adds those that reached a function's
 * line to IN.
 */
static double
addbins(struct report *r, const struct monfile *mf, double rate, double *in)
{
	const struct symtab *st = r->st;
	const struct symentry *e;
	struct monrun run;
	unsigned __int128 x;
	uint64_t range, q, rmd, acc, base, b0, b1, w, covered, rowed;
	double t, ticks = 0;
	size_t i, j, k, part;

	if (mf->nbins == 0)
		return 0;
	/* One bin (PROFFLAGS -stride 0 or -excobj): the executable's row. */
	if (mf->nbins == 1 && (mf->has & MONREAD_HAS(MON_META_UNKNOWN))) {
		for (part = 0; monread_bins(mf, &part, &run);)
			ticks += monrun_bin(&run, 0);
		addticks(r, -1, symtab_object_row(st, NULL), ticks, rate, in);
		return ticks;
	}
	range = mf->hpc - mf->lpc;
	q = range / mf->nbins;
	rmd = range % mf->nbins;
	j = symtab_region(st, mf->lpc);
	for (part = 0; monread_bins(mf, &part, &run);) {
		x = (unsigned __int128)run.first * range;
		base = mf->lpc + (uint64_t)(x / mf->nbins);
		acc = (uint64_t)(x % mf->nbins);
		b1 = base + (acc != 0);
		for (i = 0; i < run.n; i++) {
			b0 = b1;
			base += q;	/* lpc + floor((i + 1) * range / nbins) */
			if ((acc += rmd) >= mf->nbins) {
				base++;
				acc -= mf->nbins;
			}
			b1 = base + (acc != 0);
			if ((t = monrun_bin(&run, i)) == 0)
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
				r->secs[e->row] += t * (double)w / covered /
				    rate;
				if (r->piece != NULL)
					r->piece(r->piece_arg, k, b0 > e->addr ?
					    b0 : e->addr, b1 < e->end ? b1 :
					    e->end, t * (double)w / covered /
					    rate);
				rowed += w;
			}
			*in += rowed == covered ? t : t * rowed / covered;
		}
	}
	return ticks;
}

/*
 * Share the samples outside the histogram (version 2): each kept by pc
 * goes to its function, the rest of each object's to the object's row
 * (<libz.so.1>), those in no object to <unknown>.  Returns the samples.
 */
static double
addsamples(struct report *r, const struct monfile *mf, double rate,
    double *in, double *objsamples, char *ebuf, size_t esz)
{
	const struct symtab *st = r->st;
	const struct symobj **objof;
	const struct monsample *s;
	const struct monobj *o;
	double *rest, exe, ticks;
	long row, exerow, j;
	size_t i;

	if (!(mf->has & MONREAD_HAS(MON_META_UNKNOWN)))
		return 0;
	objof = symtab_records(st, mf);
	rest = calloc(mf->nobj + 1, sizeof(*rest));
	if (objof == NULL || rest == NULL) {
		free(objof);
		free(rest);
		prof_errf(ebuf, esz, "out of memory");
		return -1;
	}
	for (i = 0; i < mf->nobj; i++)
		rest[i] = mf->obj[i].samples;
	exe = mf->meta[MON_META_EXE_SAMPLES];
	exerow = symtab_object_row(st, NULL);
	ticks = exe + mf->meta[MON_META_UNKNOWN];
	for (i = 0; i < mf->nsample; i++) {
		s = &mf->sample[i];
		if (s->obj < 0) {
			addticks(r, symtab_function(st, s->pc), exerow, s->n,
			    rate, in);
			exe -= s->n;
			continue;
		}
		o = &mf->obj[s->obj];
		if (objof[s->obj] == NULL)
			continue;
		j = symtab_function(st, symtab_object_addr(objof[s->obj],
		    s->pc + o->offset));
		if (j >= 0 && st->ent[j].row >= 0) {
			addticks(r, j, -1, s->n, rate, in);
			rest[s->obj] -= s->n;
		}
	}
	for (i = 0; i < mf->nobj; i++) {
		ticks += mf->obj[i].samples;
		row = symtab_object_row(st, mf->obj[i].path);
		if (rest[i] > 0)
			addticks(r, -1, row, rest[i], rate, in);
		if (row >= 0)
			objsamples[row] += mf->obj[i].samples;
	}
	if (exe > 0)
		addticks(r, -1, exerow, exe, rate, in);
	if (exerow >= 0)
		objsamples[exerow] += mf->meta[MON_META_EXE_SAMPLES];
	r->secs[REPORT_UNKNOWN(st)] += mf->meta[MON_META_UNKNOWN] / rate;
	free(objof);
	free(rest);
	return ticks;
}

/* Whether mf records another build-id than the executable's. */
int
report_other_build(const struct report *r, const struct monfile *mf)
{
	return (mf->has & MONREAD_HAS(MON_META_BUILDID)) &&
	    mf->meta[MON_META_BUILDID] != 0 && r->st->has_buildid &&
	    memcmp(&mf->meta[MON_META_BUILDID], r->st->buildid, 8) != 0;
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
	const char *e;
	double rate, ticks, out, in = 0;
	size_t mapped;
	long hz;

	/* A recorded 0 means the runtime found no build-id. */
	if (report_other_build(r, mf)) {
		hexid(want, &mf->meta[MON_META_BUILDID]);
		hexid(have, st->buildid);
		return prof_errf(ebuf, esz,
		    "profile of another executable (build-id %s, %s has %s): "
		    "it was rebuilt after the profile was written; rerun it, "
		    "or name the binary that ran", want, st->path, have);
	}
	if (mf->has & MONREAD_HAS(MON_META_RATE))
		rate = mf->meta[MON_META_RATE];
	else
		rate = (hz = sysconf(_SC_CLK_TCK)) > 0 ? hz : 100;
	if ((e = addcells(r, mf, &mapped, ebuf, esz)) != NULL)
		return e;
	ticks = addbins(r, mf, rate, &in);
	if ((out = addsamples(r, mf, rate, &in, r->objsamples, ebuf,
	    esz)) < 0)
		return ebuf;
	ticks += out;
	if ((e = callstacks_add(&r->stacks, mf, rate, ebuf, esz)) != NULL)
		return e;
	if (mapped == 0 && mf->nfns > mf->nmeta)
		return prof_errf(ebuf, esz,
		    "profile of another executable (no call count maps into "
		    "%s): name the program that wrote it: prof PROG FILE",
		    st->path);
	if (mapped == 0 && ticks > 0 && in == 0)
		return prof_errf(ebuf, esz,
		    "profile of another executable (no sample falls in %s): "
		    "name the program that wrote it: prof PROG FILE",
		    st->path);
	r->total += ticks / rate;
	r->inside += in;
	r->outside += ticks - in;
	r->nfns += mf->nfns - mf->nmeta;
	r->nmeta += mf->nmeta;
	r->nunused += mf->nunused;
	r->saturated += mf->meta[MON_META_SATURATED];
	r->outrange += mf->meta[MON_META_OUTSIDE];
	r->lost += mf->meta[MON_META_LOST];
	r->processes += (mf->has & MONREAD_HAS(MON_META_PROCESSES)) &&
	    mf->meta[MON_META_PROCESSES] > 0 ? mf->meta[MON_META_PROCESSES] : 1;
	if (r->nfiles++ == 0) {
		r->rate = rate;
		r->rate_recorded = (mf->has & MONREAD_HAS(MON_META_RATE)) != 0;
		r->sampler = mf->has & MONREAD_HAS(MON_META_SAMPLER) ?
		    (int)mf->meta[MON_META_SAMPLER] : -1;
		r->kernel = mf->has & MONREAD_HAS(MON_META_KERNEL) ?
		    mf->meta[MON_META_KERNEL] != 0 : -1;
		r->lpc = mf->lpc;
		r->hpc = mf->hpc;
		r->nbins = mf->nbins;
		if (mf->hpc > mf->lpc)
			r->scale = (uint64_t)(65536.0 * mf->nbins /
			    (mf->hpc - mf->lpc));
	}
	return NULL;
}

/*
 * The sampler the first profile recorded: its short name (LONG 0: "perf",
 * "itimer", "perf-cpu", for the files) or what it measures (LONG 1, for
 * -s); NULL where none was recorded (a classic mon.out) or it is one
 * this prof does not know.  Both perf samplers exclude the kernel; the
 * timer counts the process's CPU time, the kernel's on its behalf too,
 * but its samples land in the user code running.
 */
const char *
report_sampler(const struct report *r, int lng)
{
	static const char *const kernel[] = {
		": times are user-mode CPU time (-kernel was refused: "
		"perf_event_paranoid is above 1 and the process has no "
		"CAP_PERFMON)",
		": times are CPU time, kernel mode too (-kernel), the "
		"kernel's charged to the user code that entered it",
	};
	static char line[256];

	switch (r->sampler) {
	case MON_SAMPLER_PERF:
	case MON_SAMPLER_PERF_CPU:
		if (!lng)
			return r->sampler == MON_SAMPLER_PERF ? "perf" :
			    "perf-cpu";
		snprintf(line, sizeof(line), "%s%s",
		    r->sampler == MON_SAMPLER_PERF ?
		    "perf_event task-clock" : "perf_event cpu-clock per CPU",
		    r->kernel < 0 ? ": times are user-mode CPU time "
		    "(PROFFLAGS=-kernel adds kernel mode)" :
		    kernel[r->kernel]);
		return line;
	case MON_SAMPLER_ITIMER:
		return lng ? "CPU-time timer (SIGPROF): times are CPU time, "
		    "charged to the user code running" : "itimer";
	default:
		return NULL;
	}
}
