/* SPDX-License-Identifier: MIT */
/*
 * objects.c - for mon.out, the executable mappings of shared objects
 * that hold counted functions or samples, or that a sampled call stack
 * goes through (MON_META_OBJECT records, mon.h), so that prof can name
 * their functions from the object files, and the samples outside the
 * histogram by object (pcs.c keeps them by pc); and the objects a
 * dlclose() took away.  monout.c writes the records.
 *
 * An object that dlclose() unmaps is retired: its cells, samples and
 * stack frames move from its run-time addresses to a range of its own
 * above every user address (RETIRED_BASE), where no later object can be
 * mapped, and it is written from there with its path and build-id.
 * Loaded and closed again, it goes to the same range, so the profile
 * does not grow with each cycle.
 */
#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "writer.h"

#define RETIRED_BASE	((uintptr_t)1 << 47)	/* not a user address */
#define RETIRED_SPAN	((uintptr_t)1 << 36)	/* room for each */
#define RETIRED_MAX	256
#define SNAP_MAX	512
#define SNAP_PATH	1024	/* longer paths are not retired */

/* The writer's buffers: it runs under its guard, one at a time. */
static struct __mon_maps wmaps;

/* An object's mapping as the writer and the retired list know it. */
struct object {
	uintptr_t	 len;
	uintptr_t	 off;
	long		 buildid;
	char		 path[SNAP_PATH];
};

/* Retired objects, each at RETIRED_BASE + k * RETIRED_SPAN. */
static struct object retired[RETIRED_MAX];
static size_t nretired;			/* published after the entry */

/* A mapping before a dlclose(), and whether it is still there after. */
struct snapshot {
	uintptr_t	 lo;
	struct object	 o;
	int		 still;
};

/*
 * dlclose(): the mappings before it, and its buffers, under a lock.
 * The snapshots (550 KB) are mapped at the first dlclose(), not in
 * every program's address space.
 */
static struct {
	pthread_mutex_t	 lock;
	struct __mon_maps maps;
	struct snapshot	*snap;
	size_t		 n;
} dl = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* What a record's samples go through: the sum, or each as a cell. */
struct samples {
	void		(*put)(long, long, void *);
	void		*arg;
	long		 key;		/* the SAMPLE key, 0: only sum */
	uintptr_t	 base;		/* subtracted from each pc */
	long		 sum;
};

static void
sample(uintptr_t pc, long n, void *arg)
{
	struct samples *s = arg;
	long k;

	s->sum += n;
	for (; s->key != 0 && n > 0; n -= k) {
		k = n < MON_SAMPLE_MAX ? n : MON_SAMPLE_MAX;
		s->put(s->key, (long)((pc - s->base) << 16) | k, s->arg);
	}
}

/* The samples in [lo, hi): their sum, and under key each bucket. */
static long
samples(struct __mon_objects_out *o, uintptr_t lo, uintptr_t hi, long key,
    uintptr_t base)
{
	struct samples s = { o->put, o->arg, 0, base, 0 };

	/* -threads: a thread's samples are all in pcs.c, by thread. */
	__mon_pcs_each(lo, hi, sample, &s);
	if (!o->thread)
		__mon_hist_ranges_each(lo, hi, sample, &s);
	if (key != 0 && o->detail && s.sum > 0) {
		s.key = key;
		s.sum = 0;
		__mon_pcs_each(lo, hi, sample, &s);
		if (!o->thread)
			__mon_hist_ranges_each(lo, hi, sample, &s);
	}
	return s.sum;
}

/* A path as put(key, 8 bytes of it, arg) cells, the last with its NUL. */
void
__mon_objects_path(void (*put)(long, long, void *), void *arg, long key,
    const char *path)
{
	size_t len = strlen(path), i;
	long v;

	for (i = 0; i <= len; i += sizeof(v)) {
		v = 0;
		memcpy(&v, path + i, len + 1 - i < sizeof(v) ?
		    len + 1 - i : sizeof(v));
		put(key, v, arg);
	}
}

/* The record of the object o at lo, with its cells and sum samples. */
static void
record(struct __mon_objects_out *o, uintptr_t lo, uintptr_t hi,
    uintptr_t off, long buildid, const char *path, int cells, long sum)
{
	o->put(MON_META_OBJECT, (long)lo, o->arg);
	o->put(MON_META_OBJECT_END, (long)hi, o->arg);
	o->put(MON_META_OBJECT_OFFSET, (long)off, o->arg);
	if (buildid != 0)
		o->put(MON_META_OBJECT_BUILDID, buildid, o->arg);
	__mon_objects_path(o->put, o->arg, MON_META_OBJECT_PATH, path);
	o->put(MON_META_OBJECT_SAMPLES, sum, o->arg);
	o->objects += sum;
	if (__mon_env_selects(path, cells))
		samples(o, lo, hi, MON_META_OBJECT_SAMPLE, lo);
}

/*
 * A mapping: the executable's samples are put as its own (link-time
 * pcs); another object's mapping that has cells or samples gets a
 * record, and its samples: by bucket if PROFFLAGS selects it, else
 * their sum only.
 */
