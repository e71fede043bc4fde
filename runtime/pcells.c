/* SPDX-License-Identifier: MIT */
/*
 * pcells.c - the executable's thread-local counters (hook ABI 3, mon.h):
 * each -p function of the executable counts in a __thread long of its
 * own with one instruction, at the same offset (tpoff) from every
 * thread's pointer, and names it in a record of section __mon_pcells.
 * A function's count is the sum over threads of its counter.
 *
 * The runtime knows a thread by a lease (arena.c) it takes as it starts
 * (thread.c, init.c): the thread pointer, and per function a tally whose
 * count is what the lease's earlier holders counted.  A thread's count
 * of function i is tally.count + its counter, read through the pointer
 * while the thread lives; as it ends (each round of its key destructors)
 * it adds its counters into the tallies and zeroes them, so that the
 * lease, handed on whole to a later thread, keeps them.  A seqlock
 * makes that move look whole to a writer, and a reader count keeps the
 * thread from leaving (its TLS freed or reused) while one reads it.
 *
 * Threads the runtime does not see start (not through pthread_create,
 * thrd_create or a SIGEV_THREAD notification of the program's: glibc's
 * other helper threads, raw clone) count in their TLS, which nothing
 * reads: lost (README, "Limitations").
 *
 * Async-signal-safe: atomics and mmap only, errno kept.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <unistd.h>

#include "storage.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

extern const struct mon_pcell __start___mon_pcells[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const struct mon_pcell __stop___mon_pcells[]
    __attribute__((__weak__, __visibility__("hidden")));

/* A lease's data: a thread and its tallies, one per record. */
struct pthr {
	char		*tp;		/* its thread pointer; NULL: none */
	long		 seq;		/* odd while its counters move */
	long		 readers;	/* writers reading its TLS */
	int		 gone;		/* its TLS is no longer read */
	struct __mon_tally t[];
};

static void ending(void *, int);

static struct __mon_leases pthrs =
    MON_LEASES_ENDING(MON_LEASE_PCELLS, ending);
static struct cnt **cellof;	/* per record, claimed at a fold */
static __thread struct pthr *mine __attribute__((__tls_model__("initial-exec")));

static size_t
nrec(void)
{
	if (__start___mon_pcells == NULL || __stop___mon_pcells == NULL)
		return 0;
	return (size_t)(__stop___mon_pcells - __start___mon_pcells);
}

/* Record i names a counter the one before it does not (mon.h). */
static int
first(size_t i)
{
	return i == 0 || __start___mon_pcells[i].tpoff !=
	    __start___mon_pcells[i - 1].tpoff;
}

static char *
pc_of(size_t i)
{
	const struct mon_pcell *r = &__start___mon_pcells[i];

	return (char *)&r->pc + r->pc;
}

static long *
counter(const struct pthr *p, size_t i)
{
	return (long *)(p->tp + __start___mon_pcells[i].tpoff);
}

/*
 * This thread is known from now on: it holds a lease (a gone thread's,
 * or a new one).  0, or -1 when there is nothing to count or no memory.
 */
int
__mon_pcells_thread(void)
{
	struct pthr *p;
	size_t n = nrec();
	int saved = errno;

	if (n == 0)
		return -1;
	if (mine != NULL)
		return 0;
	if ((p = __mon_arena_adopt(&pthrs)) == NULL)
		p = __mon_arena_lease(&pthrs, sizeof(*p) +
		    n * sizeof(struct __mon_tally));
	errno = saved;
	if (p == NULL)
		return -1;
	MON_STORE(&p->tp, __mon_thread_pointer());
	/*
	 * No key (the program took the first 32): its end would not be
	 * seen, and its TLS not safe to read; its counters are lost.
	 */
	MON_STORE(&p->gone, !__mon_arena_watched());
	mine = p;
	return 0;
}

/*
 * The thread ends (arena.c, in it): its counters move into its tallies,
 * where they outlive its TLS.  At the last round its TLS is read no
 * more, once the writers reading it now are done.
 */
static void
ending(void *data, int last)
{
	struct pthr *p = data;
	long *c, v;
	size_t i, n = nrec();

	if (p->tp == NULL || p->gone)
		return;
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < n; i++)
		if (first(i) && (v = *(c = counter(p, i))) != 0) {
			MON_STORE(&p->t[i].count, p->t[i].count + v);
			*c = 0;
		}
	__atomic_store_n(&p->seq, p->seq + 1, __ATOMIC_SEQ_CST);
	if (!last)
		return;
	__atomic_store_n(&p->gone, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&p->readers, __ATOMIC_SEQ_CST) != 0)
		syscall(SYS_sched_yield);
	mine = NULL;
}

