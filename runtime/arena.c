/* SPDX-License-Identifier: MIT */
/*
 * arena.c - lock-free allocation of equal-size elements (cells, slots)
 * from chunks that grow without bound and are never freed; and leases,
 * the storage a thread counts in (its slots, its arc table), handed on
 * whole to a later thread once it has ended.
 *
 * Called from the hooks and from signal handlers: only atomics, mmap/
 * munmap and system calls, never malloc, locks or stdio, and errno is
 * kept.  Two libc calls besides: pthread_key_create (once) and
 * pthread_setspecific (once a thread), which in glibc are a CAS and
 * stores (for the first 32 keys) and touch no vector register.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "storage.h"

/* The slow path runs here behind a stub that saves no vector register. */
#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#endif

/*
 * len zeroed bytes of a mapping of their own, errno kept; NULL if none.
 * Without reserve: a thread's area (area.c) is mostly never touched.
 */
void *
__mon_arena_map(size_t len)
{
	void *p;
	int saved = errno;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	errno = saved;
	return p != MAP_FAILED ? p : NULL;
}

static struct __mon_chunk *
chunk_map(struct __mon_arena *a)
{
	struct __mon_chunk *c;

	if ((c = __mon_arena_map(a->chunklen)) == NULL)
		return NULL;
	c->base = (char *)c + MON_CHUNK_HDR;
	c->cap = (a->chunklen - MON_CHUNK_HDR) / a->elsize;
	c->maplen = a->chunklen;
	return c;
}

static void
append(struct __mon_arena *a, struct __mon_chunk *c)
{
	struct __mon_chunk *t, *next;

	for (;;) {
		t = MON_LOAD(&a->tail);
		next = NULL;
		if (MON_CAS(&t->next, &next, c)) {
			MON_CAS(&a->tail, &t, c);
			return;
		}
		/* Another append is half done: finish it for them. */
		MON_CAS(&a->tail, &t, next);
	}
}

/*
 * Hand out one zeroed element: from the current chunk by an atomic bump,
 * or from a new mapping when it is full.  NULL only when mmap fails.
 */
void *
__mon_arena_alloc(struct __mon_arena *a)
{
	struct __mon_chunk *c, *n;
	size_t i;

	for (;;) {
		c = MON_LOAD(&a->cur);
		if (c != NULL) {
			i = MON_ADD(&c->used, 1);
			if (i < c->cap)
				return c->base + i * a->elsize;
		}
		if ((n = chunk_map(a)) == NULL)
			return NULL;
		n->used = 1;
		if (MON_CAS(&a->cur, &c, n)) {
			append(a, n);
			return n->base;
		}
		/* Lost the race: use the winner's chunk. */
		munmap(n, n->maplen);
	}
}

/* Chunk c holds the n elements at base; allocations come from it next. */
static void
use(struct __mon_arena *a, struct __mon_chunk *c, void *base, size_t n)
{
	c->base = base;
	c->cap = n;
	append(a, c);
	MON_STORE(&a->cur, c);
}

/*
 * Zero the n elements at base (storage the arena does not own: a
 * monitor() buffer's cells) and hand them out next.  0, or -1 if there
 * is no memory for the chunk's header: then base is untouched.
 */
int
__mon_arena_lend(struct __mon_arena *a, void *base, size_t n)
{
	struct __mon_chunk *c;

	if ((c = __mon_arena_map(sizeof(*c))) == NULL)
		return -1;
	memset(base, 0, n * a->elsize);
	use(a, c, base, n);
	return 0;
}

/*
 * Start the zeroed arena a (elements of elsize, chunks of chunklen) with
 * the n zeroed elements at base, whose chunk header c comes with them
 * (a lease's first page holds both).
 */
void
__mon_arena_start(struct __mon_arena *a, size_t elsize, size_t chunklen,
    struct __mon_chunk *c, void *base, size_t n)
{
	a->tail = &a->head;
	a->elsize = elsize;
	a->chunklen = chunklen;
	use(a, c, base, n);
}

/* Bytes mapped for a's own chunks. */
size_t
__mon_arena_mapped(const struct __mon_arena *a)
{
	const struct __mon_chunk *c;
	size_t n = 0;

	for (c = MON_LOAD(&a->head.next); c != NULL; c = MON_LOAD(&c->next))
		n += c->maplen;
	return n;
}

