/* SPDX-License-Identifier: MIT */
/*
 * check_ehframe.c - the rules that runtime/ehframe.c reads from an
 * object's .eh_frame, row by row, against binutils' own reading of it
 * (readelf --debug-dump=frames-interp): every row of the C library and
 * of this program, at its first and its last byte.  A row whose CFA is
 * SP or FP plus a constant, with the return address at CFA - 8 and FP
 * saved at an offset or not at all, must give that rule; any other row
 * (a CFA expression, FP in a register) none.  The same for tables
 * copied by a reader (the perf helper's, without the loader's lock:
 * runtime/sframe.c), here one that reads a copy of the segment made
 * elsewhere, and freed once the tables are copied.
 */
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampler.h"
#include "unit.h"

/* Where an object is loaded and its .eh_frame copied. */
struct obj {
	const char	*want;		/* a part of its path; "" the program */
	int		 loose;		/* copied from a copy of its segment */
	char		 path[4096];
	uintptr_t	 bias;
	struct __mon_ehframe *eh;
};

/* A reader of the segment's copy, which lies ctx bytes from it. */
static int
displaced(void *ctx, void *dst, uintptr_t src, size_t n)
{
	memcpy(dst, (const void *)(src + (uintptr_t)ctx), n);
	return 0;
}

static int
find(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct obj *o = arg;
	uintptr_t hdr = 0, start = 0, end = 0;
	size_t len = 0;
	int k;

	(void)size;
	if (o->want[0] == '\0' ? info->dlpi_name[0] != '\0' :
	    strstr(info->dlpi_name, o->want) == NULL)
		return 0;
	for (k = 0; k < info->dlpi_phnum; k++)
		if (info->dlpi_phdr[k].p_type == PT_GNU_EH_FRAME) {
			hdr = info->dlpi_addr + info->dlpi_phdr[k].p_vaddr;
			len = info->dlpi_phdr[k].p_memsz;
		}
	for (k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
		uintptr_t at = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && hdr >= at &&
		    hdr - at < ph->p_memsz) {
			start = at;
			end = at + ph->p_filesz;
		}
	}
	if (hdr == 0 || end == 0)
		return 0;
	if (o->want[0] == '\0') {
		ssize_t n = readlink("/proc/self/exe", o->path,
		    sizeof(o->path) - 1);

		if (n <= 0)
			return 0;
		o->path[n] = '\0';
	} else
		snprintf(o->path, sizeof(o->path), "%s", info->dlpi_name);
	o->bias = info->dlpi_addr;
	if (o->loose) {
		/* The segment moved elsewhere, and gone once copied. */
		unsigned char *seg = malloc(end - start);

		ck_assert_ptr_nonnull(seg);
		memcpy(seg, (const void *)start, end - start);
		o->eh = __mon_ehframe_copy(hdr, len, start, end, displaced,
		    (void *)((uintptr_t)seg - start));
		memset(seg, 0xff, end - start);
		free(seg);
	} else
		o->eh = __mon_ehframe_copy(hdr, len, start, end, NULL, NULL);
	return 1;
}

/*
 * What readelf says of a row: -1 no rule, else sp_based, cfa, fp_saved
 * and fp as the rule's.
 */
static int
expected(const char *cfa, const char *fp, const char *ra,
    struct __mon_sframe_rule *r)
{
	char *e;

	if (strcmp(ra, "c-8") != 0)
		return -1;
	if (strncmp(cfa, "rsp+", 4) == 0)
		r->sp_based = 1;
	else if (strncmp(cfa, "rbp+", 4) == 0)
		r->sp_based = 0;
	else
		return -1;
	r->cfa = strtol(cfa + 4, &e, 10);
	if (*e != '\0')
		return -1;
	if (strcmp(fp, "u") == 0 || strcmp(fp, "s") == 0) {
		r->fp_saved = 0;
		r->fp = 0;
		return 0;
	}
	if (fp[0] != 'c')
		return -1;
	r->fp_saved = 1;
	r->fp = strtol(fp + 1, &e, 10);
	return *e == '\0' ? 0 : -1;
}

/* Check pc against readelf's row: 1 if they agree. */
static int
agrees(const struct obj *o, uintptr_t pc, int want,
    const struct __mon_sframe_rule *w)
{
	struct __mon_sframe_rule r;
	int got = __mon_ehframe_find(o->eh, o->bias + pc, &r);

	if (want != 0)
		return got != 0;
	return got == 0 && r.sp_based == w->sp_based && r.cfa == w->cfa &&
	    r.fp_saved == w->fp_saved && (!w->fp_saved || r.fp == w->fp);
}

/*
 * Every row readelf prints for o's .eh_frame: how many were checked;
 * the first that disagrees is reported.
 */
