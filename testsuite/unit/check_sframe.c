/* SPDX-License-Identifier: MIT */
/*
 * check_sframe.c - objects learnt without the loader's lock
 * (runtime/sframe.c), as the perf helper does where it is no thread of
 * glibc's: a learner thread learns a module that no scan has seen when
 * a lookup meets its code, other threads see the entry it published,
 * and the lock-free scan retires it once dlclose() has unloaded the
 * module; an address in no object is learnt as nothing.
 */
#include <sys/mman.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

#include "sampler.h"
#include "unit.h"

/* A module of the C library's that this program does not load. */
#define MODULE		"libBrokenLocale.so.1"
#define FUNCTION	"__ctype_get_mb_cur_max"

struct seen {
	uintptr_t	 pc;
	int		 object;	/* __mon_sframe_object(pc) */
	int		 found;		/* __mon_sframe_find(pc) */
	struct __mon_sframe_rule rule;
};

/* What a learner thread sees of s->pc. */
static void *
learner(void *arg)
{
	struct seen *s = arg;

	__mon_sframe_learner();
	s->object = __mon_sframe_object(s->pc);
	s->found = __mon_sframe_find(s->pc, &s->rule);
	return NULL;
}

static struct seen
learn(uintptr_t pc)
{
	struct seen s = { .pc = pc, .object = -2, .found = -2 };
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, learner, &s), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	return s;
}

START_TEST(test_learnt_then_retired)
{
	void *h = dlopen(MODULE, RTLD_NOW | RTLD_LOCAL);
	struct seen s;
	uintptr_t pc;

	ck_assert_msg(h != NULL, "dlopen %s: %s", MODULE, dlerror());
	pc = (uintptr_t)dlsym(h, FUNCTION);
	ck_assert(pc != 0);
	/* No scan has seen it, and this thread does not learn. */
	ck_assert_int_eq(__mon_sframe_object(pc), -1);
	s = learn(pc);
	ck_assert_int_ge(s.object, 0);
	/* At a function's first byte: the CFA is SP + 8, FP not saved. */
	ck_assert_int_eq(s.found, 0);
	ck_assert_int_eq(s.rule.sp_based, 1);
	ck_assert_int_eq(s.rule.cfa, 8);
	ck_assert_int_eq(s.rule.fp_saved, 0);
	/* Published for every thread. */
	ck_assert_int_eq(__mon_sframe_object(pc), s.object);
	__mon_sframe_scan_lockfree();
	ck_assert_int_eq(__mon_sframe_object(pc), s.object);
	ck_assert_int_eq(dlclose(h), 0);
	__mon_sframe_scan_lockfree();
	ck_assert_int_eq(__mon_sframe_object(pc), -1);
	/* Gone: nothing to learn there. */
	s = learn(pc);
	ck_assert_int_eq(s.object, -1);
	ck_assert_int_eq(s.found, -1);
}
END_TEST

START_TEST(test_no_object)
{
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct seen s;

	ck_assert(m != MAP_FAILED);
	s = learn((uintptr_t)m + 16);
	ck_assert_int_eq(s.object, -1);
	ck_assert_int_eq(s.found, -1);
	munmap(m, 4096);
}
END_TEST

static Suite *
sframe_suite(void)
{
	Suite *s = suite_create("sframe");
	TCase *tc = tcase_create("lockfree");

	if (!__mon_sframe_lockfree())
		return s;
	tcase_add_test(tc, test_learnt_then_retired);
	tcase_add_test(tc, test_no_object);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_SUITE(sframe_suite)
