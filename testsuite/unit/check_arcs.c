/* SPDX-License-Identifier: MIT */
/*
 * check_arcs.c - the -pg hook's arc tables (runtime/arcs.c, mcount.c): growth to
 * 100,000 arcs with exact counts, cells summed from their arcs, threads,
 * moncontrol(0), zeroing, a signal handler counting while its thread
 * grows its table, and the tables of threads that have ended counted on
 * by those that start later.  Each test runs each way a call is counted: the C
 * hook, and the plugin's inline arc cache before the C hook or the
 * x86-64 stub.
 */
#include <sys/syscall.h>
#include <sys/time.h>

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control.h"
#include "unit.h"

#define NARC	100000
#define NCELL	1000
#define FROM(i)	((void *)(uintptr_t)(0x10000 + (uintptr_t)(i) * 16))
#define INDEX(from) (((from) - 0x10000) / 16)

#ifdef __x86_64__
void	__mon_mcount_arc_rec_stub(void);

/* Hook ABI 5: records of call sites, whose words the runtime keeps. */
extern __thread long __mon_site_bias;
static long recs[64] __attribute__((__section__(MON_SITES_SECTION)));

/* A shared object's records and the offset of its mod in the areas. */
static long orecs[16];
static long omodoff;	/* the object's __mon_site_modoff (hook ABI 6) */

/* This thread's mod of the object: a word of its area, 0 without one. */
static long
omod(void)
{
	return __mon_area_mine == NULL || omodoff == 0 ? 0 :
	    *(long *)(__mon_area_mine + omodoff);
}

/* The stub NAME (mon_abi.h), told the announced site's record w. */
#define ARC_SITE_STUB(fn, name)						\
static void								\
fn(struct cnt **cellp, void *from, long **cache, long **w)		\
{									\
	__asm__ volatile(						\
	    "mov	%1, %%r11\n\t"					\
	    "lea	-128(%%rsp), %%rsp\n\t"				\
	    "push	%3\n\t"						\
	    "push	%2\n\t"						\
	    "call	" name "\n\t"					\
	    "lea	144(%%rsp), %%rsp"					\
	    : : "a" (cellp), "r" (from), "r" (cache), "r" (w)		\
	    : "memory", "cc", "r11");					\
}
ARC_SITE_STUB(arc_rec_stub, "__mon_mcount_arc_rec_stub")

/* The stub with no site announced. */
static void
arc_stub(struct cnt **cellp, void *from, long **cache, long **w)
{
	(void)w;
	arc_rec_stub(cellp, from, cache, NULL);
}
#endif

static void
arc_cache(struct cnt **cellp, void *from, long **cache, long **w)
{
	(void)w;
	__mon_mcount_arc_cache(cellp, from, cache);
}

/*
 * The ways a call is counted: the C hook without a cache, and what the
 * plugin inlines (the function's arc cache) before the C hook or, on
 * x86-64, the stub; and the cache and then the word of the site the
 * caller announced: here one of 64 records, which many arcs share, as
 * an announcement meant for another call would be; its word is the
 * runtime's.
 */
static const struct entry {
	void	(*hook)(struct cnt **, void *, long **, long **);
	int	 cached;
	int	 announced;	/* the caller announced its site */
} entries[] = {
	{ arc_cache, 0, 0 },
	{ arc_cache, 1, 0 },
#ifdef __x86_64__
	{ arc_stub, 1, 0 },
	{ arc_rec_stub, 1, 1 },
#endif
};
#define NENTRY	((int)(sizeof(entries) / sizeof(entries[0])))

/* The way the running test uses: entries[_i]. */
static const struct entry *entry;

static struct cnt *cells[NCELL];
static __thread long *cache[NCELL];

/* A call of function (cell) c from from. */
static void
call(int c, void *from)
{
	long *p = entry->cached ? cache[c] : NULL, *q, **w = NULL, **a = NULL;
	int i = INDEX((uintptr_t)from) % 64;

#ifdef __x86_64__
	if (entry->announced) {
		a = (long **)&recs[i];
		w = (long **)((char *)&recs[i] + __mon_site_bias);
	}
#endif
	if (p != NULL && p[MON_ARC_FROM] == (long)(uintptr_t)from)
		p[MON_ARC_COUNT] += 1;
	else if (w != NULL && (q = *w) != NULL &&
	    q[MON_ARC_FROM] == (long)(uintptr_t)from &&
	    q[MON_ARC_CELL] == (long)(uintptr_t)cells[c])
		q[MON_ARC_COUNT] += 1;
	else
		entry->hook(&cells[c], from, entry->cached ? &cache[c] : NULL,
		    a);
}