/*
 * Leases.  A thread that starts counting takes a lease of each kind it
 * needs (-p slots, -pg arc table) and counts in it alone.  When it ends,
 * a pthread key's destructor releases them, and a thread that starts
 * later adopts one whole and counts on in it: the counts are totals, so
 * each stays exact, nothing is moved or added up twice, and a program
 * that creates threads without end keeps the memory of those alive at
 * once.  A released lease is adopted only once its thread has gone from
 * the system (tgkill(pid, tid, 0): ESRCH): code that runs in a thread after
 * the destructor (other keys' destructors, signal handlers) may still
 * count in it, and never at the same time as its next holder.
 */
_Static_assert(sizeof(struct __mon_lease) <= MON_LEASE_HDR, "lease header");

/* glibc keeps the values of the first 32 keys in the thread: no calloc. */
#define KEY_INLINE	32

static pthread_key_t key;
static int keystate;	/* 0 none yet, 1 being made, 2 made, -1 none to be had */

/* This thread's leases, by list index, and whether it is watched. */
static __thread struct __mon_lease *held[MON_LEASE_LISTS]
    __attribute__((__tls_model__("initial-exec")));
static __thread int watched __attribute__((__tls_model__("initial-exec")));
/*
 * This thread's tid, once asked in this process: a thread's start and
 * end ask four times, each a system call that a program of many short
 * threads pays for (issue 28).  Asked anew where the process set up has
 * changed (a fork child, __mon_self_record) and in a fork child
 * (__mon_arena_orphan).
 */
static __thread long mytid __attribute__((__tls_model__("initial-exec")));
static __thread long mypid __attribute__((__tls_model__("initial-exec")));
/* The tid this thread last found gone (gone()). */
static __thread long lastgone __attribute__((__tls_model__("initial-exec")));

/*
 * Nothing counted is ever read (PROFDIR empty): a lease changes hands
 * as soon as its thread releases it, without asking whether the thread
 * has gone, and no thread asks its tid.  Code that runs in an ending
 * thread after its release may then count in the window or table of
 * its next holder: counts no one reads, in tables whose probes are
 * bounded (arcs.c).  Set once, never cleared.
 */
static int loose;

void
__mon_arena_loose(void)
{
	MON_STORE(&loose, 1);
}

/*
 * Its tid, or what stands for it where a seccomp filter refuses gettid;
 * 0 (gone) when leases are loose.
 */
static long
tid_now(void)
{
	long pid;

	if (MON_LOAD(&loose))
		return 0;
	pid = __mon_self_pid();

	if (mytid == 0 || mypid != pid) {
		mytid = __mon_self_tid();
		mypid = pid;
	}
	return mytid;
}

/* What a layer above has done first when a thread ends (-threads). */
static void (*atend)(void);

void
__mon_arena_atend(void (*f)(void))
{
	MON_STORE(&atend, f);
}

/*
 * A thread ends: its leases go to the threads that start later, once it
 * has gone from the system (adopt), so that no two live threads count
 * in one.
 */
static void
thread_end(void *unused)
{
	struct __mon_lease *l;
	void (*f)(void) = MON_LOAD(&atend);
	long tid, s;
	int i, saved = errno;

	(void)unused;
	if (f != NULL)
		f();
	tid = tid_now();
	for (i = 0; i < MON_LEASE_LISTS; i++) {
		if ((l = held[i]) == NULL)
			continue;
		s = MON_LEASE_HELD;
		if (MON_CAS(&l->state, &s, MON_LEASE_RELEASED(tid)))
			MON_ADD(&l->list->released, 1);
	}
	/* A lease taken after this (late code) watches again. */
	watched = 0;
	errno = saved;
}

/*
 * Have thread_end called when this thread ends.  Without a key of the
 * first 32 (setspecific would calloc), the leases stay the thread's.
 */
static void
watch(void)
{
	pthread_key_t k;
	int s = 0;

	if (watched)
		return;
	if (MON_LOAD(&keystate) != 2) {
		if (!MON_CAS(&keystate, &s, 1))
			return;		/* another thread makes it, or none */
		if (pthread_key_create(&k, thread_end) != 0) {
			MON_STORE(&keystate, -1);
			return;
		}
		if ((unsigned)k >= KEY_INLINE) {
			pthread_key_delete(k);
			MON_STORE(&keystate, -1);
			return;
		}
		key = k;
		MON_STORE(&keystate, 2);
	}
	if (pthread_setspecific(key, (void *)&watched) == 0)
		watched = 1;
}

/* l is no longer handed on: its holder has a bigger one. */
static void
freeze(struct __mon_lease *l)
{
	long s = MON_LOAD(&l->state);

	while (!MON_CAS(&l->state, &s, MON_LEASE_FROZEN))
		;
	if (s != MON_LEASE_HELD && s != MON_LEASE_FROZEN)
		MON_ADD(&l->list->released, -1);
}

