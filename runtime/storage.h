/* SPDX-License-Identifier: MIT */
/*
 * storage.h - where calls are counted (mode.c, arena.c, cells.c,
 * arcs.c).  The words, once:
 *
 * cell	 a struct cnt (mon.h), one per function: fnpc, a pc inside it, and
 *	 mcnt, filled in only when a profile is written.  The plugin gives
 *	 each function a static pointer to it; the first call allocates it.
 * word	 the pointer the function's inline code increments through (mon.h);
 *	 thread-local in the default update=thread mode.
 * counter (-p, hook ABI 7) an executable function's long, counted at
 *	 the thread's %gs base plus its address: the executable's own in
 *	 the first thread, the same offset of a window per other thread
 *	 (pcells.c).
 * slot	 (-p) the counter a word points at: one per function and thread
 *	 (one per function in the shared modes).  The writer sums a
 *	 function's slots into its cell ("fold").
 * area	 (hook ABI 6) a thread's words of -fPIC code, which has no
 *	 thread-local storage of its own: one mapping per thread, reached
 *	 through one thread-local pointer, a unit's words at the offset
 *	 its constructor registered (area.c).
 * arc	 (-pg) a caller -> callee count in its thread's own table; the
 *	 function's thread-local arc cache points at the last one used.  A
 *	 -pg function's count is the sum of its arcs.
 * tally the count in a slot or an arc, with what moncontrol(0) excluded.
 * mode	 moncontrol's: whether calls and samples count now.
 * arena a list of chunks that elements (cells, slots) are handed out from
 *	 by an atomic bump, without limit and never freed.
 * lease storage one thread at a time counts in (its slots, its arc
 *	 table): released when the thread ends, adopted whole, counts and
 *	 all, by a thread that starts later.  Never freed either.
 *
 * The hooks reach cells, slots and arcs before any constructor, in
 * signal handlers and in every thread: everything they call here uses
 * atomics, mmap and system calls only (and, once a thread, glibc's
 * pthread_setspecific: arena.c), no malloc, lock, stdio or errno change,
 * and (x86-64) general registers only, as the stubs save no others.
 */
#ifndef MON_STORAGE_H
#define MON_STORAGE_H

#include "process.h"

/* mode.c */
int	 __mon_mode_on(void) MON_HIDDEN;
void	 __mon_mode_set(int) MON_HIDDEN;

/*
 * arena.c.  A chunk holds equal-size elements; chunks form a list in
 * creation order (a sentinel head, lock-free append).  Runtime-owned
 * chunks live at the start of their own mapping; a monitor() buffer's
 * cells are a chunk whose storage is the program's.
 */
struct __mon_chunk {
	struct __mon_chunk *next;
	char		*base;
	size_t		 cap;		/* elements */
	size_t		 used;		/* elements handed out; may pass cap */
	size_t		 maplen;	/* bytes mapped for this chunk, or 0 */
};

struct __mon_arena {
	struct __mon_chunk  head;	/* sentinel, never holds elements */
	struct __mon_chunk *tail;
	struct __mon_chunk *cur;	/* the chunk allocations come from */
	size_t		 elsize;
	size_t		 chunklen;	/* bytes per runtime-owned chunk */
};

#define MON_CHUNK_HDR	64	/* a runtime-owned chunk's header */
#define MON_ARENA_INIT(a, type) MON_ARENA_INIT_LEN(a, type, 64 * 1024)
#define MON_ARENA_INIT_LEN(a, type, len) {				\
	.tail = &(a).head, .elsize = sizeof(type), .chunklen = (len) }

/* Every element p handed out by arena a (chunk c, index i). */
#define MON_FOREACH(a, c, i, p)						\
	for ((c) = MON_LOAD(&(a)->head.next); (c) != NULL;		\
	    (c) = MON_LOAD(&(c)->next))					\
		for ((i) = 0; (i) < MON_LOAD(&(c)->used) && (i) < (c)->cap; \
		    (i)++)						\
			if (((p) = (void *)((c)->base +			\
			    (i) * (a)->elsize)), 1)

