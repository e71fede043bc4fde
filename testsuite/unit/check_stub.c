/* SPDX-License-Identifier: MIT */
/*
 * check_stub.c - the x86-64 stubs the plugin calls from inline assembly
 * (runtime/stub.c) preserve every register it does not declare
 * clobbered: the general scratch registers and %xmm0-%xmm15, on their
 * slow paths (a new cell, a new thread's first table or area) as on the
 * fast one.
 */
#include <string.h>

#include "control.h"
#include "unit.h"

#ifdef __x86_64__

void	__mon_mcount_stub(void);
void	__mon_mcount_arc_rec_stub(void);
void	__mon_mcount_area_stub(void);
void	__mon_mcount_arc_area_stub(void);

/*
 * The registers before and after the call: %rax %rcx %rdx %rsi %rdi %r8
 * %r9 %r10 %r11, then %xmm0-%xmm15.  Static, so the asm reaches them
 * %rip-relative with every register in use.
 */
struct regs {
	long		gp[9];
	unsigned char	xmm[16][16];
};
static struct regs before __attribute__((__used__));
static struct regs after __attribute__((__used__));
static void (*stub)(void) __attribute__((__used__));
static void *above __attribute__((__used__));	/* pushed: -pg's &cache */
static void *above2 __attribute__((__used__));	/* pushed first: its site */

#define LOAD(r, i)	"movq	" #i "*8+before(%%rip), %%" #r "\n\t"
#define SAVE(r, i)	"movq	%%" #r ", " #i "*8+after(%%rip)\n\t"
#define XLOAD(i)	"movdqu	72+" #i "*16+before(%%rip), %%xmm" #i "\n\t"
#define XSAVE(i)	"movdqu	%%xmm" #i ", 72+" #i "*16+after(%%rip)\n\t"

/*
 * Call fn with %rax = rax, %r11 = r11, pushed above the return address
 * and pushed2 above that (the plugin's calling sequence) and every other
 * scratch register set to a pattern; the number of registers, %r11
 * aside, that came back changed.
 */
static int
clobbered_by2(void (*fn)(void), void *rax, void *r11, void *pushed,
    void *pushed2)
{
	int i, n = 0;

	for (i = 0; i < 9; i++)
		before.gp[i] = 0x0101010101010101L * (i + 1);
	for (i = 0; i < 16 * 16; i++)
		before.xmm[i / 16][i % 16] = (unsigned char)(i * 7 + 1);
	before.gp[0] = (long)rax;
	before.gp[8] = (long)r11;
	stub = fn;
	above = pushed;
	above2 = pushed2;
	__asm__ volatile(
	    LOAD(rax, 0) LOAD(rcx, 1) LOAD(rdx, 2) LOAD(rsi, 3) LOAD(rdi, 4)
	    LOAD(r8, 5) LOAD(r9, 6) LOAD(r10, 7) LOAD(r11, 8)
	    XLOAD(0) XLOAD(1) XLOAD(2) XLOAD(3) XLOAD(4) XLOAD(5) XLOAD(6)
	    XLOAD(7) XLOAD(8) XLOAD(9) XLOAD(10) XLOAD(11) XLOAD(12)
	    XLOAD(13) XLOAD(14) XLOAD(15)
	    "lea	-128(%%rsp), %%rsp\n\t"
	    "pushq	above2(%%rip)\n\t"
	    "pushq	above(%%rip)\n\t"
	    "call	*stub(%%rip)\n\t"
	    "lea	144(%%rsp), %%rsp\n\t"
	    SAVE(rax, 0) SAVE(rcx, 1) SAVE(rdx, 2) SAVE(rsi, 3) SAVE(rdi, 4)
	    SAVE(r8, 5) SAVE(r9, 6) SAVE(r10, 7) SAVE(r11, 8)
	    XSAVE(0) XSAVE(1) XSAVE(2) XSAVE(3) XSAVE(4) XSAVE(5) XSAVE(6)
	    XSAVE(7) XSAVE(8) XSAVE(9) XSAVE(10) XSAVE(11) XSAVE(12)
	    XSAVE(13) XSAVE(14) XSAVE(15)
	    : : : "memory", "cc", "rax", "rcx", "rdx", "rsi", "rdi", "r8",
	      "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
	      "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
	      "xmm12", "xmm13", "xmm14", "xmm15");
	for (i = 0; i < 8; i++)
		n += after.gp[i] != before.gp[i];
	for (i = 0; i < 16; i++)
		n += memcmp(after.xmm[i], before.xmm[i], 16) != 0;
	return n;
}

static int
clobbered_by(void (*fn)(void), void *rax, void *r11, void *pushed)
{
	return clobbered_by2(fn, rax, r11, pushed, NULL);
}

START_TEST(test_mcount_stub_preserves_registers)
{
	static long *word;
	static struct cnt *cell;

	ck_assert_int_eq(clobbered_by(__mon_mcount_stub, &word, &cell, NULL), 0);
	ck_assert_ptr_nonnull(word);
	ck_assert_ptr_nonnull(cell);
	ck_assert_int_eq(*word, 1);
}
END_TEST

static long arc_total;