/* This thread holds l, lease of ls, and no longer the one before. */
static void
hold(struct __mon_leases *ls, struct __mon_lease *l)
{
	struct __mon_lease *old = held[ls->index];

	held[ls->index] = l;
	MON_STORE(&l->tid, tid_now());
	if (old != NULL && old != l)
		freeze(old);
	watch();
}

/*
 * A new lease of ls with len zeroed bytes at __mon_lease_data(), held
 * by this thread (the one it held in ls, if any, is frozen: kept and
 * counted, never handed on); NULL when mmap fails.
 */
void *
__mon_arena_lease(struct __mon_leases *ls, size_t len)
{
	struct __mon_lease *l, *head;
	size_t maplen = MON_LEASE_HDR + len;

	if (ls->pool != NULL && ls->pool->elsize == maplen) {
		l = __mon_arena_alloc(ls->pool);
		maplen = 0;
	} else
		l = __mon_arena_map(maplen);
	if (l == NULL)
		return NULL;
	l->list = ls;
	l->maplen = maplen;
	l->state = MON_LEASE_HELD;
	head = MON_LOAD(&ls->all);
	do
		l->next = head;
	while (!MON_CAS(&ls->all, &head, l));
	hold(ls, l);
	return __mon_lease_data(l);
}

/*
 * Whether thread tid of this process has gone (0: known gone; self:
 * this thread).  tgkill, as pthread_kill: what sandboxes allow; where a
 * seccomp filter of the program's refuses it, or refused gettid (tid
 * then stands for a thread, < 0), never known: the lease stays its.
 */
static int
gone(long tid, long self)
{
	int saved = errno, r;

	if (tid == 0 || tid == self || MON_LOAD(&loose))
		return 1;
	/*
	 * A thread ends releasing a lease of each list with its tid: the
	 * next adoption in this thread (of the other list, as a -pg thread
	 * starts) finds the same tid gone without asking again.  For that
	 * one adoption only: a tid is used again, at length.
	 */
	if (tid == lastgone) {
		lastgone = 0;
		return 1;
	}
	if (tid < 0 || !__mon_seccomp_may(MON_SECCOMP_GONE))
		return 0;
	/* The process set up: a vfork child checks its parent's threads. */
	r = syscall(SYS_tgkill, __mon_self_pid(), tid, 0) == -1 &&
	    errno == ESRCH;
	if (r)
		lastgone = tid;
	errno = saved;
	return r;
}

/*
 * The data of a lease of ls released by a thread that has gone, now
 * this thread's, counts and all; NULL if there is none.
 */
void *
__mon_arena_adopt(struct __mon_leases *ls)
{
	struct __mon_lease *l;
	long s, self = 0;

	if (MON_LOAD(&ls->released) <= 0)
		return NULL;
	for (l = MON_LOAD(&ls->all); l != NULL; l = l->next) {
		s = MON_LOAD(&l->state);
		if (s == MON_LEASE_HELD || s == MON_LEASE_FROZEN)
			continue;
		if (self == 0)
			self = tid_now();
		/* The state holds the tid: a CAS fails if it changed hands. */
		if (!gone(MON_LEASE_TID(s), self) ||
		    !MON_CAS(&l->state, &s, MON_LEASE_HELD))
			continue;
		MON_ADD(&ls->released, -1);
		hold(ls, l);
		return __mon_lease_data(l);
	}
	return NULL;
}

/* Bytes mapped for ls's leases. */
size_t
__mon_arena_leased(const struct __mon_leases *ls)
{
	const struct __mon_lease *l;
	size_t n = 0;

	for (l = MON_LOAD(&ls->all); l != NULL; l = l->next)
		n += l->maplen;
	return n;
}

/*
 * -threads: this thread's lease of ls is never handed on (its counts
 * are its thread's alone); it ends, and a later thread takes a new one.
 */
void
__mon_arena_keep(struct __mon_leases *ls)
{
	if (held[ls->index] != NULL)
		freeze(held[ls->index]);
}

/*
 * fork child: the other threads are gone, and so the leases they held
 * are released.
 */
void
__mon_arena_orphan(struct __mon_leases *ls)
{
	struct __mon_lease *l;
	long n = 0;

	MON_RESET(&mytid, 0);
	MON_RESET(&lastgone, 0);
	for (l = ls->all; l != NULL; l = l->next) {
		if (l->state == MON_LEASE_HELD && l != held[ls->index])
			l->state = MON_LEASE_RELEASED(0);
		if (l->state != MON_LEASE_HELD && l->state != MON_LEASE_FROZEN)
			n++;
	}
	MON_RESET(&ls->released, n);
}
