/* SPDX-License-Identifier: MIT */
/*
 * internal.h - the runtime's only private header: the global state and
 * the __mon_<module>_<verb> internals shared between runtime files.
 *
 * Everything here is hidden; only the public API (weak aliases) and the
 * hook __mon_mcount_slow are exported.
 */
#ifndef MON_INTERNAL_H
#define MON_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "mon.h"

#define MON_HIDDEN	__attribute__((__visibility__("hidden")))
#define MON_EXPORT	__attribute__((__visibility__("default")))
#define MON_WEAK_ALIAS(old, new)					\
	extern __typeof(old) new					\
	    __attribute__((__weak__, __alias__(#old), __visibility__("default")))

/* One line on stderr with a raw write: no stdio, no errno change. */
#define MON_ERR(s)	__mon_err((s), sizeof(s) - 1)

#define MON_LOAD(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define MON_STORE(p, v)		__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define MON_ADD(p, v)		__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define MON_CAS(p, e, v)						\
	__atomic_compare_exchange_n((p), (e), (v), 0, __ATOMIC_ACQ_REL,	\
	    __ATOMIC_ACQUIRE)

#define MON_RATE_DEFAULT	1000	/* Hz, perf_event sampler */
#define MON_RATE_MAX		100000	/* the kernel's default sample cap */

/*
 * A chunk of equal-size elements handed out by an atomic bump; chunks
 * form a list in creation order (a sentinel head, lock-free append).
 * Runtime-owned chunks live at the start of their own mapping; a
 * monitor() buffer's cell region is a chunk whose storage is the user's.
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

/*
 * A count the hot path increments with no test of the mode, and what
 * the writer reports of it: (on ? count : snap) - excluded.
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

/*
 * A counter: one per (function, thread) in the per-thread hook mode,
 * one per function otherwise; the hook's word points at its count.
 * Slots are never freed; a thread's slots outlive it and are summed at
 * write.
 */
struct __mon_slot {
	struct cnt	*cell;
	struct __mon_tally n;
};

/* Every element p handed out by arena a (chunk c, index i). */
#define MON_FOREACH(a, c, i, p)						\
	for ((c) = MON_LOAD(&(a)->head.next); (c) != NULL;		\
	    (c) = MON_LOAD(&(c)->next))					\
		for ((i) = 0; (i) < MON_LOAD(&(c)->used) && (i) < (c)->cap; \
		    (i)++)						\
			if (((p) = (void *)((c)->base +			\
			    (i) * (a)->elsize)), 1)

/* Where a sample goes: uniform over [lpc, hpc), or profil(2)'s formula. */
struct __mon_hist {
	unsigned int	 seq;		/* odd while being changed */
	WORD		*bins;
	size_t		 nbins;
	uintptr_t	 lpc;		/* uniform mode (scale == 0) */
	uintptr_t	 hpc;
	uintptr_t	 offset;	/* profil mode */
	unsigned int	 scale;
};

/*
 * -pg: one caller -> callee arc, counted in place by its owner thread
 * only (the hook's inline fast path increments n.count through the
 * function's thread-local arc cache, mon.h).  from and cell never change
 * once cell is set.
 */
struct __mon_arc {
	uintptr_t	 from;		/* return address into the caller */
	struct cnt	*cell;		/* the callee; NULL: entry free */
	struct __mon_tally n;
};

/*
 * A thread's open-addressing arc table (mmap'd, never freed).  When it
 * fills up, its thread starts a table twice the size and the old one is
 * frozen: it keeps its counts (the writer sums every table), so a count
 * that lands late in it is not lost.
 */
struct __mon_arctab {
	struct __mon_arctab *next;	/* every table, newest first */
	size_t		 mask;		/* entries - 1, a power of two - 1 */
	unsigned int	 shift;		/* 64 - log2(entries) */
	size_t		 used;
	size_t		 maplen;
	struct __mon_arc arc[];
};

/* A thread's -pg state (arcs.c, stub.c). */
struct __mon_arc_thread {
	struct __mon_arctab *tab;	/* this thread's current table */
	int		 busy;		/* inserting into tab */
};

/* PROFDIR and PROFFLAGS, as parsed by env.c. */
struct __mon_env {
	int		 disabled;	/* PROFDIR set and empty */
	int		 disable_default;
	int		 pids;		/* -1: default (pids when a dir is set) */
	int		 itimer;	/* force the setitimer sampler */
	int		 nofatal;	/* no write when a signal kills us */
	long		 rate;		/* Hz requested, 0: default */
	int		 sigdump;	/* signal number, 0: none */
	char		 dir[PATH_MAX];	/* "" : current directory */
	char		 gmon_prefix[PATH_MAX];	/* GMON_OUT_PREFIX, "": unset */
};

struct __mon_state {
	int		 disabled;	/* PROFDIR empty: bind hooks to a sink */
	int		 active;	/* monitor() started and not stopped */
	int		 on;		/* moncontrol() mode */
	int		 writing;	/* writer guard */
	int		 switching;	/* moncontrol guard: one switch at a time */
	int		 stopping;	/* monitor(0)/exit guard: one stop */
	int		 zero_after_dump; /* -sigdump */
	struct __mon_arena cells;
	struct __mon_arena slots;
	struct __mon_arena arcs;	/* -pg cells; counts come from arcs */
	int		 pg;		/* a -pg hook ran: write gmon.out */
	long		 arcs_lost;	/* calls not counted: no memory */
	struct __mon_hist  hist;	/* what the sampler fills */
	struct hdr	 out;		/* the histogram mon.out gets */
	WORD		*out_bins;
	size_t		 out_nbins;
	/* the main executable, found at start */
	uintptr_t	 bias;
	uintptr_t	 image_lo, image_hi;	/* all PT_LOADs, runtime */
	uintptr_t	 text_lo, text_hi;	/* PF_X PT_LOADs, runtime */
	long		 buildid;
	char		 progname[256];
	struct __mon_env env;
	/* sampler */
	int		 sampler;	/* MON_SAMPLER_* running */
	int		 sampled;	/* MON_SAMPLER_* last started */
	long		 rate;		/* Hz requested */
	long		 samples;
	long		 saturated;
	long		 outside;
	long		 lost;
	long		 threads;
	long		 cpu_ns;	/* CPU time sampled while on (itimer) */
	long		 cpu_since;	/* process CPU clock when last on */
};

extern struct __mon_state __mon_state MON_HIDDEN;

/* cells.c */
void	*__mon_arena_alloc(struct __mon_arena *) MON_HIDDEN;
void	 __mon_arena_add(struct __mon_arena *, struct __mon_chunk *) MON_HIDDEN;
size_t	 __mon_cells_fold(void) MON_HIDDEN;
void	 __mon_cells_control(int) MON_HIDDEN;
void	 __mon_cells_zero(void) MON_HIDDEN;
void	 __mon_cells_reset(void) MON_HIDDEN;

/* arcs.c */
void	 __mon_arcs_each(void (*)(uintptr_t, struct cnt *, long, void *),
	    void *) MON_HIDDEN;
void	 __mon_arcs_zero(void) MON_HIDDEN;
void	 __mon_arcs_control(int) MON_HIDDEN;
void	 __mon_arcs_reset(void) MON_HIDDEN;
struct __mon_arc *__mon_arc_slow(struct cnt **, uintptr_t, char *)
	    MON_HIDDEN;
extern __thread struct __mon_arc_thread __mon_arc_mine MON_HIDDEN
    __attribute__((__tls_model__("initial-exec")));

/* mcount.c */
void	 __mon_mcount_slow_at(long **, struct cnt **, char *) MON_HIDDEN;
struct cnt *__mon_mcount_cell(struct __mon_arena *, struct cnt **, char *)
	    MON_HIDDEN;

/* env.c */
int	 __mon_env_parse(struct __mon_env *, const char *, const char *)
	    MON_HIDDEN;
void	 __mon_env_load(struct __mon_env *) MON_HIDDEN;
int	 __mon_env_path(const struct __mon_env *, const char *, long,
	    char *, size_t) MON_HIDDEN;
int	 __mon_env_gmon_path(const struct __mon_env *, const char *, long,
	    char *, size_t) MON_HIDDEN;

/* profil.c */
size_t	 __mon_profil_index(uintptr_t, uintptr_t, unsigned int) MON_HIDDEN;
void	 __mon_hist_set(WORD *, size_t, uintptr_t, uintptr_t, uintptr_t,
	    unsigned int) MON_HIDDEN;
void	 __mon_hist_tick(uintptr_t) MON_HIDDEN;
int	 __mon_sampler_start(void) MON_HIDDEN;
void	 __mon_sampler_stop(void) MON_HIDDEN;
void	 __mon_sampler_drain(void) MON_HIDDEN;
void	 __mon_sampler_child(void) MON_HIDDEN;
long	 __mon_sampler_rate(void) MON_HIDDEN;
void	 __mon_sampler_control(int) MON_HIDDEN;

/* perf.c */
int	 __mon_perf_start(long) MON_HIDDEN;
void	 __mon_perf_stop(void) MON_HIDDEN;
void	 __mon_perf_enable(int) MON_HIDDEN;
void	 __mon_perf_drain(int) MON_HIDDEN;
void	 __mon_perf_forget(void) MON_HIDDEN;

/* outfile.c: one output file, whole or not at all */
struct __mon_wbuf {
	int	 fd;
	int	 err;
	size_t	 n;
	char	 b[4096];
};

void	 __mon_outfile_put(struct __mon_wbuf *, const void *, size_t)
	    MON_HIDDEN;
void	 __mon_outfile_flush(struct __mon_wbuf *) MON_HIDDEN;
int	 __mon_outfile_write(const char *,
	    int (*)(struct __mon_wbuf *, void *), void *) MON_HIDDEN;

/* gmonout.c */
int	 __mon_gmon_write(const char *) MON_HIDDEN;
int	 __mon_gmon_dump(void) MON_HIDDEN;

/* monout.c */
int	 __mon_out_write(const char *) MON_HIDDEN;
int	 __mon_out_path(char *, size_t) MON_HIDDEN;
uintptr_t __mon_out_linktime(uintptr_t) MON_HIDDEN;
void	 __mon_out_cell(struct __mon_wbuf *, uintptr_t, long) MON_HIDDEN;

/* objects.c */
size_t	 __mon_objects_put(struct __mon_wbuf *) MON_HIDDEN;

/* monitor.c */
int	 __monitor(int (*)(void), int (*)(void), WORD *, size_t, size_t)
	    MON_HIDDEN;
int	 __monstartup(char *, char *) MON_HIDDEN;
int	 __moncontrol(int) MON_HIDDEN;
void	 __mon_monitor_stop(int) MON_HIDDEN;

/* signal.c */
void	 __monitor_signal(int) MON_HIDDEN;
int	 __mon_signal_dump(void) MON_HIDDEN;
void	 __mon_signal_setup(void) MON_HIDDEN;
void	 __mon_signal_fatal_setup(void) MON_HIDDEN;

/* profil.c */
int	 __profil(unsigned short *, size_t, size_t, unsigned int) MON_HIDDEN;

/* init.c */
void	 __mon_init(void) MON_EXPORT;
void	 __mon_err(const char *, size_t) MON_HIDDEN;
void	 __mon_init_exe(void) MON_HIDDEN;
long	 __mon_note_buildid(const char *, size_t) MON_HIDDEN;
size_t	 __mon_fmt_ulong(char *, unsigned long) MON_HIDDEN;

#endif /* MON_INTERNAL_H */
