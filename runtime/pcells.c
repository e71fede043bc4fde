/* SPDX-License-Identifier: MIT */
/*
 * pcells.c - the executable's counters (hook ABI 7, mon_abi.h): each -p
 * function of the executable counts with one instruction, addq $1,
 * %gs:ctr(%rip), at the thread's %gs base plus its counter's address,
 * and names the counter in a record of section __mon_pcells.  A
 * function's count is the sum over threads of its counter.
 *
 * The counters lie between the lowest and the highest record's (the
 * span); each thread counts in a window as long as the span, with its
 * base set to the window minus the span's start.  The first thread the
 * runtime knows (the main thread, at start-up) counts in the span itself,
 * base 0, as does every thread while profiling is off (a thread inherits
 * its creator's base).  Every other thread gets a window mapped without
 * reserve, where only the pages of the functions it calls are ever
 * touched: per-thread memory, and the cost of a thread's start and end,
 * do not grow with the number of functions (README, Overhead).
 *
 * The runtime knows a thread by a lease (arena.c) it takes as it starts
 * (thread.c, init.c): its window, and per record a tally.  Counters are
 * totals and windows are never unmapped: when a thread ends, its lease
 * goes whole to a thread that starts after it has gone, which counts on
 * in the same window, so nothing is moved or summed at a thread's end,
 * and a writer may read any window at any time.  A tally's count is an
 * offset, minus the counter's value when a fork child started from zero.
 *
 * -pg code of the executable keeps its thread-local words (arc caches,
 * call-site words: pointers into the thread's arc table) in the span
 * too, each named by a record with pc 0.  They are not counts: a window
 * that another thread held has its words zeroed before its new holder
 * runs, and the stubs store a word at the same offset of this thread's
 * window (__mon_pcells_win), or nowhere in a thread the runtime does
 * not know.
 *
 * Threads the runtime does not see start (a raw clone, a thread of
 * glibc's own) count in the window of the thread that created them,
 * unsynchronised with it (README, "Limitations").
 *
 * Async-signal-safe: atomics, mmap and a system call only, errno kept.
 */
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <unistd.h>

#include "storage.h"

#ifdef __x86_64__
#pragma GCC target("general-regs-only")
#include <asm/prctl.h>
#endif

#ifndef HWCAP2_FSGSBASE
#define HWCAP2_FSGSBASE	(1 << 1)
#endif

#define PAGE	4096UL

extern const struct mon_pcell __start___mon_pcells[]
    __attribute__((__weak__, __visibility__("hidden")));
extern const struct mon_pcell __stop___mon_pcells[]
    __attribute__((__weak__, __visibility__("hidden")));

/* A lease's data: a thread's window and its tallies, one per record. */
struct pthr {
	char		*win;		/* the span's copy; NULL: none */
	struct __mon_pcells_dirty dirty;	/* the words its holders set */
	struct __mon_tally t[];
};

static struct __mon_leases pthrs = MON_LEASES_INIT(MON_LEASE_PCELLS);
static struct cnt **cellof;	/* per record, claimed at a fold */
static __thread struct pthr *mine __attribute__((__tls_model__("initial-exec")));
static int spanned;		/* the span is a lease's window */

/*
 * The span (below), and this thread's window, for the stubs (stub.c) as
 * for this file.
 */
char	*__mon_pcells_lo MON_HIDDEN;
size_t	 __mon_pcells_len MON_HIDDEN;
__thread char *__mon_pcells_win MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));
/*
 * Where this thread logs the words it sets in its window (the stubs
 * too, in one xadd that a signal handler cannot split): a new holder
 * zeroes those alone, however many functions its window's earlier
 * holders called.  NULL in a thread without a window.
 */
__thread struct __mon_pcells_dirty *__mon_pcells_dirty MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));

/* The records of __mon_pcells. */
static size_t
nrec(void)
{
	if (__start___mon_pcells == NULL || __stop___mon_pcells == NULL)
		return 0;
	return (size_t)(__stop___mon_pcells - __start___mon_pcells);
}

/* Whether the executable's code counts at each thread's %gs base. */
int
__mon_pcells_at_gs(void)
{
	return nrec() > 0;
}

/* The executable's counter of record i. */
static long *
ctr_of(size_t i)
{
	const struct mon_pcell *r = &__start___mon_pcells[i];

	return (long *)((char *)&r->ctr + r->ctr);
}

/* Record i names a -pg word (pc 0), not a counter. */
static int
word(size_t i)
{
	return __start___mon_pcells[i].pc == 0;
}

/*
 * Record i names a counter the one before it does not (mon_abi.h): a
 * function's count.
 */
static int
counts(size_t i)
{
	return !word(i) && (i == 0 || ctr_of(i) != ctr_of(i - 1));
}