static long
rows(const struct obj *o)
{
	char cmd[4200], line[1024], cols[32][24], prev_cfa[24] = "";
	char prev_fp[24] = "", prev_ra[24] = "";
	unsigned long loc, prev = 0, hi = 0;
	int ncol = 0, i, fpcol = -1, racol = -1, have = 0, want;
	struct __mon_sframe_rule w;
	long n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd),
	    "readelf --debug-dump=frames-interp '%s' 2>/dev/null", o->path);
	f = popen(cmd, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) != NULL) {
		char *p = strstr(line, " FDE cie=");
		unsigned long lo2, hi2;

		/* A row's last byte: the next row, or the FDE's end. */
		if (have && (p != NULL || line[0] == '\n' ||
		    sscanf(line, "%lx", &loc) == 1)) {
			unsigned long last = p != NULL || line[0] == '\n' ?
			    hi - 1 : loc - 1;

			want = expected(prev_cfa, prev_fp, prev_ra, &w);
			if (!agrees(o, prev, want, &w) ||
			    !agrees(o, last, want, &w))
				ck_abort_msg("%s: row %lx (to %lx): CFA %s, "
				    "rbp %s, ra %s", o->path, prev, last,
				    prev_cfa, prev_fp, prev_ra);
			n++;
			have = 0;
		}
		if (p != NULL && sscanf(strstr(p, "pc="), "pc=%lx..%lx", &lo2,
		    &hi2) == 2) {
			hi = hi2;
			ncol = 0;
			continue;
		}
		/* A CIE's rows are no code's. */
		if (strstr(line, " CIE") != NULL) {
			hi = 0;
			ncol = 0;
			continue;
		}
		if (strstr(line, "   LOC ") == line) {
			char *t = strtok(line, " \n");

			for (ncol = 0, fpcol = racol = -1; t != NULL &&
			    ncol < 32; t = strtok(NULL, " \n"), ncol++) {
				if (strcmp(t, "rbp") == 0)
					fpcol = ncol;
				if (strcmp(t, "ra") == 0)
					racol = ncol;
			}
			continue;
		}
		if (ncol == 0 || hi == 0 || sscanf(line, "%lx", &loc) != 1)
			continue;
		{
			char *t = strtok(line, " \n");

			for (i = 0; t != NULL && i < 32; t = strtok(NULL,
			    " \n"), i++)
				snprintf(cols[i], sizeof(cols[i]), "%s", t);
		}
		if (i != ncol || racol < 0)
			continue;
		prev = loc;
		snprintf(prev_cfa, sizeof(prev_cfa), "%s", cols[1]);
		snprintf(prev_fp, sizeof(prev_fp), "%s", fpcol < 0 ? "u" :
		    cols[fpcol]);
		snprintf(prev_ra, sizeof(prev_ra), "%s", cols[racol]);
		have = 1;
	}
	pclose(f);
	return n;
}

START_TEST(test_libc_rows)
{
	struct obj o = { .want = "libc.so.6" };
	long n;

	dl_iterate_phdr(find, &o);
	ck_assert_ptr_nonnull(o.eh);
	n = rows(&o);
	/* Debian 12's: 23,759 rows. */
	ck_assert_int_ge(n, 10000);
}
END_TEST

START_TEST(test_program_rows)
{
	struct obj o = { .want = "" };

	dl_iterate_phdr(find, &o);
	ck_assert_ptr_nonnull(o.eh);
	ck_assert_int_ge(rows(&o), 1000);
}
END_TEST

START_TEST(test_loose_rows)
{
	struct obj lib = { .want = "libc.so.6", .loose = 1 };
	struct obj prog = { .want = "", .loose = 1 };

	dl_iterate_phdr(find, &lib);
	dl_iterate_phdr(find, &prog);
	ck_assert_ptr_nonnull(lib.eh);
	ck_assert_ptr_nonnull(prog.eh);
	ck_assert_int_ge(rows(&lib), 10000);
	ck_assert_int_ge(rows(&prog), 1000);
}
END_TEST

/* Before an FDE's first pc, and in a table's gap: no rule. */
START_TEST(test_outside)
{
	struct obj o = { .want = "libc.so.6" };
	struct __mon_sframe_rule r;

	dl_iterate_phdr(find, &o);
	ck_assert_ptr_nonnull(o.eh);
	ck_assert_int_eq(__mon_ehframe_find(o.eh, 0x1000, &r), -1);
	ck_assert_int_eq(__mon_ehframe_find(o.eh, o.bias, &r), -1);
}
END_TEST

static Suite *
ehframe_suite(void)
{
	Suite *s = suite_create("ehframe");
	TCase *tc = tcase_create("rows");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_libc_rows);
	tcase_add_test(tc, test_program_rows);
	tcase_add_test(tc, test_loose_rows);
	tcase_add_test(tc, test_outside);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(ehframe_suite)
