/* SPDX-License-Identifier: MIT */
/*
 * export.c - --format=csv|json: the rows of a report (the flat one, or
 * -L's lines) for programs instead of people.  CSV is RFC 4180, a header
 * line naming the columns; JSON is one object, the profile's totals and
 * "rows", an array of objects keyed by the same names.  Numbers are not
 * rounded the way the table rounds them.
 */
#include <err.h>
#include <stdlib.h>

#include "views.h"

static void
csvstr(FILE *fp, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"')
			fputc('"', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/* S as a JSON string: quotes, backslashes and control bytes escaped. */
static void
jsonstr(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', fp);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(fp, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\u%04x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

/*
 * Start an export of rows with the NCOLS columns COLS on FP, in FORMAT
 * ('c' or 'j'), after the totals of R.
 */
void
export_begin(struct export *x, FILE *fp, int format, const struct report *r,
    const char *const *cols, size_t ncols)
{
	size_t i;

	x->fp = fp;
	x->format = format;
	x->cols = cols;
	x->ncols = ncols;
	x->nrows = 0;
	if (format == 'c') {
		for (i = 0; i < ncols; i++)
			fprintf(fp, "%s%s", i ? "," : "", cols[i]);
		fputc('\n', fp);
		return;
	}
	fputs("{\"program\": ", fp);
	jsonstr(fp, r->st->path);
	fprintf(fp, ", \"profiles\": %zu, \"rate\": %g, \"sampler\": ",
	    r->nfiles, r->rate);
	if (report_sampler(r, 0) != NULL)
		fprintf(fp, "\"%s\"", report_sampler(r, 0));
	else
		fputs("null", fp);
	fprintf(fp, ", \"samples\": %.0f, \"total_seconds\": %.9g, "
	    "\"rows\": [", r->inside + r->outside, r->total);
}

/* One row: NCOLS values, in the columns' order. */
void
export_row(struct export *x, const struct xval *v)
{
	FILE *fp = x->fp;
	size_t i;

	if (x->format == 'j')
		fputs(x->nrows ? ",\n  {" : "\n  {", fp);
	for (i = 0; i < x->ncols; i++) {
		if (x->format == 'j')
			fprintf(fp, "%s\"%s\": ", i ? ", " : "", x->cols[i]);
		else if (i > 0)
			fputc(',', fp);
		switch (v[i].kind) {
		case XVAL_STR:
			if (x->format == 'j')
				jsonstr(fp, v[i].s);
			else
				csvstr(fp, v[i].s);
			break;
		case XVAL_NUM:
			fprintf(fp, "%.9g", v[i].d);
			break;
		case XVAL_INT:
			fprintf(fp, "%ld", v[i].l);
			break;
		default:
			if (x->format == 'j')
				fputs("null", fp);
		}
	}
	fputs(x->format == 'j' ? "}" : "\n", fp);
	x->nrows++;
}

void
export_end(struct export *x)
{
	if (x->format == 'j')
		fputs(x->nrows ? "\n]}\n" : "]}\n", x->fp);
}

/* The object holding entry K, for its "object" column. */
static const char *
objectof(const struct symtab *st, long k)
{
	const struct symobj *o;

	if (k == REPORT_UNKNOWN(st))
		return NULL;
	o = symtab_object_at(st, st->ent[k].addr);
	return o != NULL ? o->path : st->path;
}

/* The flat report's rows, in its order. */
void
export_flat(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	static const char *const cols[] = { "name", "address", "object",
	    "percent", "seconds", "cumsecs", "calls", "seconds_per_call",
	    "inclusive", "file" };
	const struct report *r = &m->r;
	const struct symtab *st = r->st;
	struct export x;
	struct xval v[10];
	struct row *rows;
	char addr[24], *name;
	const char *obj, *file;
	double cum = 0;
	size_t i, n;
	long k;

	rows = rows_get(r, o, &n);
	export_begin(&x, fp, o->format, r, cols, 10);
	for (i = 0; i < n; i++) {
		k = rows[i].k;
		cum += rows[i].secs;
		/*
		 * The name alone: the report's suffix for functions of one
		 * name is the object and file columns here.
		 */
		name = rows_name(st, k, o->demangle, 0);
		file = rows_file(st, k);
		obj = objectof(st, k);
		snprintf(addr, sizeof(addr), "%#llx", obj == NULL ? 0ULL :
		    (unsigned long long)PRINT_ADDR(st->ent[k].addr));
		v[0] = (struct xval){ .kind = XVAL_STR, .s = name };
		v[1] = (struct xval){ .kind = obj ? XVAL_STR : XVAL_NULL,
		    .s = addr };
		v[2] = (struct xval){ .kind = obj ? XVAL_STR : XVAL_NULL,
		    .s = obj };
		v[3] = (struct xval){ .kind = XVAL_NUM, .d = r->total > 0 ?
		    100.0 * rows[i].secs / r->total : 0.0 };
		v[4] = (struct xval){ .kind = XVAL_NUM, .d = rows[i].secs };
		v[5] = (struct xval){ .kind = XVAL_NUM, .d = cum };
		/* As the report: no count (time only) is blank, not 0. */
		v[6] = (struct xval){ .kind = rows[i].calls ? XVAL_INT :
		    XVAL_NULL, .l = rows[i].calls };
		v[7] = (struct xval){ .kind = rows[i].calls ? XVAL_NUM :
		    XVAL_NULL, .d = rows[i].calls ? rows[i].secs /
		    rows[i].calls : 0 };
		/* Seconds under the function, null without stacks. */
		v[8] = (struct xval){ .kind = r->stacks.has ? XVAL_NUM :
		    XVAL_NULL, .d = rows[i].incl };
		/* A static's source file, null for a global: no symbol says. */
		v[9] = (struct xval){ .kind = *file ? XVAL_STR : XVAL_NULL,
		    .s = file };
		export_row(&x, v);
		free(name);
	}
	export_end(&x);
	free(rows);
}

/* -L's rows, in its order. */
void
export_lines(const struct model *m, const struct prof_opts *o, FILE *fp)
{
	static const char *const cols[] = { "name", "file", "line",
	    "address", "object", "percent", "seconds", "cumsecs", "calls" };
	const struct report *r = &m->r;
	const struct symtab *st = r->st;
	struct linerow *v;
	struct export x;
	struct xval c[9];
	char addr[24], **names;
	const char *obj;
	double cum = 0;
	size_t i, n;

	names = lineview_names(st, o);
	v = lineview_selected(&m->ln, o, names, &n);
	export_begin(&x, fp, o->format, r, cols, 9);
	for (i = 0; i < n; i++) {
		cum += v[i].secs;
		obj = objectof(st, v[i].row);
		snprintf(addr, sizeof(addr), "%#llx", obj == NULL ? 0ULL :
		    (unsigned long long)PRINT_ADDR(v[i].addr));
		c[0] = (struct xval){ .kind = XVAL_STR, .s = names[v[i].row] };
		c[1] = (struct xval){ .kind = v[i].file ? XVAL_STR :
		    XVAL_NULL, .s = v[i].file };
		c[2] = (struct xval){ .kind = v[i].file ? XVAL_INT :
		    XVAL_NULL, .l = v[i].line };
		c[3] = (struct xval){ .kind = obj ? XVAL_STR : XVAL_NULL,
		    .s = addr };
		c[4] = (struct xval){ .kind = obj ? XVAL_STR : XVAL_NULL,
		    .s = obj };
		c[5] = (struct xval){ .kind = XVAL_NUM, .d = r->total > 0 ?
		    100.0 * v[i].secs / r->total : 0.0 };
		c[6] = (struct xval){ .kind = XVAL_NUM, .d = v[i].secs };
		c[7] = (struct xval){ .kind = XVAL_NUM, .d = cum };
		c[8] = (struct xval){ .kind = XVAL_INT, .l = v[i].calls };
		export_row(&x, c);
	}
	export_end(&x);
	lineview_names_free(st, names);
	free(v);
}
