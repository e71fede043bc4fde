/* SPDX-License-Identifier: MIT */
/*
 * print.c - the classic prof report of what report.c attributed: one
 * line per function, sorted, in illumos prof's columns; and -s's
 * summary.
 */
#include <err.h>
#include <stdlib.h>

#include "views.h"

/* classic prof: decimals of msec/call, fewer for larger counts */
static int
fprecision(long count)
{
	return count < 10 ? 0 : count < 100 ? 1 : count < 1000 ? 2 :
	    count < 10000 ? 3 : 4;
}

/*
 * The per-call column, 14 wide: classic prof's msec/call (its decimals
 * follow the count), or under -u usec/call or nsec/call, whose values
 * at today's speeds are not 0.0000: three decimals.
 */
static void
percall(double secs, long count, int unit, FILE *fp)
{
	int f;

	if (unit == 'u' || unit == 'n') {
		fprintf(fp, " %11.3f  ", secs / count *
		    (unit == 'u' ? 1e6 : 1e9));
		return;
	}
	f = fprecision(count);
	fprintf(fp, "%#*.*f%*s", f + 8, f, 1000.0 * secs / count, 6 - f, " ");
}

/* <unknown> and the objects' rows have no address to print. */
static int
noaddr(const struct symtab *st, long k)
{
	return k == REPORT_UNKNOWN(st) || st->ent[k].addr >= SYMTAB_ROW_BASE;
}

void
print_report(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	const struct report *r = &m->r;
	const struct symtab *st = r->st;
	struct row *rows;
	long k, count;
	size_t i, n;
	uint64_t maxaddr = 0;
	double cum = 0, pct;
	int width = 8;
	char buf[32], *name;

	rows = rows_get(r, o, &n);
	for (i = 0; i < n; i++)
		if (!noaddr(st, rows[i].k) &&
		    PRINT_ADDR(st->ent[rows[i].k].addr) > maxaddr)
			maxaddr = PRINT_ADDR(st->ent[rows[i].k].addr);
	if (o->addr != 0) {
		width = snprintf(buf, sizeof(buf), o->addr == 'x' ? "%llx" :
		    "%llo", (unsigned long long)maxaddr);
		if (width < 8)
			width = 8;
	}
	if (!o->noheader) {
		if (o->addr != 0)
			fprintf(fp, "%*s ", width, "Address");
		fprintf(fp, " %%Time Seconds Cumsecs%s  #Calls   %csec/call  "
		    "Name\n", o->inclusive ? "  %Incl Inclsec" : "",
		    o->unit ? o->unit : 'm');
	}
	for (i = 0; i < n; i++) {
		k = rows[i].k;
		count = r->ncalls[k];
		cum += r->secs[k];
		pct = r->total > 0 ? 100.0 * r->secs[k] / r->total : 0.0;
		if (o->addr != 0 && noaddr(st, k))
			fprintf(fp, "%*s ", width, "");
		else if (o->addr != 0)
			fprintf(fp, o->addr == 'x' ? "%*llx " : "%*llo ", width,
			    (unsigned long long)PRINT_ADDR(st->ent[k].addr));
		/*
		 * Classic prof's "%6.1f%8.2f%8.2f" and "%8ld", written so
		 * that a column too wide for its field (calls past 10^7,
		 * say) still has a blank before it; otherwise identical.
		 */
		fprintf(fp, "%6.1f %7.2f %7.2f", pct, r->secs[k], cum);
		if (o->inclusive)
			fprintf(fp, " %6.1f %7.2f", r->total > 0 ? 100.0 *
			    rows[i].incl / r->total : 0.0, rows[i].incl);
		if (count != 0) {
			fprintf(fp, " %7ld", count);
			percall(r->secs[k], count, o->unit, fp);
		} else
			fprintf(fp, "%22s", " ");
		name = rows_name(st, k, o->demangle, 1);
		names_put(fp, name);
		fputc('\n', fp);
		free(name);
	}
	free(rows);
}

/* -s: what was read and how much of it found a function, on FP. */
void
print_summary(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	const struct report *r = &m->r;
	const struct symtab *st = r->st;
	size_t i, zero = 0;
	double own = 0;

	(void)o;
	for (i = 0; i < st->nent; i++) {
		if (st->ent[i].runtime) {
			own += r->secs[i];
			continue;
		}
		if (st->ent[i].shown && !noaddr(st, (long)i) &&
		    r->secs[i] == 0.0 && r->ncalls[i] == 0)
			zero++;
	}
	fprintf(fp, "%5zu/%zu call counts used", r->cells_used,
	    r->nfns + r->nunused);
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
	/* What the time columns rest on: 300 samples are +-6% or so. */
	fprintf(fp, "%5.0f samples in this report (%.3f s at %g per "
	    "second)\n", r->inside + r->outside, r->total, r->rate);
	fprintf(fp, "%5ld samples dropped at saturated bins\n", r->saturated);
	fprintf(fp, "%5ld samples outside the profiled range\n", r->outrange);
	for (i = 0; i < st->nent; i++)
		if (st->ent[i].addr >= SYMTAB_ROW_BASE &&
		    r->objsamples[i] > 0) {
			fprintf(fp, "%5.0f samples in ", r->objsamples[i]);
			names_put(fp, st->rowpath[st->ent[i].addr -
			    SYMTAB_ROW_BASE]);
			fputc('\n', fp);
		}
	/*
	 * The runtime's functions have no row: the user asked about the
	 * program, and the runtime's time (writing the profile, setting
	 * up) is not the program's to fix.  Said here, not charged to a
	 * row, so that %Time stays the share of every sample.
	 */
	if (own > 0)
		fprintf(fp, "%5.0f samples in monprof's own code, not shown\n",
		    own * r->rate);
	fprintf(fp, "%5ld samples lost\n", r->lost);
	/* Only where there are stacks: older files keep their summary. */
	if (r->stacks.has)
		fprintf(fp, "%5ld samples with their call stacks (%zu "
		    "distinct), %ld without (no room in the runtime)\n",
		    r->stacks.samples, r->stacks.nstack, r->stacks.lost);
	fprintf(fp, "%5g samples per second (%s)\n", r->rate,
	    r->rate_recorded ? "recorded" : "assumed: no rate in the profile");
	/* Only where recorded: a classic file's summary is as it was. */
	if (report_sampler(r, 1) != NULL)
		fprintf(fp, "      sampled by the %s\n", report_sampler(r, 1));
	fprintf(fp, "%5zu profile%s summed\n", r->nfiles,
	    r->nfiles == 1 ? "" : "s");
	/* PROFFLAGS -merge: a file may hold many processes. */
	if (r->processes > (long)r->nfiles)
		fprintf(fp, "%5ld processes in them (PROFFLAGS -merge)\n",
		    r->processes);
}
