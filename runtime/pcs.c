/* SPDX-License-Identifier: MIT */
/*
 * pcs.c - the samples that fall outside the histogram (shared objects,
 * the executable's own code outside [lpc, hpc), code in no object), by
 * pc: how many in each bucket of stride bytes.  The writer tells them
 * apart by the mappings of the moment it writes (objects.c), so nothing
 * here needs to know which objects are loaded.
 *
 * Counted from the sampler's signal handler and the perf drain, in any
 * thread at once: open addressing with a compare-and-swap on the key
 * and atomic counts, no lock, no malloc.  A table that fills up is kept
 * (its counts stand) and a twice larger one is mapped in front of it;
 * the writer sums a bucket over all tables.  At most MAX_ENTRIES buckets
 * in all: past that a sample is not kept, and the writer reports it as
 * in no object.
 */
#include <sys/mman.h>

#include <errno.h>

#include "sampler.h"

#define FIRST_ENTRIES	1024		/* 16 KiB */
#define MAX_ENTRIES	(1 << 20)	/* 16 MiB in all tables */

struct pcs_entry {
	uintptr_t	 key;		/* bucket + 1; 0: free */
	long		 n;
};

struct pcs_tab {
	struct pcs_tab	*next;		/* older tables */
	size_t		 mask;		/* entries - 1 */
	size_t		 used;
	size_t		 maplen;
	struct pcs_entry e[];
};

/*
 * -threads: a key has the thread's sid in its high bits (0: the
 * process's samples); the writer looks at one sid at a time.
 */
#define SID_SHIFT	48
#define SID_MAX		0xffffL
#define KEY_PC(k)	((k) & (((uintptr_t)1 << SID_SHIFT) - 1))
#define KEY_SID(k)	((long)((k) >> SID_SHIFT))

static struct pcs_tab *tabs;		/* the newest first */
static long	 which;			/* the sid being written */
static size_t	 entries;		/* in all tables */
static unsigned	 shift;			/* log2 of the stride */
static long	 owner;			/* their samples' generation */

/* A bigger table in front of old, or the one another thread put there. */
static struct pcs_tab *
grow(struct pcs_tab *old)
{
	size_t n = old != NULL ? (old->mask + 1) * 2 : FIRST_ENTRIES;
	size_t len = sizeof(struct pcs_tab) + n * sizeof(struct pcs_entry);
	struct pcs_tab *t, *seen = old;
	int saved;

	if (MON_LOAD(&entries) + n > MAX_ENTRIES ||
	    (t = __mon_arena_map(len)) == NULL)
		return NULL;
	t->next = old;
	t->mask = n - 1;
	t->maplen = len;
	if (MON_CAS(&tabs, &seen, t)) {
		MON_ADD(&entries, n);
		return t;
	}
	saved = errno;
	munmap(t, len);
	errno = saved;
	return seen;
}

/* Every count to zero: keys stay. */
static void
zero_counts(void)
{
	struct pcs_tab *t;
	size_t i;

	/* Only counts that are not zero: a fork child copies no page
	 * of a table that held none. */
	for (t = MON_LOAD(&tabs); t != NULL; t = t->next)
		for (i = 0; i <= t->mask; i++)
			if (MON_LOAD(&t->e[i].n) != 0)
				MON_STORE(&t->e[i].n, 0);
}

/*
 * A fork child's tables are its parent's until it first uses them
 * (__mon_self_take): their counts go to zero then, five page faults
 * less in a fork of a small program.  Called first by every function
 * that reads or counts.  A sample that another thread of the child
 * counts while the first one zeroes may be lost.  1 if it zeroed them.
 */
static int
fresh(void)
{
	if (!__mon_self_take(&owner))
		return 0;
	zero_counts();
	return 1;
}

/* Count n samples at pc: 0, or -1 when there is no room for its bucket. */
static int
add(uintptr_t pc, long n, long sid)
{
	uintptr_t key = ((pc >> MON_LOAD(&shift)) + 1) |
	    (uintptr_t)sid << SID_SHIFT, k;
	struct pcs_tab *t = MON_LOAD(&tabs);
	size_t i, probe;

	fresh();
	if (t == NULL && (t = grow(NULL)) == NULL)
		return -1;
	i = (size_t)(key * 0x9e3779b97f4a7c15ULL >> 20) & t->mask;
	for (probe = 0; probe <= t->mask; probe++, i = (i + 1) & t->mask) {
		k = MON_LOAD(&t->e[i].key);
		if (k == 0) {
			/* Three quarters full: the bucket goes to a new one. */
			if (MON_LOAD(&t->used) >= (t->mask + 1) / 4 * 3)
				break;
			if (!MON_CAS(&t->e[i].key, &k, key) && k != key)
				continue;
			if (k == 0)
				MON_ADD(&t->used, 1);
		} else if (k != key)
			continue;
		MON_ADD(&t->e[i].n, n);
		return 0;
	}
	if ((t = grow(t)) == NULL)
		return -1;
	return add(pc, n, sid);
}