void	*__mon_arena_map(size_t) MON_HIDDEN;
void	*__mon_arena_alloc(struct __mon_arena *) MON_HIDDEN;
int	 __mon_arena_lend(struct __mon_arena *, void *, size_t) MON_HIDDEN;
void	 __mon_arena_start(struct __mon_arena *, size_t, size_t,
	    struct __mon_chunk *, void *, size_t) MON_HIDDEN;
size_t	 __mon_arena_mapped(const struct __mon_arena *) MON_HIDDEN;

/*
 * A lease (arena.c): a mapping with this header, then the leased bytes.
 * state: held by a live thread, frozen (its holder took a bigger one:
 * counted, never handed on), or released by thread tid, kept in the
 * word itself so that a CAS on it fails if the lease changed hands.
 */
struct __mon_lease {
	struct __mon_lease  *next;	/* its list's leases, newest first */
	struct __mon_leases *list;
	long		 state;		/* MON_LEASE_* */
	size_t		 maplen;	/* 0: from its list's pool */
	long		 tid;		/* its holder, or its last */
};

#define MON_LEASE_HDR		64
#define MON_LEASE_HELD		1
#define MON_LEASE_FROZEN	2
#define MON_LEASE_RELEASED(tid)	((long)(tid) * 4)
#define MON_LEASE_TID(state)	((state) / 4)

/*
 * The leases of one kind; a thread holds at most one of each list.
 * Leases of the pool's element size come from the pool, the others
 * from mappings of their own.
 */
struct __mon_leases {
	struct __mon_lease *all;
	long		 released;	/* about how many are released */
	int		 index;		/* < MON_LEASE_LISTS */
	struct __mon_arena *pool;	/* or NULL */
};

#define MON_LEASE_SLOTS		0	/* cells.c */
#define MON_LEASE_ARCS		1	/* arcs.c */
#define MON_LEASE_PCELLS	2	/* pcells.c */
#define MON_LEASE_AREAS		3	/* area.c */
#define MON_LEASE_LISTS		4
#define MON_LEASES_INIT(i)	{ .index = (i) }
#define MON_LEASES_POOL(i, p)	{ .index = (i), .pool = &(p) }

static inline void *
__mon_lease_data(struct __mon_lease *l)
{
	return (char *)l + MON_LEASE_HDR;
}

/* The data p of every lease l of list ls. */
#define MON_FOREACH_LEASE(ls, l, p)					\
	for ((l) = MON_LOAD(&(ls)->all); (l) != NULL; (l) = (l)->next)	\
		if (((p) = __mon_lease_data(l)), 1)

void	*__mon_arena_lease(struct __mon_leases *, size_t) MON_HIDDEN;
void	*__mon_arena_adopt(struct __mon_leases *) MON_HIDDEN;
size_t	 __mon_arena_leased(const struct __mon_leases *) MON_HIDDEN;
void	 __mon_arena_orphan(struct __mon_leases *) MON_HIDDEN;
void	 __mon_arena_atend(void (*)(void)) MON_HIDDEN;
void	 __mon_arena_keep(struct __mon_leases *) MON_HIDDEN;
void	 __mon_arena_loose(void) MON_HIDDEN;

/*
 * A tally: a count the hot path increments with no test of the mode, and
 * what the writer reports of it: (on ? count : snap) - excluded.
 * moncontrol(0) records snap = count; moncontrol(1) adds the calls made
 * meanwhile to excluded; a -sigdump zeroing excludes all so far.  Made
 * while off, it has snap 0: all its calls are excluded.
 */
struct __mon_tally {
	long		 count;
	long		 snap;
	long		 excluded;
};

static inline long
__mon_tally_value(const struct __mon_tally *t, int on)
{
	return (on ? MON_LOAD(&t->count) : MON_LOAD(&t->snap)) -
	    MON_LOAD(&t->excluded);
}

static inline void
__mon_tally_control(struct __mon_tally *t, int on)
{
	long v = MON_LOAD(&t->count);

	if (on)
		MON_STORE(&t->excluded, t->excluded + v - t->snap);
	else
		MON_STORE(&t->snap, v);
}

