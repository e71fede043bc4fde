/* SPDX-License-Identifier: MIT */
/*
 * check_symtab.c - prof's symbol table (prof/symtab.c), against a small
 * executable compiled by the test with $CC (default cc): lookup bounds,
 * aliases on one entry, every function its own line by default, .cold
 * parts folded, -l's classic folding decided by binding, text no symbol
 * covers left to none; hostile tables (100,000 aliases of one address, a
 * wrong sh_entsize).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "model.h"
#include "unit.h"

static const char source[] =
    "void f1(void);\n"
    "void f1_alias(void) __attribute__((alias(\"f1\")));\n"
    "__asm__(\".text\\n.type f1.cold, @function\\nf1.cold:\\n"
    "\\t.skip 16, 0x90\\n.size f1.cold, 16\\n\");\n"
    "void f1(void) { __asm__ volatile(\"nop\"); }\n"
    "void f2(void) { f1(); }\n"
    "static void __attribute__((noinline)) quiet(void) { f2(); }\n"
    /* A local clone of f2, 32 unnamed bytes, a clone with no base. */
    "__asm__(\".text\\n.type f2.isra.0, @function\\nf2.isra.0:\\n"
    "\\t.skip 16, 0x90\\n.size f2.isra.0, 16\\n\\t.skip 32, 0x90\\n"
    ".type x.constprop.0, @function\\nx.constprop.0:\\n"
    "\\t.skip 16, 0x90\\n.size x.constprop.0, 16\\n\");\n"
    "static void __attribute__((noinline)) hot(void) { quiet(); }\n"
    /* A label without a size inside host, then 16 unnamed bytes. */
    "__asm__(\".type host, @function\\nhost:\\n\\t.skip 8, 0x90\\n"
    "label:\\n\\t.skip 24, 0x90\\n.size host, 32\\n\\t.skip 16, 0x90\\n\");\n"
    "void __attribute__((weak)) w(void) { hot(); }\n"
    "int main(void) { w(); return 0; }\n";

static char dir[] = "/tmp/check_symtab.XXXXXX";
static char exe[64];

static void
build(void)
{
	char cmd[512], src[64];
	const char *cc = getenv("CC");
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/t.c", dir);
	snprintf(exe, sizeof(exe), "%s/t", dir);
	ck_assert_ptr_nonnull(f = fopen(src, "w"));
	fputs(source, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd),
	    "%s -O0 -fno-toplevel-reorder -o %s %s", cc ? cc : "cc", exe, src);
	ck_assert_int_eq(system(cmd), 0);
}

static void
cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		return;
}

static long
entry(const struct symtab *st, const char *name)
{
	size_t i;

	for (i = 0; i < st->nnames; i++)
		if (strcmp(st->names[i].name, name) == 0)
			return st->names[i].ent;
	ck_abort_msg("no symbol %s", name);
	return -1;
}

START_TEST(test_lookup_at_and_around_bounds)
{
	struct symtab st;
	char ebuf[160];
	const struct symentry *e;
	long k;

	build();
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	k = entry(&st, "f2");
	e = &st.ent[k];
	ck_assert_uint_gt(e->size, 0);
	ck_assert_int_ne(symtab_lookup(&st, e->addr), k);	/* sym < pc */
	ck_assert_int_eq(symtab_lookup(&st, e->addr + 1), k);
	ck_assert_int_eq(symtab_lookup(&st, e->addr + e->size), k);
	ck_assert_int_ne(symtab_lookup(&st, e->addr + e->size + 1), k);
	ck_assert_int_eq(symtab_lookup(&st, 0), -1);
	ck_assert_int_eq(symtab_lookup(&st, UINT64_MAX), -1);
	ck_assert_int_eq(symtab_region(&st, e->addr), k);
	symtab_close(&st);
	cleanup();
}
END_TEST

START_TEST(test_aliases_share_one_entry)
{
	struct symtab st;
	char ebuf[160];
	long k;

	build();
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	k = entry(&st, "f1");
	ck_assert_int_eq(entry(&st, "f1_alias"), k);
	ck_assert_uint_eq(st.ent[k].nnames, 2);
	ck_assert_str_eq(st.names[st.ent[k].name0].name, "f1");
	ck_assert(st.ent[k].shown);
	ck_assert(st.ent[entry(&st, "w")].shown);		/* weak */
	symtab_close(&st);
	cleanup();
}
END_TEST

