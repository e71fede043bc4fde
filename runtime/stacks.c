/* SPDX-License-Identifier: MIT */
/*
 * stacks.c - the sampled call stacks: each distinct stack (the sampled
 * pc, then the return addresses, leaf first) once, with how many samples
 * had it, for the writer to put in mon.out (MON_META_STACK).
 *
 * Counted from the perf drain and from the itimer's signal handler, in
 * any thread at once: no lock, no malloc.  A stack is a record in a
 * pool, written whole before a compare-and-swap publishes its offset in
 * an open-addressing table; a thread that loses the race for a slot to
 * the same stack counts there (its record stays unpublished, with no
 * samples).  Both are mappings without reserve, made at the first
 * sample: only the pages of the stacks seen are touched.  When the table
 * is three quarters full or the pool is spent, a new stack is not kept
 * (__mon_stacks_lost counts it); its sample still is, in the histogram.
 *
 * The table is mapped at the first sample, the pool in chunks as the
 * stacks fill it: a program under RLIMIT_AS gives up 1.25 MB of its
 * address space for a few thousand stacks, not the 68 MB of a pool
 * reserved at once (it then got 9 MB of malloc under a 60 MB limit,
 * against 46 MB plain).
 */
#include <sys/mman.h>

#include <errno.h>

#include "sampler.h"

#define TABLE_SLOTS	(1u << 17)		/* 512 KiB of offsets */
#define CHUNK_WORDS	((size_t)32 << 10)	/* 256 KiB of records */
#define CHUNKS		256			/* 64 MiB of records */

/* A stack in the pool; the table holds its word offset + 1. */
struct stack {
	long		 n;		/* samples */
	uint64_t	 hash;
	uint32_t	 sid;		/* -threads: the thread's, else 0 */
	uint32_t	 depth;
	uintptr_t	 pc[];		/* leaf first */
};

#define HEAD_WORDS	(sizeof(struct stack) / sizeof(uintptr_t))

/*
 * The table, the list of what it holds (so that the writer visits the
 * stacks, not every slot), and the pool's chunks, mapped one by one
 * (a pool offset o is word o % CHUNK_WORDS of chunk o / CHUNK_WORDS; no
 * record crosses two), in one mapping: one pointer publishes them all.
 */
struct store {
	uint32_t	 slot[TABLE_SLOTS];
	uint32_t	 list[TABLE_SLOTS];	/* offsets; 0: being listed */
	uintptr_t	*chunk[CHUNKS];
};

static struct {
	struct store	*st;
	size_t		 used;		/* pool words handed out */
	size_t		 nstacks;	/* published */
	long		 lost;		/* samples whose stack has no room */
	long		 which;		/* the sid being written */
	long		 owner;		/* their samples' generation */
} s;

/* Every count to zero: the stacks stay. */
static void
zero_counts(void);

/*
 * A fork child's stacks are its parent's until it first uses them
 * (__mon_self_take), as pcs.c's tables: called first by every function
 * that reads or counts.  1 if it zeroed their counts.
 */
static int
fresh(void)
{
	if (!__mon_self_take(&s.owner))
		return 0;
	zero_counts();
	return 1;
}

