/* SPDX-License-Identifier: MIT */
/*
 * sites.c - hook ABI 5's blocks (mon.h): each thread's words of the call
 * sites that announce themselves, one word per record.  The executable's
 * records get a block at __mon_site_bias from them.  A shared object's
 * constructor registers its records and its __mon_site_modoff, which
 * gets the offset of a word of every thread's area (area.c, hook ABI
 * 6): the object's mod; a thread's block of its records lies at mod +
 * __mon_site_bias from them, and their code announces &rec + mod, only
 * while mod is not 0.
 *
 * A thread's blocks hold arcs of its tables, so they go with its table
 * (struct __mon_sitemap): to the bigger table that follows a full one,
 * and to the thread that adopts the table of one gone, whose bias and
 * mods are set anew.  Two threads never count through one block.  A
 * thread learns of objects loaded since it last looked in the -pg slow
 * path, which their first calls reach.  An unregistered object's block
 * stays until another object takes its slot (its own later destructors,
 * or other threads as the process exits, still announce through it), or
 * goes with the table's thread (-threads).  Runs in signal handlers:
 * mmap only.
 */
#include <sys/mman.h>

#include <errno.h>
#include <time.h>

#include "storage.h"

extern long __start___mon_sites[] __attribute__((__weak__,
    __visibility__("hidden")));
extern long __stop___mon_sites[] __attribute__((__weak__,
    __visibility__("hidden")));

/*
 * The record (ABI 5) that a call site announces to the function it
 * calls, read and cleared by every -pg entry, and the bias of this
 * thread's blocks.  Initial-exec: shared objects' code reads them too.
 */
__thread void *volatile __mon_site_rec MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));
__thread long __mon_site_bias MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));

/* What this thread's blocks reflect of mods (gen), once it looked. */
static __thread unsigned long seen
    __attribute__((__tls_model__("initial-exec")));

/* Shared objects registered (slot 0 unused: the executable's is r[0]). */
struct mod {
	long		*start;		/* records, NULL: slot free */
	long		*stop;
	long		 off;		/* its mod's offset in every area */
	unsigned long	 gen;		/* of this registration */
};

static struct mod mods[MON_SITES_MAX];
static unsigned long gen;	/* changes at every registration and end */
static long mapped;		/* bytes of blocks and maps */

/*
 * Held to change mods, and to set a thread's mods from them: a thread
 * never sets the mod of an object that is being unloaded.  The slow path only tries it (it may be
 * in a signal handler) and looks again later.  Nobody waits for it for
 * ever: a handler that left look() by siglongjmp never gives it back,
 * and then nobody sets a word again either.
 */
#define TRIES	2100	/* 100 pauses, then 2 s in 1 ms naps */
static int lock;

static int
try_take(void)
{
	int free = 0;

	return MON_CAS(&lock, &free, 1);
}

/*
 * Wait for it (not in a signal handler): 1, or 0 if it stays taken far
 * longer than any look() (its holder was preempted) takes.
 */
static int
take(void)
{
	struct timespec nap = { 0, 1000000 };
	int saved = errno;
	long n;

	for (n = 0; !try_take(); n++) {
		if (n >= TRIES) {
			errno = saved;
			return 0;
		}
		if (n < 100) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
		} else
			nanosleep(&nap, NULL);
	}
	errno = saved;
	return 1;
}

static void
give(void)
{
	MON_RESET(&lock, 0);
}

static size_t
mod_len(const struct mod *m)
{
	return (size_t)(m->stop - m->start) * sizeof(struct __mon_arc *);
}

/* Bytes of the executable's block: a word per record. */
static size_t
exe_len(void)
{
	if (__start___mon_sites == NULL || __stop___mon_sites == NULL)
		return 0;
	return (size_t)(__stop___mon_sites - __start___mon_sites) *
	    sizeof(struct __mon_arc *);
}

#ifdef __x86_64__
/* This thread's mod of m (its area mapped now if need be), or NULL. */
static long *
mod_var(const struct mod *m)
{
	return (long *)__mon_area_word(m->off);
}
#endif

static void *
map(size_t len)
{
	void *p = __mon_arena_map(len);

	if (p != NULL)
		MON_ADD(&mapped, (long)len);
	return p;
}

static void
unmap(void *p, size_t len)
{
	int saved = errno;

	munmap(p, len);
	errno = saved;
	MON_ADD(&mapped, -(long)len);
}

/* Slot k of map s: its block goes (its object unloaded, or replaced). */
static void
drop(struct __mon_sitemap *s, int k)
{
	char *lo = s->r[k].lo;
	size_t len = (size_t)(s->r[k].hi - lo);

	if (lo == NULL)
		return;
	s->r[k].lo = s->r[k].hi = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	unmap(lo, len);
}

/*
 * Map s (this thread's) up to date with mods, and this thread's bias and
 * mods with s: a block for every object registered (0 where there is no
 * memory), none for those gone.  Without the lock the mods stay as they
 * are: valid, as only a new thread's bias changes (adopting a table),
 * whose mods are still 0.
 */