static long got[NARC + 1];

static void
collect(uintptr_t from, struct cnt *cell, long n, void *arg)
{
	(void)cell;
	(void)arg;
	if (from >= 0x10000 && INDEX(from) <= NARC)
		got[INDEX(from)] += n;
}

static void
gather(void)
{
	memset(got, 0, sizeof(got));
	__mon_arcs_each(collect, NULL);
}

/* Arc i: from FROM(i) into cell i % NCELL, called i % 5 + 1 times. */
START_TEST(test_growth_to_100000_arcs_exact)
{
	long total = 0;
	int i, k;

	entry = &entries[_i];
	for (i = 0; i < NARC; i++)
		for (k = 0; k <= i % 5; k++)
			call(i % NCELL, FROM(i));
	gather();
	for (i = 0; i < NARC; i++) {
		ck_assert_int_eq(got[i], i % 5 + 1);
		total += got[i];
	}
	ck_assert_int_eq(total, NARC / 5 * 15);
	ck_assert_int_eq(__mon_arcs_lost(), 0);
	ck_assert_int_eq(__mon_arcs_used(), 1);
	/* A cell's count is the sum of its incoming arcs. */
	ck_assert_uint_eq(__mon_cells_fold(), NCELL);
	__mon_arcs_fold();
	for (i = 0; i < NCELL; i++)
		ck_assert_int_eq(cells[i]->mcnt, NARC / NCELL * (i % 5 + 1));
}
END_TEST

static void *
worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 400000; i++)
		call(i % 700, FROM(i % 3000));
	return NULL;
}

START_TEST(test_threads_count_exactly)
{
	entry = &entries[_i];
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker, NULL), 0);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	gather();
	/* i % 3000 and i % 700 repeat every 21000 calls: 2100 arcs. */
	for (i = 0; i < 3000; i++)
		ck_assert_int_eq(got[i], 4 * (400000 / 3000 +
		    (i < 400000 % 3000)));
	ck_assert_uint_eq(__mon_cells_fold(), 700);
	__mon_arcs_fold();
	ck_assert_int_eq(cells[0]->mcnt, 4 * (400000 / 700 + 1));
}
END_TEST

START_TEST(test_moncontrol_off_counts_nothing)
{
	entry = &entries[_i];
	call(0, FROM(1));
	call(0, FROM(1));
	__mon_arcs_control(0);
	__mon_mode_set(0);
	call(0, FROM(1));
	call(1, FROM(2));
	gather();
	ck_assert_int_eq(got[1], 2);	/* the writer while off */
	ck_assert_int_eq(got[2], 0);
	__mon_arcs_control(1);
	__mon_mode_set(1);
	call(0, FROM(1));
	call(1, FROM(2));
	gather();
	ck_assert_int_eq(got[1], 3);
	ck_assert_int_eq(got[2], 1);
}
END_TEST

START_TEST(test_zero_starts_from_nothing)
{
	int i;

	entry = &entries[_i];
	for (i = 0; i < 5000; i++)
		call(i % 10, FROM(i % 2000));
	__mon_arcs_zero();
	gather();
	for (i = 0; i < 2000; i++)
		ck_assert_int_eq(got[i], 0);
	call(7, FROM(7));
	gather();
	ck_assert_int_eq(got[7], 1);
	__mon_arcs_reset();
	gather();
	ck_assert_int_eq(got[7], 0);
}
END_TEST

/*
 * Off (PROFDIR empty), arcs are counted and cached as when on (nothing
 * is written): otherwise every call would reach the hook.
 */
START_TEST(test_disabled_caches_arcs)
{
	entry = &entries[_i];
	__mon_mcount_disable(1);
	call(3, FROM(3));
	call(3, FROM(3));
	if (entry->cached)
		ck_assert_ptr_nonnull(cache[3]);
	gather();
	ck_assert_int_eq(got[3], 2);
}
END_TEST