static char *
pc_of(size_t i)
{
	const struct mon_pcell *r = &__start___mon_pcells[i];

	return (char *)&r->pc + r->pc;
}

/*
 * The span: from the page of the lowest counter to past the highest
 * (records are in link order, as the counters mostly are, but a unit's
 * order within the section is the compiler's).  Computed once; the
 * executable does not change.
 */
static int words, counters;	/* records of each kind */

static void
span(void)
{
	char *lo, *hi, *c;
	size_t i, n = nrec();

	if (MON_LOAD(&__mon_pcells_len) != 0 || n == 0)
		return;
	lo = hi = (char *)ctr_of(0);
	for (i = 0; i < n; i++) {
		c = (char *)ctr_of(i);
		if (c < lo)
			lo = c;
		if (c > hi)
			hi = c;
		if (word(i))
			words = 1;
		else
			counters = 1;
	}
	lo = (char *)((unsigned long)lo & ~(PAGE - 1));
	__mon_pcells_lo = lo;
	MON_STORE(&__mon_pcells_len, ((unsigned long)(hi - lo) + sizeof(long) +
	    PAGE - 1) & ~(PAGE - 1));
}

/* A page zeroed in general registers (no memset: the hooks' rule). */
static void
zero(char *page)
{
	volatile long *q = (volatile long *)(void *)page;
	size_t i;

	for (i = 0; i < PAGE / sizeof(long); i++)
		q[i] = 0;
}

/*
 * Where counters and words share pages (units built -p and units built
 * -pg in one executable): the words of each page of the span, so
 * that a window's are zeroed on the pages its last holder touched only.
 * Page k's words are at the offsets woff[first[k]] .. woff[first[k + 1]
 * - 1].  Made once, by counting: no sort.
 */
struct wordmap {
	size_t		 len;		/* bytes mapped */
	uint32_t	*first;		/* pages + 1 */
	uint32_t	*woff;
};

static struct wordmap *wmap;

/* The offset of word record i. */
static uint32_t
woff_of(size_t i)
{
	return (uint32_t)((char *)ctr_of(i) - __mon_pcells_lo);
}

static struct wordmap *
words_map(void)
{
	struct wordmap *m = MON_LOAD(&wmap), *seen = NULL;
	size_t i, n = nrec(), pages = __mon_pcells_len / PAGE, nw = 0, len;
	uint32_t *at, o;

	if (m != NULL || __mon_pcells_len > UINT32_MAX)
		return m;
	for (i = 0; i < n; i++)
		if (word(i))
			nw++;
	len = sizeof(*m) + (2 * pages + 1 + nw) * sizeof(uint32_t);
	if ((m = __mon_arena_map(len)) == NULL)
		return NULL;
	m->len = len;
	m->first = (uint32_t *)(m + 1);
	at = m->first + pages + 1;
	m->woff = at + pages;
	for (i = 0; i < n; i++)
		if (word(i))
			m->first[woff_of(i) / PAGE + 1]++;
	for (i = 1; i <= pages; i++)
		m->first[i] += m->first[i - 1];
	for (i = 0; i < pages; i++)
		at[i] = m->first[i];
	for (i = 0; i < n; i++)
		if (word(i)) {
			o = woff_of(i);
			m->woff[at[o / PAGE]++] = o;
		}
	if (!MON_CAS(&wmap, &seen, m)) {
		munmap(m, len);
		m = seen;
	}
	return m;
}

/*
 * Zero what the last holder of window win left on the pages it touched
 * (in memory, mincore says), which its new holder will most likely
 * touch too (dropping them would cost a fault each): the whole page in
 * a window of words alone (m NULL), else the page's words.  0, or -1 if
 * mincore fails.
 */
static int
clear_pages(char *win, const struct wordmap *m)
{
	unsigned char vec[512];
	size_t off, k, len, pages, p, j;

	for (off = 0; off < __mon_pcells_len; off += len) {
		len = __mon_pcells_len - off;
		if (len > sizeof(vec) * PAGE)
			len = sizeof(vec) * PAGE;
		pages = len / PAGE;
		if (mincore(win + off, len, vec) != 0)
			return -1;
		for (k = 0; k < pages; k++) {
			if (!(vec[k] & 1))
				continue;
			if (m == NULL) {
				zero(win + off + k * PAGE);
				continue;
			}
			p = off / PAGE + k;
			for (j = m->first[p]; j < m->first[p + 1]; j++)
				*(volatile long *)(void *)(win +
				    m->woff[j]) = 0;
		}
	}
	return 0;
}