static void
look(struct __mon_sitemap *s)
{
	const struct mod *m;
	long bias, *w;
	int k, n = 1;

	bias = s->r[0].lo == NULL ? 0 :
	    (long)(s->r[0].lo - (char *)__start___mon_sites);
	__mon_site_bias = bias;
	if (s->n < 1)
		MON_STORE(&s->n, 1);
	if (!try_take())
		return;
	for (k = 1; k < MON_SITES_MAX; k++) {
		m = &mods[k];
		/*
		 * An object unregistered may still run: its own later
		 * destructors, and other threads' calls while the process
		 * exits.  This thread's word of it (which may no longer
		 * be written) still points at its block, so the block
		 * stays until another object takes the slot, when the
		 * one gone cannot run any more.
		 */
		if (s->r[k].lo != NULL && m->start != NULL &&
		    s->gen[k] != m->gen) {
			/* An announcement of the object gone goes too. */
			__mon_site_rec = NULL;
			drop(s, k);
		}
		if (m->start == NULL) {
			if (s->r[k].lo != NULL)
				n = k + 1;
			continue;
		}
		n = k + 1;
		if (s->r[k].lo == NULL &&
		    (s->r[k].lo = map(mod_len(m))) != NULL) {
			s->r[k].hi = s->r[k].lo + mod_len(m);
			s->gen[k] = m->gen;
		}
#ifdef __x86_64__
		/* Not 0 only with a block: 0 stops the announcements. */
		if ((w = mod_var(m)) != NULL)
			*w = s->r[k].lo == NULL ? 0 :
			    (long)(s->r[k].lo - (char *)m->start) - bias;
#endif
	}
	MON_STORE(&s->n, n);
	MON_STORE(&seen, gen);
	give();
}

/*
 * t becomes this thread's table: it takes the blocks of before (the
 * table it follows), or new ones if it has none (a thread's first table,
 * or adopted), and the thread's bias and mods point at them.
 */
void
__mon_sites_follow(struct __mon_arctab *t, struct __mon_arctab *before)
{
	size_t len = exe_len();
	struct __mon_sitemap *s;

	if (t->sites == NULL && before != NULL) {
		t->sites = before->sites;
		before->sites = NULL;
	}
	if ((s = t->sites) == NULL &&
	    (s = t->sites = map(sizeof(*s))) == NULL)
		return;
	if (s->r[0].lo == NULL && len != 0 &&
	    (s->r[0].lo = map(len)) != NULL)
		s->r[0].hi = s->r[0].lo + len;
	look(s);
}

/* The -pg slow path, in table t: objects registered since the last look. */
void
__mon_sites_look(struct __mon_arctab *t)
{
	if (MON_LOAD(&seen) != MON_LOAD(&gen) && t->sites != NULL)
		look(t->sites);
}

/*
 * -threads: this thread's blocks go with it (its table is kept, never
 * adopted).  Bias and mods first: what this thread counts after reads
 * the records, and its stub stores nothing.  If the lock stays taken
 * (a pthread_exit() from a signal handler that came in while this
 * thread held it), the blocks are left as they are: mapped, valid.
 */
void
__mon_sites_end(struct __mon_arctab *t)
{
	struct __mon_sitemap *s;
	long *w;
	int k;

	if (t == NULL || (s = t->sites) == NULL || !take())
		return;
	__mon_site_bias = 0;
	__mon_site_rec = NULL;
#ifdef __x86_64__
	for (k = 1; k < MON_SITES_MAX; k++)
		if (s->r[k].lo != NULL && mods[k].start != NULL &&
		    s->gen[k] == mods[k].gen && (w = mod_var(&mods[k])) != NULL)
			*w = 0;
#endif
	give();
	t->sites = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	for (k = 0; k < MON_SITES_MAX; k++)
		drop(s, k);
	unmap(s, sizeof(*s));
}

/* Bytes mapped for blocks. */
size_t
__mon_sites_mapped(void)
{
	return (size_t)MON_LOAD(&mapped);
}

/*
 * A shared object's constructor (each of its units' that announce):
 * its records [start, stop) and its __mon_site_modoff, which gets the
 * offset of a word of the areas, the object's mod, once per load.  The
 * executable's own (-fPIC code linked into it) and an object already
 * registered are left as they are; with every slot taken, or no word,
 * the object does not announce.  The dynamic linker runs constructors
 * and destructors one at a time.
 */
void
__mon_sites_add(long *start, long *stop, long *modoff)
{
	int k, free = 0;

	if (start == NULL || stop <= start || start == __start___mon_sites ||
	    modoff == NULL)
		return;
	if (MON_LOAD(modoff) == 0)
		MON_STORE(modoff, __mon_area_words(1));
	if (MON_LOAD(modoff) == 0 || !take())
		return;		/* the object does not announce */
	for (k = 1; k < MON_SITES_MAX; k++)
		if (mods[k].start == start)
			free = -1;
		else if (free == 0 && mods[k].start == NULL)
			free = k;
	if (free > 0) {
		mods[free].start = start;
		mods[free].stop = stop;
		mods[free].off = *modoff;
		MON_STORE(&gen, gen + 1);
		mods[free].gen = gen;
	}
	give();
}

/* Its destructor: the object is unloaded (dlclose). */
void
__mon_sites_del(long *start)
{
	int k, locked = take();

	/* Unlocked only when the lock is lost: nobody sets a word then. */
	for (k = 1; k < MON_SITES_MAX; k++)
		if (start != NULL && MON_LOAD(&mods[k].start) == start) {
			MON_STORE(&mods[k].start, NULL);
			MON_STORE(&gen, gen + 1);
		}
	if (locked)
		give();
}

/*
 * fork child: the only thread left; one that held the lock in the
 * parent is not here to give it.
 */
void
__mon_sites_reset(void)
{
	give();
}
