/* SPDX-License-Identifier: MIT */
/*
 * check_cells.c - the hook's slow path and cell growth (runtime/mcount.c,
 * runtime/cells.c, runtime/arena.c): 100,000 functions, exact counts, linear memory,
 * per-thread counters summed exactly, and the slots of threads that have
 * ended counted on by those that start later.
 */
#include <sys/syscall.h>
#include <sys/wait.h>

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

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

/*
 * Thread churn: each thread calls NCHURN functions through thread-local
 * words; a thread that starts once the one before has gone adopts its
 * set of slots and counts on in it.
 */
#define NCHURN	64

static __thread long *cword[NCHURN];
static struct cnt *ccell[NCHURN];

struct churn {
	int	 calls;		/* of each function: calls * (i % 3 + 1) */
	long	*slot0;		/* out: function 0's slot */
	long	 tid;		/* out */
};

static void *
churner(void *arg)
{
	struct churn *c = arg;
	int i, k;

	for (i = 0; i < NCHURN; i++)
		for (k = 0; k < c->calls * (i % 3 + 1); k++)
			mon_hook_count(&cword[i], &ccell[i]);
	c->slot0 = cword[0];
	c->tid = syscall(SYS_gettid);
	return NULL;
}

/* Run one churner to its end, and until its thread has gone. */
static void
churn_one(struct churn *c)
{
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, churner, c), 0);
	pthread_join(t, NULL);
	while (syscall(SYS_tkill, c->tid, 0) == 0)
		usleep(100);
}

START_TEST(test_ended_threads_slots_are_reused)
{
	struct churn c = { 1, NULL, 0 };
	long *first;
	size_t bytes;
	int i;

	churn_one(&c);
	first = c.slot0;
	bytes = __mon_cells_mapped();
	for (i = 1; i < 300; i++) {
		churn_one(&c);
		ck_assert_ptr_eq(c.slot0, first);	/* adopted */
	}
	/* One set all along, and its index since the first adoption. */
	ck_assert_uint_le(__mon_cells_mapped(), bytes + 4096);
	__mon_cells_fold();
	for (i = 0; i < NCHURN; i++)
		ck_assert_int_eq(ccell[i]->mcnt, 300 * (i % 3 + 1));
	ck_assert_int_eq(__mon_cells_threads(), 300);
}
END_TEST

/* moncontrol's tallies travel with the set: calls made off stay out. */
START_TEST(test_adopted_slots_keep_moncontrol)
{
	struct churn c = { 2, NULL, 0 };

	churn_one(&c);
	__mon_cells_control(0);
	__mon_mode_set(0);
	c.calls = 3;
	churn_one(&c);			/* off: excluded */
	__mon_cells_fold();
	ck_assert_int_eq(ccell[0]->mcnt, 2);
	__mon_mode_set(1);
	__mon_cells_control(1);
	c.calls = 1;
	churn_one(&c);
	__mon_cells_fold();
	ck_assert_int_eq(ccell[0]->mcnt, 3);
	ck_assert_int_eq(ccell[2]->mcnt, 9);
}
END_TEST

static volatile int churning;

/* The writer's sums while threads come and go: never down, never over. */
static void *
folder(void *arg)
{
	long last = 0, now;

	(void)arg;
	while (churning) {
		__mon_cells_fold();
		now = ccell[5] != NULL ? ccell[5]->mcnt : 0;
		ck_assert_int_ge(now, last);
		ck_assert_int_le(now, 3 * 2000);
		last = now;
	}
	return NULL;
}

static void *
churn_many(void *arg)
{
	struct churn c[4] = { { 1, NULL, 0 }, { 1, NULL, 0 }, { 1, NULL, 0 },
	    { 1, NULL, 0 } };
	pthread_t t[4];
	int i, j;

	(void)arg;
	for (i = 0; i < 2000; i += 4) {
		for (j = 0; j < 4; j++)
			pthread_create(&t[j], NULL, churner, &c[j]);
		for (j = 0; j < 4; j++)
			pthread_join(t[j], NULL);
	}
	return NULL;
}

START_TEST(test_fold_during_churn_is_exact)
{
	pthread_t w, m;

	churning = 1;
	ck_assert_int_eq(pthread_create(&w, NULL, folder, NULL), 0);
	ck_assert_int_eq(pthread_create(&m, NULL, churn_many, NULL), 0);
	pthread_join(m, NULL);
	churning = 0;
	pthread_join(w, NULL);
	__mon_cells_fold();
	ck_assert_int_eq(ccell[5]->mcnt, 3 * 2000);
	ck_assert_int_eq(__mon_cells_threads(), 2000);
	/* A few sets for 4 threads at a time (and those still exiting). */
	ck_assert_uint_lt(__mon_cells_mapped(), 64 * 1024 + 40 * 8192);
}
END_TEST

static int hold_fd[2];

static void *
holder(void *arg)
{
	char b;

	churner(arg);
	return (void *)(intptr_t)read(hold_fd[0], &b, 1);
}

/*
 * A fork child has only the thread that forked: the sets of the others
 * are free for its new threads.
 */
START_TEST(test_fork_child_frees_the_sets_of_threads_left)
{
	struct churn held = { 1, NULL, 0 }, c = { 1, NULL, 0 };
	pthread_t t;
	pid_t pid;
	int st;

	ck_assert_int_eq(pipe(hold_fd), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, holder, &held), 0);
	while (MON_LOAD(&held.tid) == 0)
		usleep(100);
	if ((pid = fork()) == 0) {
		__mon_cells_reset();
		churn_one(&c);
		__mon_cells_fold();
		_exit(c.slot0 == held.slot0 && ccell[1]->mcnt == 2 ? 0 : 1);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ck_assert_int_eq(write(hold_fd[1], "", 1), 1);
	pthread_join(t, NULL);
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
	tcase_add_test(tc, test_ended_threads_slots_are_reused);
	tcase_add_test(tc, test_adopted_slots_keep_moncontrol);
	tcase_add_test(tc, test_fold_during_churn_is_exact);
	tcase_add_test(tc, test_fork_child_frees_the_sets_of_threads_left);
	return s;
}

UNIT_SUITE(cells_suite)