/*
 * A window that another thread held: its -pg words point into that
 * thread's arc table, which another thread may hold now, so they are
 * zeroed (the counters are totals, and stay): those its holders logged;
 * if they did not fit the log, those on the pages touched; if mincore
 * fails, word by word, read first, so that pages never touched stay so.
 */
static void
clear_words(struct pthr *p)
{
	char *win = p->win;
	long *w;
	struct wordmap *m;
	unsigned long k, set = MON_LOAD(&p->dirty.n);
	size_t i, n = nrec();
	int saved = errno, r = -1;

	if (!words)
		return;
	MON_STORE(&p->dirty.n, 0);
	/* The words its holders logged, if they fit the log. */
	if (set <= MON_PCELLS_DIRTY) {
		for (k = 0; k < set; k++)
			*(volatile long *)(void *)(win + p->dirty.off[k]) = 0;
		return;
	}
	if (win != __mon_pcells_lo) {
		if (!counters)
			r = clear_pages(win, NULL);
		else if ((m = words_map()) != NULL)
			r = clear_pages(win, m);
	}
	errno = saved;
	if (r == 0)
		return;
	for (i = 0; i < n; i++)
		if (word(i) && *(w = (long *)(win + ((char *)ctr_of(i) -
		    __mon_pcells_lo))) != 0)
			*w = 0;
}

/*
 * Where this thread keeps the -pg word at w, an address in the span: at
 * the same offset of its window, logged, as the caller will set it;
 * NULL in a thread without one.  Other addresses (a __thread word) are
 * the word's own.
 */
long **
__mon_pcells_word(long **w)
{
	size_t off = (size_t)((char *)w - __mon_pcells_lo);
	struct __mon_pcells_dirty *d = __mon_pcells_dirty;
	unsigned long k;
	char *win;

	if (off >= MON_LOAD(&__mon_pcells_len))
		return w;
	if ((win = __mon_pcells_win) == NULL)
		return NULL;
	/* One instruction, as the stubs', that a signal handler cannot split. */
	if (d != NULL && (k = __atomic_fetch_add(&d->n, 1,
	    __ATOMIC_RELAXED)) < MON_PCELLS_DIRTY)
		d->off[k] = (uint32_t)off;
	return (long **)(win + off);
}

/* p's counter of record i. */
static long *
counter(const struct pthr *p, size_t i)
{
	return (long *)(p->win + ((char *)ctr_of(i) - __mon_pcells_lo));
}

/*
 * A window for a new lease: above the span, so that the base (window
 * minus span) is a user address, as the kernel requires.  NULL if none.
 */