/* Count a sample at pc: 0, or -1 when there is no room for its bucket. */
int
__mon_pcs_add(uintptr_t pc)
{
	return add(pc, 1, 0);
}

/* -threads: a sample of thread sid (past SID_MAX: the main thread's). */
int
__mon_pcs_add_sid(uintptr_t pc, long sid)
{
	return add(pc, 1, sid > 0 && sid <= SID_MAX ? sid : 1);
}

/* The writer: the samples of thread sid from now on (0: the process's). */
void
__mon_pcs_thread(long sid)
{
	which = sid;
}

/*
 * Call f(entry, pc, arg) for every bucket with a key in [lo, hi), of
 * any thread: the one walk of the tables.
 */
static void
walk(uintptr_t lo, uintptr_t hi,
    void (*f)(struct pcs_entry *, uintptr_t, void *), void *arg)
{
	struct pcs_tab *t;
	uintptr_t pc, k;
	unsigned s = MON_LOAD(&shift);
	size_t i;

	for (t = MON_LOAD(&tabs); t != NULL; t = t->next)
		for (i = 0; i <= t->mask; i++) {
			if ((k = MON_LOAD(&t->e[i].key)) == 0)
				continue;
			pc = (KEY_PC(k) - 1) << s;
			if (pc >= lo && pc < hi)
				f(&t->e[i], pc, arg);
		}
}

/* Where __mon_pcs_move puts what it takes: lo's samples at to. */
struct move {
	uintptr_t	 lo, to;
};

static void
move(struct pcs_entry *e, uintptr_t pc, void *arg)
{
	const struct move *m = arg;
	long n = __atomic_exchange_n(&e->n, 0, __ATOMIC_ACQ_REL);

	if (n != 0)
		add(m->to + (pc - m->lo), n, KEY_SID(MON_LOAD(&e->key)));
}

/*
 * The samples in [lo, hi), whose object is gone (dlclose), move to the
 * same places at to; those that find no room are lost.
 */
void
__mon_pcs_move(uintptr_t lo, uintptr_t hi, uintptr_t to)
{
	struct move m = { lo, to };

	fresh();
	walk(lo, hi, move, &m);
}

/*
 * Bytes per bucket, a power of two: 1 to 4096.  Set before sampling
 * starts; a change forgets the buckets, which were of the old size.
 */
void
__mon_pcs_stride(unsigned int bytes)
{
	struct pcs_tab *t;
	unsigned s = 0;
	size_t i;

	fresh();
	while ((1u << s) < bytes && s < 12)
		s++;
	if (s == MON_LOAD(&shift))
		return;
	for (t = MON_LOAD(&tabs); t != NULL; t = t->next) {
		for (i = 0; i <= t->mask; i++) {
			MON_STORE(&t->e[i].key, 0);
			MON_STORE(&t->e[i].n, 0);
		}
		MON_STORE(&t->used, 0);
	}
	MON_STORE(&shift, s);
}

unsigned int
__mon_pcs_bytes(void)
{
	return 1u << MON_LOAD(&shift);
}

/* What __mon_pcs_each tells of each bucket. */
struct each {
	void		(*f)(uintptr_t, long, void *);
	void		*arg;
};

static void
each(struct pcs_entry *e, uintptr_t pc, void *arg)
{
	const struct each *w = arg;
	long n;

	if (KEY_SID(MON_LOAD(&e->key)) == which &&
	    (n = MON_LOAD(&e->n)) != 0)
		w->f(pc, n, w->arg);
}

/*
 * Call f(pc, n, arg) for every bucket in [lo, hi) with samples (of the
 * sid __mon_pcs_thread chose).
 */
void
__mon_pcs_each(uintptr_t lo, uintptr_t hi,
    void (*f)(uintptr_t, long, void *), void *arg)
{
	struct each w = { f, arg };

	fresh();
	walk(lo, hi, each, &w);
}

/* Start from zero (monitor(), -sigdump): keys stay. */
void
__mon_pcs_reset(void)
{
	if (!fresh())
		zero_counts();
}