START_TEST(test_cold_and_locals_fold)
{
	struct symtab st;
	char ebuf[160];
	long cold, quiet;

	build();
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	cold = entry(&st, "f1.cold");
	quiet = entry(&st, "quiet");
	ck_assert(!st.ent[cold].shown);
	ck_assert_int_eq(st.ent[cold].row, entry(&st, "f1"));
	ck_assert_int_eq(st.ent[cold].calls, entry(&st, "f1"));
	ck_assert(!st.ent[quiet].shown);
	ck_assert_int_eq(st.ent[quiet].row, entry(&st, "f2"));
	ck_assert_int_eq(st.ent[quiet].calls, -1);
	symtab_close(&st);
	/* By default (-g) the local has its own line; .cold still folds. */
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 1, ebuf, sizeof(ebuf)));
	quiet = entry(&st, "quiet");
	ck_assert(st.ent[quiet].shown);
	ck_assert_int_eq(st.ent[quiet].calls, quiet);
	ck_assert(!st.ent[entry(&st, "f1.cold")].shown);
	symtab_close(&st);
	cleanup();
}
END_TEST

/*
 * -l: binding, not the name, makes a line.  A local clone whose base is
 * absent is local: no line, and the static after it does not fold into
 * it (that gave a clone that never ran its neighbour's time).  A local
 * clone of a shown global reports into that global.
 */
START_TEST(test_classic_binding_decides)
{
	struct symtab st;
	char ebuf[160];
	long f2, x, hot, isra;

	build();
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	f2 = entry(&st, "f2");
	x = entry(&st, "x.constprop.0");
	hot = entry(&st, "hot");
	isra = entry(&st, "f2.isra.0");
	ck_assert(!st.ent[x].shown);
	ck_assert(!st.ent[hot].shown);
	ck_assert_int_eq(st.ent[x].row, f2);
	ck_assert_int_eq(st.ent[hot].row, f2);
	ck_assert_int_eq(st.ent[hot].calls, -1);
	ck_assert(!st.ent[isra].shown);
	ck_assert_int_eq(st.ent[isra].row, f2);
	ck_assert_int_eq(st.ent[isra].calls, f2);
	symtab_close(&st);
	/* By default every one of them has its own line. */
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 1, ebuf, sizeof(ebuf)));
	hot = entry(&st, "hot");
	x = entry(&st, "x.constprop.0");
	isra = entry(&st, "f2.isra.0");
	ck_assert(st.ent[hot].shown && st.ent[x].shown && st.ent[isra].shown);
	ck_assert_int_eq(st.ent[hot].row, hot);
	ck_assert_int_eq(st.ent[x].calls, x);
	ck_assert_int_eq(st.ent[isra].row, isra);
	symtab_close(&st);
	cleanup();
}
END_TEST

/*
 * A function's time and calls stop at its size: the unnamed bytes after
 * it are in no entry's region, in either mode.  A label without a size
 * stops where the function holding it does.
 */
START_TEST(test_unnamed_text_is_no_ones)
{
	struct symtab st;
	char ebuf[160];
	const struct symentry *e, *h, *l;
	uint64_t gap;
	int locals;

	build();
	for (locals = 0; locals < 2; locals++) {
		ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, locals, ebuf,
		    sizeof(ebuf)));
		e = &st.ent[entry(&st, "f2.isra.0")];
		ck_assert_uint_eq(e->end, e->addr + 16);
		gap = e->end + 8;
		ck_assert_int_eq(symtab_lookup(&st, gap), -1);
		ck_assert_uint_gt(st.ent[symtab_region(&st, gap)].addr, gap);
		h = &st.ent[entry(&st, "host")];
		l = &st.ent[entry(&st, "label")];
		ck_assert_uint_eq(h->end, l->addr);
		ck_assert_uint_eq(l->end, h->addr + 32);
		ck_assert_int_eq(symtab_lookup(&st, h->addr + 40), -1);
		ck_assert_uint_gt(st.ent[symtab_region(&st, h->addr + 40)].addr,
		    h->addr + 40);
		symtab_close(&st);
	}
	cleanup();
}
END_TEST