/* Map the store, or find another thread's: it, or NULL. */
static struct store *
setup(void)
{
	struct store *st, *seen = NULL;
	int saved = errno;

	st = mmap(NULL, sizeof(*st), PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (st == MAP_FAILED) {
		errno = saved;
		return NULL;
	}
	if (!MON_CAS(&s.st, &seen, st)) {
		munmap(st, sizeof(*st));
		st = seen;
	}
	errno = saved;
	return st;
}

/* Chunk c of the pool, mapped by the first to need it: it, or NULL. */
static uintptr_t *
chunk(struct store *st, size_t c)
{
	uintptr_t *m, *seen = NULL;
	int saved = errno;

	if ((m = MON_LOAD(&st->chunk[c])) != NULL)
		return m;
	m = mmap(NULL, CHUNK_WORDS * sizeof(uintptr_t), PROT_READ |
	    PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	errno = saved;
	if (m == MAP_FAILED)
		return NULL;
	if (!MON_CAS(&st->chunk[c], &seen, m)) {
		munmap(m, CHUNK_WORDS * sizeof(uintptr_t));
		errno = saved;
		m = seen;
	}
	return m;
}

static uint64_t
hash(const uintptr_t *pc, size_t n, long sid)
{
	uint64_t h = 0x84222325cbf29ce4ULL ^ (uint64_t)sid;
	size_t i;

	for (i = 0; i < n; i++) {
		h = (h ^ pc[i]) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return h;
}

static int
same(const struct stack *r, uint64_t h, const uintptr_t *pc, size_t n,
    long sid)
{
	size_t i;

	if (r->hash != h || r->depth != n || r->sid != (uint32_t)sid)
		return 0;
	for (i = 0; i < n; i++)
		if (r->pc[i] != pc[i])
			return 0;
	return 1;
}

static struct stack *
at(uint32_t off)
{
	size_t o = (size_t)off - 1;

	return (struct stack *)(void *)(MON_LOAD(&MON_LOAD(&s.st)->chunk[o /
	    CHUNK_WORDS]) + o % CHUNK_WORDS);
}

/* A record of the stack, written whole but not yet published, or NULL. */
static struct stack *
record(uint64_t h, const uintptr_t *pc, size_t n, long sid, uint32_t *off)
{
	struct store *st = MON_LOAD(&s.st);
	size_t words = HEAD_WORDS + n, o;
	uintptr_t *m;
	struct stack *r;

	/*
	 * Words that would cross into the next chunk are left unused: the
	 * next try starts there.
	 */
	do
		o = __atomic_fetch_add(&s.used, words, __ATOMIC_RELAXED);
	while (o / CHUNK_WORDS != (o + words - 1) / CHUNK_WORDS &&
	    o < CHUNKS * CHUNK_WORDS);
	if (o + words > CHUNKS * CHUNK_WORDS ||
	    (m = chunk(st, o / CHUNK_WORDS)) == NULL)
		return NULL;
	r = (struct stack *)(void *)(m + o % CHUNK_WORDS);
	r->n = 0;
	r->hash = h;
	r->sid = (uint32_t)sid;
	r->depth = (uint32_t)n;
	__builtin_memcpy(r->pc, pc, n * sizeof(uintptr_t));
	*off = (uint32_t)(o + 1);
	return r;
}

/*
 * One sample whose stack is pc[0..n) (the sampled pc first), of thread
 * sid (0: not kept by thread): 0, or -1 when it could not be kept.
 */
int
__mon_stacks_add(const uintptr_t *pc, size_t n, long sid)
{
	struct store *st;
	uint64_t h;
	uint32_t *slot, off, mine = 0;
	struct stack *r = NULL;
	size_t i, probe;

	if (n == 0)
		return 0;
	fresh();
	if (n > MON_STACK_DEPTH)
		n = MON_STACK_DEPTH;
	if ((st = MON_LOAD(&s.st)) == NULL && (st = setup()) == NULL)
		goto lost;
	slot = st->slot;
	h = hash(pc, n, sid);
	i = (size_t)(h >> 13) & (TABLE_SLOTS - 1);
	for (probe = 0; probe < TABLE_SLOTS; probe++,
	    i = (i + 1) & (TABLE_SLOTS - 1)) {
		off = __atomic_load_n(&slot[i], __ATOMIC_ACQUIRE);
		if (off == 0) {
			if (MON_LOAD(&s.nstacks) >= TABLE_SLOTS / 4 * 3)
				goto lost;
			if (r == NULL && (r = record(h, pc, n, sid, &mine)) ==
			    NULL)
				goto lost;
			if (__atomic_compare_exchange_n(&slot[i], &off, mine, 0,
			    __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
				MON_ADD(&r->n, 1);
				__atomic_store_n(&st->list[__atomic_fetch_add(
				    &s.nstacks, 1, __ATOMIC_RELAXED)], mine,
				    __ATOMIC_RELEASE);
				return 0;
			}
			/* Another stack took it: is it this one? */
		}
		if (same(at(off), h, pc, n, sid)) {
			MON_ADD(&at(off)->n, 1);
			return 0;
		}
	}
lost:
	MON_ADD(&s.lost, 1);
	return -1;
}

#if !defined(__x86_64__)
uintptr_t
__mon_stacks_callee(uintptr_t w)
{
	(void)w;
	return 0;
}
#else
/* The word at a, if it lies in the executable's image, else 0. */
static uintptr_t
load(uintptr_t a)
{
	uintptr_t v;

	if (!__mon_exe_overlaps(a, a + sizeof(v)))
		return 0;
	__builtin_memcpy(&v, (const void *)a, sizeof(v));
	return v;
}

/*
 * Where a call that returns to w went, when that call is the
 * executable's: direct (e8 rel32), on to the function its PLT stub
 * jumps to (ff 25, after an endbr64 and a bnd prefix where there are
 * some), or through its GOT (ff 15, -fno-plt); 0 otherwise.  Only the
 * executable's text and image are read: they are mapped.
 */
uintptr_t
__mon_stacks_callee(uintptr_t w)
{
	const unsigned char *p;
	uintptr_t target;
	int32_t rel;

	if (w < 6 || !__mon_exe_in_text(w - 6) || !__mon_exe_in_text(w - 1))
		return 0;
	p = (const unsigned char *)w;
	if (p[-6] == 0xff && p[-5] == 0x15) {
		__builtin_memcpy(&rel, p - 4, sizeof(rel));
		return load(w + (uintptr_t)(intptr_t)rel);
	}
	if (p[-5] != 0xe8)
		return 0;
	__builtin_memcpy(&rel, p - 4, sizeof(rel));
	target = w + (uintptr_t)(intptr_t)rel;
	if (!__mon_exe_in_text(target) || !__mon_exe_in_text(target + 11))
		return target;
	p = (const unsigned char *)target;
	if (p[0] == 0xf3 && p[1] == 0x0f && p[2] == 0x1e && p[3] == 0xfa)
		p += 4;
	if (p[0] == 0xf2)
		p++;
	if (p[0] != 0xff || p[1] != 0x25)
		return target;
	__builtin_memcpy(&rel, p + 2, sizeof(rel));
	return load((uintptr_t)p + 6 + (uintptr_t)(intptr_t)rel);
}
#endif

/*
 * Whether w, a word at the stack pointer, is the return address of one
 * of the executable's calls (__mon_stacks_callee) into the function
 * that pc is in:
 * at or below pc, within 64 KiB.  A word that only looks like a code
 * address does not pass.  Calls through a register, and callers in
 * shared objects, are not checked: they do not pass either.
 */
int
__mon_stacks_returns(uintptr_t pc, uintptr_t w)
{
#if defined(__x86_64__)
	uintptr_t target = __mon_stacks_callee(w);

	return target != 0 && target <= pc && pc - target < 65536;
#else
	(void)pc;
	(void)w;
	return 0;
#endif
}

/*
 * A frame-pointer walk skips the caller of code that has no frame: a
 * leaf that needs no stack (GCC gives it no frame even with
 * -mno-omit-leaf-frame-pointer; the C library's string functions have
 * none), a prologue before its push, an epilogue after its pop.  There
 * the return address is the word at the stack pointer, W.  Put it back
 * as pc[1] when it is one (__mon_stacks_returns).  The new depth of
 * pc[0..n), room for one more given.
 */
size_t
__mon_stacks_caller(uintptr_t *pc, size_t n, uintptr_t w)
{
	if (n == 0 || n >= MON_STACK_DEPTH || (n > 1 && pc[1] == w) ||
	    !__mon_stacks_returns(pc[0], w))
		return n;
	__builtin_memmove(pc + 2, pc + 1, (n - 1) * sizeof(*pc));
	pc[1] = w;
	return n + 1;
}

/* Samples whose stack was not kept. */
long
__mon_stacks_lost(void)
{
	fresh();
	return MON_LOAD(&s.lost);
}

/* The writer: the stacks of thread sid from now on (0: the process's). */
void
__mon_stacks_thread(long sid)
{
	s.which = sid;
}

/*
 * Whether a stack with samples has a frame in [lo, hi): the writer
 * keeps a record of each object that a stack goes through.
 */
int
__mon_stacks_in(uintptr_t lo, uintptr_t hi)
{
	struct store *st = MON_LOAD(&s.st);
	uint32_t off;
	const struct stack *r;
	size_t i, k;

	fresh();
	for (i = 0; st != NULL && i < MON_LOAD(&s.nstacks); i++) {
		if ((off = __atomic_load_n(&st->list[i], __ATOMIC_ACQUIRE)) ==
		    0)
			continue;
		r = at(off);
		if (MON_LOAD(&r->n) == 0)
			continue;
		for (k = 0; k < r->depth; k++)
			if (r->pc[k] >= lo && r->pc[k] < hi)
				return 1;
	}
	return 0;
}

/*
 * The frames in [lo, hi), of an object that is gone (dlclose), move to
 * the same places at to, as its samples do (pcs.c).  Their records keep
 * their hash: a later object at the same address counts in new ones.
 */
void
__mon_stacks_move(uintptr_t lo, uintptr_t hi, uintptr_t to)
{
	struct store *st = MON_LOAD(&s.st);
	uint32_t off;
	struct stack *r;
	size_t i, k;

	fresh();
	for (i = 0; st != NULL && i < MON_LOAD(&s.nstacks); i++) {
		if ((off = __atomic_load_n(&st->list[i], __ATOMIC_ACQUIRE)) ==
		    0)
			continue;
		r = at(off);
		for (k = 0; k < r->depth; k++)
			if (r->pc[k] >= lo && r->pc[k] < hi)
				MON_STORE(&r->pc[k], to + (r->pc[k] - lo));
	}
}

/* Order of root-first frames: a before b (<0), same (0), after (>0). */
static int
cmp(const struct stack *a, const struct stack *b)
{
	size_t i = a->depth, k = b->depth;

	while (i > 0 && k > 0) {
		i--, k--;
		if (a->pc[i] != b->pc[k])
			return a->pc[i] < b->pc[k] ? -1 : 1;
	}
	return (i > 0) - (k > 0);
}

/* Stacks by their offsets v, in cmp's order (__mon_sort_heap's). */
static int
cmp_off(const void *a, const void *b, void *unused)
{
	(void)unused;
	return cmp(at(*(const uint32_t *)a), at(*(const uint32_t *)b));
}

/*
 * Call f(pc, depth, samples, arg) for every stack with samples of the
 * sid __mon_stacks_thread chose, in the order of their frames root
 * first, so that each shares the longest prefix with the one before.
 * A heapsort in a mapping of its own: the writer may not call malloc
 * (or qsort, which does).  0, or -1 if that mapping failed: then in
 * table order.
 */
int
__mon_stacks_each(void (*f)(const uintptr_t *, size_t, long, void *),
    void *arg)
{
	struct store *st = MON_LOAD(&s.st);
	uint32_t *v, off;
	size_t i, n = 0, len;
	const struct stack *r;
	long k;
	int saved = errno, rc = 0;

	fresh();
	if (st == NULL)
		return 0;
	len = (MON_LOAD(&s.nstacks) + 1) * sizeof(uint32_t);
	v = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < MON_LOAD(&s.nstacks); i++) {
		if ((off = __atomic_load_n(&st->list[i], __ATOMIC_ACQUIRE)) ==
		    0)
			continue;
		r = at(off);
		if (r->sid != (uint32_t)s.which || MON_LOAD(&r->n) == 0)
			continue;
		if (v != MAP_FAILED && n < len / sizeof(uint32_t))
			v[n++] = off;
		else if ((k = MON_LOAD(&r->n)) != 0) {
			f(r->pc, r->depth, k, arg);
			rc = -1;
		}
	}
	if (v == MAP_FAILED) {
		errno = saved;
		return rc;
	}
	__mon_sort_heap(v, n, sizeof(*v), cmp_off, NULL);
	for (i = 0; i < n; i++)
		if ((k = MON_LOAD(&at(v[i])->n)) != 0)
			f(at(v[i])->pc, at(v[i])->depth, k, arg);
	munmap(v, len);
	errno = saved;
	return rc;
}

static void
zero_counts(void)
{
	struct store *st = MON_LOAD(&s.st);
	uint32_t off;
	size_t i;

	for (i = 0; st != NULL && i < MON_LOAD(&s.nstacks); i++)
		if ((off = __atomic_load_n(&st->list[i], __ATOMIC_ACQUIRE)) !=
		    0 && MON_LOAD(&at(off)->n) != 0)
			MON_STORE(&at(off)->n, 0);
	MON_STORE(&s.lost, 0);
}

/* Start from zero (monitor(), -sigdump): stacks stay. */
void
__mon_stacks_reset(void)
{
	if (!fresh())
		zero_counts();
}