#ifdef __x86_64__
/*
 * Hook ABI 5: the stub leaves the arc in this thread's word of the
 * announced record, at __mon_site_bias from it, never in the record;
 * and in the cache alone when no site was announced.
 */
START_TEST(test_site_record_word_gets_the_arc)
{
	long *c = NULL, **w;
	int i;

	arc_rec_stub(&cells[5], FROM(5), &c, (long **)&recs[7]);
	ck_assert_int_ne(__mon_site_bias, 0);
	w = (long **)((char *)&recs[7] + __mon_site_bias);
	ck_assert_ptr_nonnull(*w);
	ck_assert_ptr_eq(*w, c);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)(uintptr_t)FROM(5));
	ck_assert_int_eq((*w)[MON_ARC_CELL], (long)(uintptr_t)cells[5]);
	arc_rec_stub(&cells[6], FROM(6), &c, NULL);
	ck_assert_int_eq(c[MON_ARC_FROM], (long)(uintptr_t)FROM(6));
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)(uintptr_t)FROM(5));
	for (i = 0; i < 64; i++)
		ck_assert_int_eq(recs[i], 0);
	gather();
	ck_assert_int_eq(got[5], 1);
	ck_assert_int_eq(got[6], 1);
}
END_TEST

/*
 * Hook ABI 5 in a shared object: once registered, the object's mod (a
 * word of the thread's area, hook ABI 6) is set where the entry's read, at __mon_site_bias from &rec + mod, finds
 * this thread's word of rec, and the stub leaves the arc there, never
 * in the records.  Unregistered (dlclose), its block goes at the next
 * look; registered again, it gets a new one; at the thread's end
 * (-threads) the mod goes back to 0 and every block is unmapped.
 */
START_TEST(test_object_word_gets_the_arc)
{
	long *c = NULL, **w;
	size_t mapped;
	int i;

	__mon_sites_add(orecs, orecs + 16, &omodoff);
	ck_assert_int_ge(omodoff, MON_AREA_SCRATCH);
	ck_assert_int_eq(omod(), 0);
	arc_rec_stub(&cells[1], FROM(1), &c, NULL);
	ck_assert_int_ne(omod(), 0);
	w = (long **)((char *)&orecs[3] + omod() + __mon_site_bias);
	ck_assert_ptr_null(*w);
	arc_rec_stub(&cells[5], FROM(5), &c,
	    (long **)((char *)&orecs[3] + omod()));
	ck_assert_ptr_eq(*w, c);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)(uintptr_t)FROM(5));
	for (i = 0; i < 16; i++)
		ck_assert_int_eq(orecs[i], 0);

	/*
	 * Gone: its block stays (the object's own later destructors, or
	 * other threads while the process exits, still announce through
	 * the mod, which may no longer be written), the word still read;
	 * back: a new block in its place, as many bytes as before.
	 */
	mapped = __mon_sites_mapped();
	__mon_sites_del(orecs);
	arc_rec_stub(&cells[6], FROM(6), &c, NULL);
	ck_assert_uint_eq(__mon_sites_mapped(), mapped);
	ck_assert_int_eq((*w)[MON_ARC_FROM], (long)(uintptr_t)FROM(5));
	omodoff = 0;		/* reloaded: its .bss is new */
	__mon_sites_add(orecs, orecs + 16, &omodoff);
	arc_rec_stub(&cells[7], FROM(7), &c, NULL);
	ck_assert_uint_eq(__mon_sites_mapped(), mapped);
	w = (long **)((char *)&orecs[3] + omod() + __mon_site_bias);
	ck_assert_ptr_null(*w);

	/* A record not announced through mod: nothing stored. */
	arc_rec_stub(&cells[8], FROM(8), &c, (long **)&orecs[4]);
	ck_assert_int_eq(orecs[4], 0);

	__mon_arcs_keep(0);
	ck_assert_int_eq(omod(), 0);
	ck_assert_int_eq(__mon_site_bias, 0);
	ck_assert_uint_eq(__mon_sites_mapped(), 0);
	gather();
	for (i = 5; i <= 8; i++)
		ck_assert_int_eq(got[i], 1);
}
END_TEST
#endif