static char *
window(void)
{
	char *w, *hint = NULL;
	int tries, saved = errno;

	for (tries = 0; tries < 2; tries++) {
		w = mmap(hint, __mon_pcells_len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (w == MAP_FAILED)
			break;
		if (w >= __mon_pcells_lo + __mon_pcells_len) {
			errno = saved;
			return w;
		}
		munmap(w, __mon_pcells_len);
		/* Below the executable (a static PIE high up): retry above. */
		hint = __mon_pcells_lo + __mon_pcells_len + (1UL << 30);
	}
	errno = saved;
	return NULL;
}

/*
 * This thread counts at base + a counter's address from now on.  The
 * system call is made inline: syscall() is the program's, which refuses
 * ARCH_SET_GS where the executable counts at %gs (gsbase.c).
 */
static int
set_base(unsigned long base)
{
#ifdef __x86_64__
	int saved = errno;
	long rc;

	/* wrgsbase where the kernel allows it: no system call to filter. */
	if (getauxval(AT_HWCAP2) & HWCAP2_FSGSBASE) {
		__asm__ volatile("wrgsbase %0" : : "r"(base) : "memory");
		return 0;
	}
	errno = saved;		/* getauxval's ENOENT, on an old kernel */
	__asm__ volatile("syscall" : "=a"(rc)
	    : "0"((long)SYS_arch_prctl), "D"((long)ARCH_SET_GS), "S"(base)
	    : "rcx", "r11", "memory");
	return rc == 0 ? 0 : -1;
#else
	(void)base;
	return -1;
#endif
}

/*
 * This thread is known from now on: it holds a lease (a gone thread's,
 * or a new one).  0, or -1 when there is nothing to count or no memory
 * (then it counts on where it did: its creator's window).
 */
int
__mon_pcells_thread(void)
{
	struct pthr *p;
	size_t n = nrec();
	int expect = 0, spans = 0, saved = errno;

	if (n == 0)
		return -1;
	if (mine != NULL)
		return 0;
	span();
	if ((p = __mon_arena_adopt(&pthrs)) != NULL) {
		if (p->win != NULL)
			clear_words(p);
	} else {
		p = __mon_arena_lease(&pthrs, sizeof(*p) +
		    n * sizeof(struct __mon_tally));
		if (p == NULL) {
			errno = saved;
			return -1;
		}
		/* The first thread counts in the span, base 0 as it started. */
		if ((spans = MON_CAS(&spanned, &expect, 1)) != 0)
			MON_STORE(&p->win, __mon_pcells_lo);
	}
	if (p->win == NULL)
		MON_STORE(&p->win, window());
	errno = saved;
	/* No window, or no base: the lease stays this thread's, unused. */
	if (p->win == NULL || (!spans &&
	    set_base((unsigned long)(p->win - __mon_pcells_lo)) != 0))
		return -1;
	mine = p;
	__mon_pcells_win = p->win;
	__mon_pcells_dirty = &p->dirty;
	return 0;
}

/* p's count of record i: its counter's, less its tally's offset. */
static long
raw(const struct pthr *p, size_t i)
{
	if (MON_LOAD(&p->win) == NULL)
		return 0;
	return MON_LOAD(&p->t[i].count) +
	    __atomic_load_n(counter(p, i), __ATOMIC_RELAXED);
}

/* The cells of the functions called so far, claimed once (writer). */
void
__mon_pcells_claim(struct cnt *(*claim)(struct cnt **, char *, int))
{
	struct __mon_lease *l;
	struct pthr *p;
	struct cnt **c = MON_LOAD(&cellof), **seen = NULL;
	size_t i, n = nrec(), len = n * sizeof(*c);

	if (n == 0 || MON_LOAD(&__mon_pcells_len) == 0)
		return;
	if (c == NULL) {
		if ((c = __mon_arena_map(len)) == NULL)
			return;
		if (!MON_CAS(&cellof, &seen, c)) {
			munmap(c, len);
			c = seen;
		}
	}
	MON_FOREACH_LEASE(&pthrs, l, p)
		for (i = 0; i < n; i++) {
			if (c[i] == NULL && counts(i) && raw(p, i) != 0)
				claim(&c[i], pc_of(i), 0);
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

	if (c == NULL)
		return;
	MON_FOREACH_LEASE(&pthrs, l, p) {
		if (whose != NULL && !whose(MON_LOAD(&l->tid), tid, main_file))
			continue;
		for (i = 0; i < n; i++)
			if (c[i] != NULL && counts(i)) {
				t = p->t[i];
				t.count = raw(p, i);
				c[i]->mcnt += __mon_tally_value(&t, on);
			}
	}
}

/*
 * moncontrol (on), or zeroing (tid 0: every lease; on: the mode).  A
 * tally with nothing counted and nothing recorded stays as it is,
 * untouched: a lease's memory grows with the functions its threads
 * called.
 */
static void
each(int what, int on, long tid)
{
	struct __mon_lease *l;
	struct __mon_tally t;
	struct pthr *p;
	size_t i, n = nrec();

	MON_FOREACH_LEASE(&pthrs, l, p) {
		if (tid != 0 && MON_LOAD(&l->tid) != tid)
			continue;
		for (i = 0; i < n; i++) {
			if (!counts(i))
				continue;
			t = p->t[i];
			t.count = raw(p, i);
			if (t.count == 0 && t.snap == 0 && t.excluded == 0)
				continue;
			if (what)
				__mon_tally_control(&t, on);
			else
				__mon_tally_zero(&t, on);
			MON_STORE(&p->t[i].snap, t.snap);
			MON_STORE(&p->t[i].excluded, t.excluded);
		}
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
 * fork child: every window holds what the parent's threads counted, and
 * the child's counts start from zero (a window goes on to the child's
 * threads: an offset, not a zeroing, as the span is the executable's
 * own memory, and this thread counts on in its window as it is).
 */
void
__mon_pcells_reset(void)
{
	struct __mon_lease *l;
	struct pthr *p;
	size_t i, n = nrec();
	long v;

	MON_FOREACH_LEASE(&pthrs, l, p)
		for (i = 0; i < n; i++) {
			v = counts(i) && p->win != NULL ? *counter(p, i) : 0;
			if (v != 0 || p->t[i].count != 0 || p->t[i].snap != 0 ||
			    p->t[i].excluded != 0) {
				__mon_tally_reset(&p->t[i]);
				p->t[i].count = -v;
			}
		}
	__mon_arena_orphan(&pthrs);
	/* A thread the runtime did not know forked: known from now on. */
	(void)__mon_pcells_thread();
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
	struct __mon_lease *l;
	struct pthr *p;
	size_t n = __mon_arena_leased(&pthrs) + nrec() * sizeof(*cellof);

	MON_FOREACH_LEASE(&pthrs, l, p)
		if (p->win != NULL && p->win != __mon_pcells_lo)
			n += __mon_pcells_len;
	return n;
}