static inline void
__mon_tally_zero(struct __mon_tally *t, int on)
{
	MON_STORE(&t->excluded, on ? MON_LOAD(&t->count) : t->snap);
}

/* fork child: alone in its process, it starts from zero. */
static inline void
__mon_tally_reset(struct __mon_tally *t)
{
	t->count = 0;
	t->snap = 0;
	t->excluded = 0;
}

/* area.c */
extern __thread char *__mon_area_mine MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));
void	 __mon_area_add(long *, long) MON_EXPORT;
long	 __mon_area_words(long) MON_HIDDEN;
char	*__mon_area_get(void) MON_HIDDEN;
long	**__mon_area_word(long) MON_HIDDEN;
size_t	 __mon_area_mapped(void) MON_HIDDEN;
void	 __mon_area_reset(void) MON_HIDDEN;

/*
 * pcells.c: the executable's counters (hook ABI 7), read in the window
 * of each thread that holds a lease; cells.c
 * folds them with its slots (claim: __mon_cells_claim; whose: which
 * leases' holders count, NULL: all).
 */
int	 __mon_pcells_thread(void) MON_HIDDEN;
int	 __mon_pcells_at_gs(void) MON_HIDDEN;
long	**__mon_pcells_word(long **) MON_HIDDEN;
extern char *__mon_pcells_lo MON_HIDDEN;
extern size_t __mon_pcells_len MON_HIDDEN;
extern __thread char *__mon_pcells_win MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));
/*
 * The words a window's holders set (their offsets), for the next holder
 * to zero; n past MON_PCELLS_DIRTY: too many, zeroed by the pages.
 */
#define MON_PCELLS_DIRTY	30
struct __mon_pcells_dirty {
	unsigned long	 n;
	uint32_t	 off[MON_PCELLS_DIRTY];
};
extern __thread struct __mon_pcells_dirty *__mon_pcells_dirty MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));
void	 __mon_pcells_claim(struct cnt *(*)(struct cnt **, char *, int))
	    MON_HIDDEN;
void	 __mon_pcells_add(int, int (*)(long, long, int), long, int) MON_HIDDEN;
void	 __mon_pcells_control(int) MON_HIDDEN;
void	 __mon_pcells_zero(long, int) MON_HIDDEN;
void	 __mon_pcells_reset(void) MON_HIDDEN;
void	 __mon_pcells_keep(void) MON_HIDDEN;
size_t	 __mon_pcells_mapped(void) MON_HIDDEN;

/*
 * cells.c.  Slots are never freed: a thread's outlive it, and a thread
 * that starts later counts on in them (a lease).
 */
struct __mon_slot {
	struct cnt	*cell;
	struct __mon_tally n;
};

struct cnt *__mon_cells_claim(struct cnt **, char *, int) MON_HIDDEN;
struct __mon_slot *__mon_cells_slot(struct cnt *) MON_HIDDEN;
int	 __mon_cells_lend(struct cnt *, size_t) MON_HIDDEN;
void	 __mon_cells_thread(void) MON_HIDDEN;
long	 __mon_cells_threads(void) MON_HIDDEN;
size_t	 __mon_cells_fold(void) MON_HIDDEN;
void	 __mon_cells_each(void (*)(struct cnt *, void *), void *) MON_HIDDEN;
size_t	 __mon_cells_unused(void) MON_HIDDEN;
int	 __mon_cells_within(uintptr_t, uintptr_t) MON_HIDDEN;
size_t	 __mon_cells_mapped(void) MON_HIDDEN;
void	 __mon_cells_control(int) MON_HIDDEN;
void	 __mon_cells_zero(void) MON_HIDDEN;
void	 __mon_cells_reset(void) MON_HIDDEN;
long	 __mon_cells_sid(long) MON_HIDDEN;
void	 __mon_cells_sid_end(void) MON_HIDDEN;
void	 __mon_cells_sids(void (*)(long, long, void *), void *) MON_HIDDEN;
int	 __mon_cells_whose(long, long, int) MON_HIDDEN;
size_t	 __mon_cells_fold_tid(long, int) MON_HIDDEN;
void	 __mon_cells_zero_tid(long) MON_HIDDEN;
void	 __mon_cells_keep(void) MON_HIDDEN;

