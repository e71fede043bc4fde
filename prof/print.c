/* SPDX-License-Identifier: MIT */
/*
 * print.c - the classic prof report of what report.c attributed: one
 * line per function, sorted, in illumos prof's columns; and -s's
 * summary.
 */
#include <err.h>
#include <stdlib.h>

#include <demangle.h>

#include "prof.h"

/* -o/-x: a shared object's function shows its address in the object. */
#define ADDR(a)		((a) % SYMTAB_OBJECT_BASE)

/* A report line and its sort keys. */
struct row {
	long		 k;		/* entry, or REPORT_UNKNOWN */
	double		 secs;
	long		 calls;
	const char	*name;
};

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

/* -n, and every other order's ties: by name, then address. */
static int
namecmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return c;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* -a: entries are in address order, <unknown> last. */
static int
addrcmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	return x->k < y->k ? -1 : x->k > y->k;
}

/* -t: most time first, then most calls. */
static int
timecmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	return namecmp(a, b);
}

/* -c: most calls first, then most time. */
static int
callcmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->calls != y->calls)
		return x->calls > y->calls ? -1 : 1;
	if (x->secs != y->secs)
		return x->secs > y->secs ? -1 : 1;
	return namecmp(a, b);
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
print_report(const struct report *r, const struct prof_opts *o, FILE *fp)
{
	const struct symtab *st = r->st;
	struct row *rows;
	long k, count;
	size_t i, n;
	uint64_t maxaddr = 0;
	double cum = 0, pct, msec;
	int width = 8, f;
	char buf[32];

	if ((rows = calloc(st->nent + 1, sizeof(*rows))) == NULL)
		err(1, "report");
	for (i = n = 0; i <= st->nent; i++) {
		if (i < st->nent && !st->ent[i].shown)
			continue;
		/* <unknown>, without an address, only when it has any. */
		if ((!o->zero || i == st->nent) && r->secs[i] == 0.0 &&
		    r->ncalls[i] == 0)
			continue;
		rows[n].k = i;
		rows[n].secs = r->secs[i];
		rows[n].calls = r->ncalls[i];
		rows[n++].name = firstname(st, i);
		if (i < st->nent && ADDR(st->ent[i].addr) > maxaddr)
			maxaddr = ADDR(st->ent[i].addr);
	}
	qsort(rows, n, sizeof(*rows), o->sort == 't' ? timecmp :
	    o->sort == 'c' ? callcmp : o->sort == 'a' ? addrcmp : namecmp);

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
		k = rows[i].k;
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
print_summary(const struct report *r, const struct prof_opts *o, FILE *fp)
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
