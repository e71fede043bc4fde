/* SPDX-License-Identifier: MIT */
/*
 * check_area.c - each thread's area of words (runtime/area.c, hook ABI
 * 6): units get offsets past the scratch, never twice and never past
 * the area; a word is found only at a unit's offset; a thread that
 * adopts the area of one gone finds every word zero again.
 */
#include <sys/syscall.h>

#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
#include "unit.h"

START_TEST(test_units_get_their_own_words)
{
	long a = 0, b = 0, c = 0, big = 0, twice;

	__mon_area_add(&a, 10);
	__mon_area_add(&b, 1);
	ck_assert_int_ge(a, MON_AREA_SCRATCH);
	ck_assert_int_eq(b, a + 10 * (long)sizeof(long));
	/* Registered once: a second constructor keeps its words. */
	twice = a;
	__mon_area_add(&a, 10);
	ck_assert_int_eq(a, twice);
	/* Refused: no words, too many for one unit, past the area. */
	__mon_area_add(&c, 0);
	ck_assert_int_eq(c, 0);
	__mon_area_add(&c, MON_AREA_UNIT_MAX + 1);
	ck_assert_int_eq(c, 0);
	__mon_area_add(&big, MON_AREA_UNIT_MAX);
	ck_assert_int_ne(big, 0);
	while (c == 0 && big != 0) {
		big = 0;
		__mon_area_add(&big, MON_AREA_UNIT_MAX);
		ck_assert_int_le(big, MON_AREA_LEN - MON_AREA_SCRATCH);
		if (big == 0)
			break;
	}
	ck_assert_int_eq(big, 0);
	c = 0;
	__mon_area_add(&c, MON_AREA_UNIT_MAX);
	ck_assert_int_eq(c, 0);
}
END_TEST

START_TEST(test_words_only_at_offsets)
{
	long base = 0;

	__mon_area_add(&base, 2);
	ck_assert_ptr_null(__mon_area_word(0));
	ck_assert_ptr_null(__mon_area_word(MON_AREA_SCRATCH - 8));
	ck_assert_ptr_null(__mon_area_word(base + 4));
	ck_assert_ptr_null(__mon_area_word(MON_AREA_LEN));
	ck_assert_ptr_null(__mon_area_word(-8));
	ck_assert_ptr_eq(__mon_area_word(base + 8),
	    (long **)(__mon_area_mine + base + 8));
}
END_TEST

static long unit_base;
static char *first;
static long first_tid;

static void *
set_word(void *arg)
{
	long **w = __mon_area_word(unit_base);

	(void)arg;
	if (w != NULL)
		*w = (long *)&unit_base;
	first = __mon_area_mine;
	first_tid = syscall(SYS_gettid);
	return NULL;
}

struct seen {
	char	*area;
	long	*word;
};

static void *
read_word(void *arg)
{
	struct seen *s = arg;
	long **w = __mon_area_word(unit_base);

	s->area = __mon_area_mine;
	s->word = w != NULL ? *w : (long *)&unit_base;
	return NULL;
}

START_TEST(test_adopted_area_is_zeroed)
{
	struct timespec ms = { 0, 1000000 };
	struct seen s;
	pthread_t t;
	int i;

	__mon_area_add(&unit_base, 1);
	ck_assert_int_eq(pthread_create(&t, NULL, set_word, NULL), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_ptr_nonnull(first);
	/* Adopted once the thread has gone from the system (at most 10 s). */
	for (i = 0; i < 10000 &&
	    syscall(SYS_tgkill, getpid(), first_tid, 0) == 0; i++)
		nanosleep(&ms, NULL);
	ck_assert_int_eq(pthread_create(&t, NULL, read_word, &s), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_ptr_eq(s.area, first);
	ck_assert_ptr_null(s.word);
}
END_TEST

static Suite *
area_suite(void)
{
	Suite *s = suite_create("area");
	TCase *tc = unit_hook_tcase(s, "words");

	tcase_add_test(tc, test_units_get_their_own_words);
	tcase_add_test(tc, test_words_only_at_offsets);
	tcase_add_test(tc, test_adopted_area_is_zeroed);
	return s;
}

UNIT_SUITE(area_suite)