static void
mapping(const struct __mon_mapping *m, void *arg)
{
	struct __mon_objects_out *o = arg;
	long sum;
	int cells;

	if (__mon_exe_overlaps(m->lo, m->hi)) {
		o->exe += samples(o, m->lo, m->hi, MON_META_EXE_SAMPLE,
		    m->lo - __mon_exe_linktime(m->lo));
		return;
	}
	cells = __mon_cells_within(m->lo, m->hi);
	sum = samples(o, m->lo, m->hi, 0, 0);
	/* A stack through it names it too. */
	if (cells || sum != 0 || __mon_stacks_in(m->lo, m->hi))
		record(o, m->lo, m->hi, m->off, m->buildid, m->path, cells,
		    sum);
}

/*
 * Each record's cells, and the executable's samples outside the
 * histogram, as o->put(key, value, o->arg); o->exe and o->objects say
 * how many samples they held.  Retired objects come last.
 */
void
__mon_objects_records(struct __mon_objects_out *o)
{
	uintptr_t lo;
	size_t k, n = MON_LOAD(&nretired);
	long sum;
	int cells;

	__mon_maps_each(&wmaps, mapping, o);
	for (k = 0; k < n; k++) {
		lo = RETIRED_BASE + k * RETIRED_SPAN;
		cells = __mon_cells_within(lo, lo + retired[k].len);
		sum = samples(o, lo, lo + retired[k].len, 0, 0);
		if (cells || sum != 0 ||
		    __mon_stacks_in(lo, lo + retired[k].len))
			record(o, lo, lo + retired[k].len, retired[k].off,
			    retired[k].buildid, retired[k].path, cells, sum);
	}
}

static void
snap(const struct __mon_mapping *m, void *arg)
{
	size_t len = strlen(m->path);

	(void)arg;
	if (dl.snap == NULL || dl.n == SNAP_MAX || len >= SNAP_PATH ||
	    __mon_exe_overlaps(m->lo, m->hi))
		return;
	dl.snap[dl.n].lo = m->lo;
	dl.snap[dl.n].o.len = m->hi - m->lo;
	dl.snap[dl.n].o.off = m->off;
	dl.snap[dl.n].o.buildid = m->buildid;
	memcpy(dl.snap[dl.n].o.path, m->path, len + 1);
	dl.snap[dl.n++].still = 0;
}

static void
still(const struct __mon_mapping *m, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < dl.n; i++)
		if (dl.snap[i].lo == m->lo &&
		    dl.snap[i].o.len == m->hi - m->lo &&
		    strcmp(dl.snap[i].o.path, m->path) == 0)
			dl.snap[i].still = 1;
}

/* Where cells in [lo, lo + len) go: to the same place at to. */
struct move {
	uintptr_t	 lo, len, to;
};

static void
move_cell(struct cnt *c, void *arg)
{
	const struct move *m = arg;
	uintptr_t pc = (uintptr_t)MON_LOAD(&c->fnpc);

	if (pc - m->lo < m->len)
		MON_STORE(&c->fnpc, (char *)(m->to + (pc - m->lo)));
}

/* The retired range of object o: the one it had, or a new one; -1: full. */
static long
retire_slot(const struct object *o)
{
	size_t k;

	for (k = 0; k < nretired; k++)
		if (retired[k].len == o->len && retired[k].off == o->off &&
		    retired[k].buildid == o->buildid &&
		    strcmp(retired[k].path, o->path) == 0)
			return (long)k;
	if (k == RETIRED_MAX || o->len > RETIRED_SPAN)
		return -1;
	retired[k] = *o;
	MON_STORE(&nretired, k + 1);
	return (long)k;
}

/* Before dlclose(): the mappings it may take away.  Holds a lock. */
void
__mon_objects_closing(void)
{
	void *m;
	int saved = errno;

	pthread_mutex_lock(&dl.lock);
	dl.n = 0;
	if (dl.snap == NULL && (m = mmap(NULL, SNAP_MAX * sizeof(*dl.snap),
	    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) !=
	    MAP_FAILED)
		dl.snap = m;
	errno = saved;
	__mon_maps_each(&dl.maps, snap, NULL);
}

/* After it: every mapping that went is retired.  Lets the lock go. */
void
__mon_objects_closed(void)
{
	struct move m;
	size_t i;
	long k;

	/* Samples the sampler still holds are of the objects as they were. */
	__mon_sampler_drain();
	__mon_maps_each(&dl.maps, still, NULL);
	for (i = 0; i < dl.n; i++) {
		if (dl.snap[i].still || (k = retire_slot(&dl.snap[i].o)) < 0)
			continue;
		m.lo = dl.snap[i].lo;
		m.len = dl.snap[i].o.len;
		m.to = RETIRED_BASE + (uintptr_t)k * RETIRED_SPAN;
		__mon_cells_each(move_cell, &m);
		__mon_pcs_move(m.lo, m.lo + m.len, m.to);
		__mon_stacks_move(m.lo, m.lo + m.len, m.to);
	}
	pthread_mutex_unlock(&dl.lock);
}