static volatile long handled;

static void
on_alarm(int sig)
{
	(void)sig;
	call(NCELL - 1, FROM(NARC));
	handled++;
}

/*
 * A timer signal counts an arc while the thread inserts 100,000 new
 * ones (growing its table many times): not one count lost or doubled,
 * whether the handler lands in the fast path, an insertion or a grow.
 */
START_TEST(test_signal_during_growth_is_exact)
{
	struct itimerval it = { { 0, 50 }, { 0, 50 } };
	struct sigaction sa;
	int i, round;

	entry = &entries[_i];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	ck_assert_int_eq(sigaction(SIGALRM, &sa, NULL), 0);
	ck_assert_int_eq(setitimer(ITIMER_REAL, &it, NULL), 0);
	for (round = 0; round < 3; round++)
		for (i = 0; i < NARC; i++)
			call(i % (NCELL - 1), FROM(i));
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	gather();
	ck_assert_int_gt(handled, 0);
	ck_assert_int_eq(got[NARC], handled);
	for (i = 0; i < NARC; i++)
		ck_assert_int_eq(got[i], 3);
}
END_TEST

struct churn {
	struct __mon_arctab *tab;	/* out: the thread's table */
	long		 tid;
};

/* 100 arcs into 10 functions, each arc called i % 4 + 1 times. */
static void *
churner(void *arg)
{
	struct churn *c = arg;
	int i, k;

	for (i = 0; i < 100; i++)
		for (k = 0; k <= i % 4; k++)
			call(i % 10, FROM(i));
	c->tab = __mon_arcs_mine.tab;
	c->tid = syscall(SYS_gettid);
	return NULL;
}

/*
 * A thread that starts once the one before has gone counts on in its
 * table: 300 threads, one table, every count exact.
 */
START_TEST(test_ended_threads_tables_are_reused)
{
	struct __mon_arctab *first = NULL;
	struct churn c;
	pthread_t t;
	size_t bytes = 0;
	int i, n;

	entry = &entries[_i];
	for (n = 0; n < 300; n++) {
		ck_assert_int_eq(pthread_create(&t, NULL, churner, &c), 0);
		pthread_join(t, NULL);
		while (syscall(SYS_tkill, c.tid, 0) == 0)
			usleep(100);
		if (n == 0) {
			first = c.tab;
			bytes = __mon_arcs_mapped();
		}
		ck_assert_ptr_eq(c.tab, first);
	}
	ck_assert_uint_eq(__mon_arcs_mapped(), bytes);
	gather();
	for (i = 0; i < 100; i++)
		ck_assert_int_eq(got[i], 300 * (i % 4 + 1));
	ck_assert_uint_eq(__mon_cells_fold(), 10);
	__mon_arcs_fold();
	/* Arcs 3, 13, ..., 93: 4 and 2 calls in turn. */
	ck_assert_int_eq(cells[3]->mcnt, 300 * 5 * (4 + 2));
	ck_assert_int_eq(__mon_cells_threads(), 300);
}
END_TEST

static Suite *
arcs_suite(void)
{
	Suite *s = suite_create("arcs");
	TCase *tc = unit_hook_tcase(s, "tables");

	tcase_add_loop_test(tc, test_growth_to_100000_arcs_exact, 0, NENTRY);
	tcase_add_loop_test(tc, test_threads_count_exactly, 0, NENTRY);
	tcase_add_loop_test(tc, test_moncontrol_off_counts_nothing, 0, NENTRY);
	tcase_add_loop_test(tc, test_zero_starts_from_nothing, 0, NENTRY);
	tcase_add_loop_test(tc, test_disabled_caches_arcs, 0, NENTRY);
	tcase_add_loop_test(tc, test_signal_during_growth_is_exact, 0, NENTRY);
	tcase_add_loop_test(tc, test_ended_threads_tables_are_reused, 0, NENTRY);
#ifdef __x86_64__
	tcase_add_test(tc, test_site_record_word_gets_the_arc);
	tcase_add_test(tc, test_object_word_gets_the_arc);
#endif
	return s;
}

UNIT_SUITE(arcs_suite)