/*
 * arcs.c.  An arc is counted in place by its owner thread only (the
 * inline fast path increments n.count through the function's arc cache,
 * mon.h); from and cell never change once cell is set.
 */
struct __mon_arc {
	uintptr_t	 from;		/* return address into the caller */
	struct cnt	*cell;		/* the callee; NULL: entry free */
	struct __mon_tally n;
};

/*
 * A thread's open-addressing arc table (a lease, never freed: a thread
 * that starts once it has ended counts on in it).  When it fills up, its
 * thread starts a table twice the size and the old one is frozen: it
 * keeps its counts (the writer sums every table), so a count that lands
 * late in it is not lost.  The x86-64 stub reads mask, shift and arc at
 * fixed offsets (stub.c).
 */
struct __mon_arctab {
	size_t		 used;
	size_t		 mask;		/* entries - 1, a power of two - 1 */
	unsigned int	 shift;		/* 64 - log2(entries) */
	size_t		 maplen;	/* the shared table's mapping, or 0 */
	struct __mon_sitemap *sites;	/* its holder's call-site words */
	struct __mon_arc arc[];
};

/*
 * A table's blocks of call-site words (sites.c), [lo, hi) each: r[0]
 * the executable's, r[k] a shared object's.  The x86-64 stub stores an
 * arc only inside one of the first n (stub.c).
 */
#define MON_SITES_MAX	32	/* the executable and 31 shared objects */
struct __mon_sitemap {
	long		 n;
	struct { char *lo, *hi; } r[MON_SITES_MAX];
	unsigned long	 gen[MON_SITES_MAX];	/* of r[k]'s object */
};

extern __thread void *volatile __mon_site_rec MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));
extern __thread long __mon_site_bias MON_EXPORT
    __attribute__((__tls_model__("initial-exec")));

void	 __mon_sites_follow(struct __mon_arctab *, struct __mon_arctab *)
	    MON_HIDDEN;
void	 __mon_sites_look(struct __mon_arctab *) MON_HIDDEN;
void	 __mon_sites_end(struct __mon_arctab *) MON_HIDDEN;
size_t	 __mon_sites_mapped(void) MON_HIDDEN;
void	 __mon_sites_reset(void) MON_HIDDEN;
void	 __mon_sites_add(long *, long *, long *) MON_EXPORT;
void	 __mon_sites_del(long *) MON_EXPORT;

/* A thread's -pg state; the x86-64 stub reads tab (stub.c). */
struct __mon_arc_thread {
	struct __mon_arctab *tab;	/* this thread's current table */
	int		 busy;		/* inserting into tab */
};

extern __thread struct __mon_arc_thread __mon_arcs_mine MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));

struct __mon_arc *__mon_arcs_count(struct cnt **, uintptr_t, char *)
	    MON_HIDDEN;
struct __mon_arc *__mon_arcs_slow(struct cnt **, uintptr_t, char *)
	    MON_HIDDEN;
int	 __mon_arcs_used(void) MON_HIDDEN;
long	 __mon_arcs_lost(void) MON_HIDDEN;
size_t	 __mon_arcs_mapped(void) MON_HIDDEN;
void	 __mon_arcs_each(void (*)(uintptr_t, struct cnt *, long, void *),
	    void *) MON_HIDDEN;
void	 __mon_arcs_fold(void) MON_HIDDEN;
void	 __mon_arcs_fold_tid(long, int) MON_HIDDEN;
void	 __mon_arcs_keep(int) MON_HIDDEN;
void	 __mon_arcs_control(int) MON_HIDDEN;
void	 __mon_arcs_zero(void) MON_HIDDEN;
void	 __mon_arcs_reset(void) MON_HIDDEN;

#endif /* MON_STORAGE_H */