/* p's count of record i: its tally's and, while it lives, its counter's. */
static long
raw(const struct pthr *p, size_t i, int live)
{
	long s, v;
	int tries = 0;

	if (!live)
		return MON_LOAD(&p->t[i].count);
	do {
		s = __atomic_load_n(&p->seq, __ATOMIC_SEQ_CST);
		v = MON_LOAD(&p->t[i].count) +
		    __atomic_load_n(counter(p, i), __ATOMIC_RELAXED);
		/* Bounded: a signal handler may interrupt the move. */
	} while ((s & 1 || __atomic_load_n(&p->seq, __ATOMIC_SEQ_CST) != s) &&
	    ++tries < 1000);
	return v;
}

/* Start reading p's TLS; 1 if it may be read (then call unread). */
static int
read_begin(struct pthr *p)
{
	if (MON_LOAD(&p->tp) == NULL)
		return 0;
	__atomic_add_fetch(&p->readers, 1, __ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&p->gone, __ATOMIC_SEQ_CST))
		return 1;
	__atomic_sub_fetch(&p->readers, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void
read_end(struct pthr *p, int live)
{
	if (live)
		__atomic_sub_fetch(&p->readers, 1, __ATOMIC_SEQ_CST);
}

/* The cells of the functions called so far, claimed once (writer). */
void
__mon_pcells_claim(struct cnt *(*claim)(struct cnt **, char *, int))
{
	struct __mon_lease *l;
	struct pthr *p;
	struct cnt **c = MON_LOAD(&cellof), **seen = NULL;
	size_t i, n = nrec(), len = n * sizeof(*c);
	int live;

	if (n == 0)
		return;
	if (c == NULL) {
		if ((c = __mon_arena_map(len)) == NULL)
			return;
		if (!MON_CAS(&cellof, &seen, c)) {
			munmap(c, len);
			c = seen;
		}
	}
	MON_FOREACH_LEASE(&pthrs, l, p) {
		live = read_begin(p);
		for (i = 0; i < n; i++)
			if (c[i] == NULL && first(i) && raw(p, i, live) != 0)
				claim(&c[i], pc_of(i), 0);
		read_end(p, live);
	}
}

/*
 * Add the counts of the leases whose (holder's tid, tid, main_file) says
 * so, all if whose is NULL, to the claimed cells (writer).
 */
void
__mon_pcells_add(int on, int (*whose)(long, long, int), long tid,
    int main_file)
{
	struct __mon_lease *l;
	struct __mon_tally t;
	struct pthr *p;
	struct cnt **c = MON_LOAD(&cellof);
	size_t i, n = nrec();
	int live;

	if (c == NULL)
		return;
	MON_FOREACH_LEASE(&pthrs, l, p) {
		if (whose != NULL && !whose(MON_LOAD(&l->tid), tid, main_file))
			continue;
		live = read_begin(p);
		for (i = 0; i < n; i++)
			if (c[i] != NULL) {
				t = p->t[i];
				t.count = raw(p, i, live);
				c[i]->mcnt += __mon_tally_value(&t, on);
			}
		read_end(p, live);
	}
}

/* moncontrol (on), or zeroing (tid 0: every lease; on: the mode). */
static void
each(int what, int on, long tid)
{
	struct __mon_lease *l;
	struct __mon_tally t;
	struct pthr *p;
	size_t i, n = nrec();
	int live;

	MON_FOREACH_LEASE(&pthrs, l, p) {
		if (tid != 0 && MON_LOAD(&l->tid) != tid)
			continue;
		live = read_begin(p);
		for (i = 0; i < n; i++) {
			if (!first(i))
				continue;
			t = p->t[i];
			t.count = raw(p, i, live);
			if (what)
				__mon_tally_control(&t, on);
			else
				__mon_tally_zero(&t, on);
			MON_STORE(&p->t[i].snap, t.snap);
			MON_STORE(&p->t[i].excluded, t.excluded);
		}
		read_end(p, live);
	}
}

void
__mon_pcells_control(int on)
{
	each(1, on, 0);
}

void
__mon_pcells_zero(long tid, int on)
{
	each(0, on, tid);
}

/*
 * fork child: its thread starts from zero, its counters as they are; the
 * other threads are not in this process: their TLS is not read.
 */
void
__mon_pcells_reset(void)
{
	struct __mon_lease *l;
	struct pthr *p;
	size_t i, n = nrec();

	MON_FOREACH_LEASE(&pthrs, l, p) {
		if (p != mine)
			p->gone = 1;
		p->readers = 0;
		p->seq = 0;
		for (i = 0; i < n; i++)
			__mon_tally_reset(&p->t[i]);
	}
	__mon_arena_orphan(&pthrs);
	/* A thread the runtime did not know forked: known from now on. */
	if (__mon_pcells_thread() != 0)
		return;
	for (i = 0; i < n; i++)
		if (first(i))
			mine->t[i].count = -*counter(mine, i);
}

/* -threads: this thread's lease is never handed on (dump.c). */
void
__mon_pcells_keep(void)
{
	__mon_arena_keep(&pthrs);
}

size_t
__mon_pcells_mapped(void)
{
	return __mon_arena_leased(&pthrs) + nrec() * sizeof(*cellof);
}
