/* SPDX-License-Identifier: MIT */
/*
 * check_cells.c - the hook's slow path and cell growth (runtime/mcount.c,
 * runtime/cells.c, runtime/arena.c): 100,000 functions, exact counts, linear memory,
 * per-thread counters summed exactly.
 */
#include <pthread.h>
#include <stdlib.h>

#include "control.h"
#include "unit.h"
#include "../tools/hooks.h"

#define NFN	100000

static long *words[NFN];
static struct cnt *cellp[NFN];

/* A call of function i. */
static void
call(int i)
{
	mon_hook_count(&words[i], &cellp[i]);
}

START_TEST(test_growth_to_100000_cells)
{
	size_t bytes;
	int i, k;

	for (i = 0; i < NFN; i++)
		for (k = 0; k <= i % 7; k++)
			call(i);
	ck_assert_uint_eq(__mon_cells_fold(), NFN);
	for (i = 0; i < NFN; i++) {
		ck_assert_ptr_nonnull(cellp[i]);
		ck_assert_int_eq(cellp[i]->mcnt, i % 7 + 1);
		if (i > 0)
			ck_assert_ptr_ne(cellp[i], cellp[i - 1]);
	}
	/* 16 B a cell + 32 B a counter, plus at most a chunk each. */
	bytes = __mon_cells_mapped();
	ck_assert_uint_le(bytes, (size_t)NFN * 48 + 2 * 65536);
}
END_TEST

static __thread long *tword;
static struct cnt *tcell;

static void *
thr(void *arg)
{
	long i;

	for (i = 0; i < (long)(intptr_t)arg; i++)
		mon_hook_count(&tword, &tcell);
	return NULL;
}

START_TEST(test_threads_count_exactly)
{
	pthread_t t[8];
	int i;

	for (i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, thr, (void *)(intptr_t)250000);
	for (i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	__mon_cells_fold();
	ck_assert_int_eq(tcell->mcnt, 2000000);
	ck_assert_int_eq(__mon_cells_threads(), 8);
}
END_TEST

START_TEST(test_moncontrol_excludes_calls_while_off)
{
	int i;

	call(0);
	call(1);
	__mon_cells_control(0);
	__mon_mode_set(0);
	call(0);
	call(2);		/* first call while off */
	__mon_cells_fold();
	ck_assert_int_eq(cellp[0]->mcnt, 1);
	ck_assert_int_eq(cellp[2]->mcnt, 0);
	__mon_mode_set(1);
	__mon_cells_control(1);
	for (i = 0; i < 3; i++)
		call(2);
	__mon_cells_fold();
	ck_assert_int_eq(cellp[0]->mcnt, 1);
	ck_assert_int_eq(cellp[1]->mcnt, 1);
	ck_assert_int_eq(cellp[2]->mcnt, 3);
	__mon_cells_zero();
	call(1);
	__mon_cells_fold();
	ck_assert_int_eq(cellp[1]->mcnt, 1);
	ck_assert_int_eq(cellp[2]->mcnt, 0);
}
END_TEST

START_TEST(test_disabled_counts_nothing)
{
	__mon_mcount_disable(1);
	call(5);
	call(5);
	ck_assert_ptr_null(cellp[5]);
	ck_assert_ptr_nonnull(words[5]);
	ck_assert_uint_eq(__mon_cells_fold(), 0);
}
END_TEST

static void *
sink_of_thread(void *arg)
{
	long *w = NULL, *w2 = NULL;

	__mon_mcount_slow(&w, &cellp[6]);
	__mon_mcount_slow(&w2, &cellp[7]);
	ck_assert_ptr_ne(w, w2);	/* not one chain of increments */
	*(long **)arg = w;
	return NULL;
}

/*
 * Off (PROFDIR empty), each thread counts into lines of its own, and
 * two functions into two words: a shared sink made 4 threads 3x slower
 * than with profiling on, one word per thread 2x.
 */
START_TEST(test_disabled_threads_do_not_share_a_line)
{
	pthread_t t[4];
	long *w[4];
	int i, j;

	__mon_mcount_disable(1);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, sink_of_thread,
		    &w[i]), 0);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++)
		for (j = 0; j < i; j++)
			ck_assert_uint_ge((uintptr_t)labs(
			    (char *)w[i] - (char *)w[j]), 64);
	ck_assert_ptr_null(cellp[6]);
}
END_TEST

static Suite *
cells_suite(void)
{
	Suite *s = suite_create("cells");
	TCase *tc = unit_hook_tcase(s, "growth");

	tcase_add_test(tc, test_growth_to_100000_cells);
	tcase_add_test(tc, test_threads_count_exactly);
	tcase_add_test(tc, test_moncontrol_excludes_calls_while_off);
	tcase_add_test(tc, test_disabled_counts_nothing);
	tcase_add_test(tc, test_disabled_threads_do_not_share_a_line);
	return s;
}

UNIT_SUITE(cells_suite)