START_TEST(test_bad_executables_refused)
{
	struct symtab st;
	char ebuf[160], cmd[256];

	build();
	ck_assert_str_eq(symtab_load(&st, "/nonexistent", NULL, 0, 0, ebuf,
	    sizeof(ebuf)), "No such file or directory");
	symtab_close(&st);
	snprintf(cmd, sizeof(cmd), "%s/t.c", dir);
	ck_assert_str_eq(symtab_load(&st, cmd, NULL, 0, 0, ebuf, sizeof(ebuf)),
	    "not an ELF file");
	symtab_close(&st);
	snprintf(cmd, sizeof(cmd), "strip %s", exe);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_str_eq(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)),
	    "no symbols: it was stripped; "
	    "report the unstripped copy, or rebuild it without -s");
	symtab_close(&st);
	cleanup();
}
END_TEST

/*
 * 100,000 names of one address (a hostile or generated symbol table) load
 * in n log n time: comparing each name with every other one took 24 s.
 * The load's own CPU time is what is bounded (well under 5 s: about
 * 0.1 s); the case's timeout only stops a hang, as the assembler's time
 * on a loaded machine is not the load's.
 */
START_TEST(test_many_aliases_load_fast)
{
	struct symtab st;
	struct timespec t0, t1;
	char ebuf[160], cmd[512], src[64];
	const char *cc = getenv("CC");
	FILE *f;
	long k;
	int i;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/t.s", dir);
	snprintf(exe, sizeof(exe), "%s/t", dir);
	ck_assert_ptr_nonnull(f = fopen(src, "w"));
	fputs(".text\n.globl main\n.type main, @function\n", f);
	for (i = 0; i < 100000; i++)
		fprintf(f, ".globl a%d\n.type a%d, @function\na%d:\n", i, i,
		    i);
	fputs("main:\n\txorl %eax, %eax\n\tret\n.size main, .-main\n"
	    ".section .note.GNU-stack, \"\", @progbits\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -o %s %s", cc ? cc : "cc", exe, src);
	ck_assert_int_eq(system(cmd), 0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	ck_assert_double_lt((double)(t1.tv_sec - t0.tv_sec) +
	    (t1.tv_nsec - t0.tv_nsec) / 1e9, 5.0);
	k = entry(&st, "main");
	ck_assert_int_eq(entry(&st, "a99999"), k);
	ck_assert_uint_eq(st.ent[k].nnames, 100001);
	ck_assert_str_eq(st.names[st.ent[k].name0].name, "a0");
	symtab_close(&st);
	cleanup();
}
END_TEST

/*
 * A symbol table whose sh_entsize lies (1 instead of 24) holds as many
 * symbols as its data does, not one per byte: memory and the -s total.
 */
START_TEST(test_bad_entsize_ignored)
{
	struct symtab st;
	Elf64_Ehdr eh;
	Elf64_Shdr sh;
	char ebuf[160];
	size_t nsyms;
	FILE *f;
	int i;

	build();
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	nsyms = st.nsyms;
	symtab_close(&st);
	ck_assert_ptr_nonnull(f = fopen(exe, "r+"));
	ck_assert_uint_eq(fread(&eh, sizeof(eh), 1, f), 1);
	for (i = 0; i < eh.e_shnum; i++) {
		fseek(f, eh.e_shoff + i * sizeof(sh), SEEK_SET);
		ck_assert_uint_eq(fread(&sh, sizeof(sh), 1, f), 1);
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		sh.sh_entsize = 1;
		fseek(f, eh.e_shoff + i * sizeof(sh), SEEK_SET);
		ck_assert_uint_eq(fwrite(&sh, sizeof(sh), 1, f), 1);
	}
	fclose(f);
	ck_assert_ptr_null(symtab_load(&st, exe, NULL, 0, 0, ebuf, sizeof(ebuf)));
	ck_assert_uint_eq(st.nsyms, nsyms);
	entry(&st, "main");
	symtab_close(&st);
	cleanup();
}
END_TEST

static Suite *
symtab_suite(void)
{
	Suite *s = suite_create("symtab");
	TCase *tc = tcase_create("elf");
	TCase *hostile = tcase_create("hostile");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_lookup_at_and_around_bounds);
	tcase_add_test(tc, test_aliases_share_one_entry);
	tcase_add_test(tc, test_cold_and_locals_fold);
	tcase_add_test(tc, test_classic_binding_decides);
	tcase_add_test(tc, test_unnamed_text_is_no_ones);
	tcase_add_test(tc, test_bad_executables_refused);
	suite_add_tcase(s, tc);
	tcase_set_timeout(hostile, 300);
	tcase_add_test(hostile, test_many_aliases_load_fast);
	tcase_add_test(hostile, test_bad_entsize_ignored);
	suite_add_tcase(s, hostile);
	return s;
}

UNIT_SUITE(symtab_suite)