static void
sum_arcs(uintptr_t from, struct cnt *cell, long n, void *arg)
{
	(void)cell;
	if (from == (uintptr_t)arg)
		arc_total += n;
}

/*
 * First call: a new cell and this thread's first table (slow path);
 * second: the fast path; third: a new arc in the same table.  Each
 * leaves its arc in the cache.
 */
START_TEST(test_arc_stub_preserves_registers)
{
	static struct cnt *cell;
	void *from = (void *)0x4000, *other = (void *)0x5000;

	static long *arc;

	ck_assert_ptr_null(__mon_arcs_mine.tab);
	ck_assert_int_eq(clobbered_by(__mon_mcount_arc_rec_stub, &cell, from,
	    &arc), 0);
	ck_assert_ptr_nonnull(__mon_arcs_mine.tab);
	ck_assert_ptr_nonnull(arc);
	ck_assert_int_eq(arc[MON_ARC_FROM], (long)from);
	ck_assert_int_eq(arc[MON_ARC_COUNT], 1);
	arc = NULL;
	ck_assert_int_eq(clobbered_by(__mon_mcount_arc_rec_stub, &cell, from,
	    &arc), 0);
	ck_assert_ptr_nonnull(arc);
	ck_assert_int_eq(arc[MON_ARC_COUNT], 2);
	ck_assert_int_eq(clobbered_by(__mon_mcount_arc_rec_stub, &cell, other,
	    &arc), 0);
	ck_assert_int_eq(arc[MON_ARC_FROM], (long)other);
	arc_total = 0;
	__mon_arcs_each(sum_arcs, from);
	ck_assert_int_eq(arc_total, 2);
	arc_total = 0;
	__mon_arcs_each(sum_arcs, other);
	ck_assert_int_eq(arc_total, 1);
}
END_TEST

/*
 * Hook ABI 6: -fPIC code's -p stub is told its word's offset in the
 * thread's area; the thread's first call maps the area, and the word
 * there gets the counter.  An offset in the scratch (a unit not
 * registered) is counted, its word left 0.
 */
START_TEST(test_area_stub_preserves_registers)
{
	static long base;
	static struct cnt *cell, *cell2;
	long off, **w;

	__mon_area_add(&base, 4);
	ck_assert_int_ge(base, MON_AREA_SCRATCH);
	off = base + 2 * (long)sizeof(long);
	ck_assert_ptr_null(__mon_area_mine);
	ck_assert_int_eq(clobbered_by(__mon_mcount_area_stub, (void *)off,
	    &cell, NULL), 0);
	ck_assert_ptr_nonnull(__mon_area_mine);
	w = (long **)(__mon_area_mine + off);
	ck_assert_ptr_nonnull(*w);
	ck_assert_int_eq(**w, 1);
	ck_assert_int_eq(clobbered_by(__mon_mcount_area_stub, (void *)16,
	    &cell2, NULL), 0);
	ck_assert_ptr_nonnull(cell2);
	ck_assert_int_eq(*(long *)(__mon_area_mine + 16), 0);
	__mon_cells_fold();
	ck_assert_int_eq(cell->mcnt, 1);
	ck_assert_int_eq(cell2->mcnt, 1);
}
END_TEST

/*
 * The -pg stub of -fPIC code: the arc goes into the word at the pushed
 * offset of the area (mapped at the first call), or nowhere for an
 * offset in the scratch; the announced site above it as for ABI 5.
 */
START_TEST(test_arc_area_stub_preserves_registers)
{
	static long base;
	static struct cnt *cell;
	void *from = (void *)0x4000, *other = (void *)0x5000;
	long off, **w;

	__mon_area_add(&base, 1);
	off = base;
	ck_assert_ptr_null(__mon_area_mine);
	ck_assert_int_eq(clobbered_by2(__mon_mcount_arc_area_stub, &cell,
	    from, (void *)off, NULL), 0);
	ck_assert_ptr_nonnull(__mon_area_mine);
	w = (long **)(__mon_area_mine + off);
	ck_assert_ptr_nonnull(*w);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)from);
	ck_assert_int_eq((*w)[MON_ARC_COUNT], 1);
	ck_assert_int_eq(clobbered_by2(__mon_mcount_arc_area_stub, &cell,
	    other, (void *)24, NULL), 0);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)from);
	ck_assert_int_eq(*(long *)(__mon_area_mine + 24), 0);
	ck_assert_int_eq(clobbered_by2(__mon_mcount_arc_area_stub, &cell,
	    other, (void *)off, NULL), 0);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)other);
	ck_assert_int_eq((*w)[MON_ARC_COUNT], 2);
	arc_total = 0;
	__mon_arcs_each(sum_arcs, other);
	ck_assert_int_eq(arc_total, 2);
}
END_TEST

static Suite *
stub_suite(void)
{
	Suite *s = suite_create("stub");
	TCase *tc = unit_hook_tcase(s, "registers");

	tcase_add_test(tc, test_mcount_stub_preserves_registers);
	tcase_add_test(tc, test_arc_stub_preserves_registers);
	tcase_add_test(tc, test_area_stub_preserves_registers);
	tcase_add_test(tc, test_arc_area_stub_preserves_registers);
	return s;
}

UNIT_SUITE(stub_suite)

#endif
