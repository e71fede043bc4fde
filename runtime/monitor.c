/* SPDX-License-Identifier: MIT */
/*
 * monitor.c - monitor(), monstartup(), moncontrol(): set up the buffer,
 * switch profiling on and off, stop and write.
 *
 * A monitor() buffer, bufsize WORDs:
 *
 *	+------------+------------------+------------------------------+
 *	| struct hdr | struct cnt[nfunc] | WORD histogram ...           |
 *	+------------+------------------+------------------------------+
 *	 lpc hpc nfns  cells handed out    nbins = min(rest, (hpc-lpc+1)/2)
 *	               first, then runtime  bins over [lpc, hpc) uniformly
 *	               chunks
 *
 * States: inactive --monitor(lo,..)--> active --monitor(0)--> inactive
 * (written); moncontrol(0/1) switches counting and sampling while active.
 * Further monitor() calls add their cells and restart the histogram.
 */
#include <sys/mman.h>

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static struct __mon_chunk *
chunk_desc(void)
{
	struct __mon_chunk *c;

	c = mmap(NULL, sizeof(*c), PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return c == MAP_FAILED ? NULL : c;
}

int
__monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
    size_t bufsize, size_t nfunc)
{
	struct __mon_state *st = &__mon_state;
	struct __mon_chunk *c = NULL;
	uintptr_t lo = (uintptr_t)lowpc, hi = (uintptr_t)highpc;
	size_t ssiz, nbins, need;
	struct hdr *h;
	WORD *bins;

	if (lowpc == NULL) {
		__mon_monitor_stop(1);
		return 0;
	}
	if (buffer == NULL || lo >= hi ||
	    ((uintptr_t)buffer & (sizeof(long) - 1)) != 0 ||
	    nfunc > (SIZE_MAX - sizeof(struct hdr)) / sizeof(struct cnt)) {
		errno = EINVAL;
		return -1;
	}
	ssiz = (sizeof(struct hdr) + nfunc * sizeof(struct cnt)) / sizeof(WORD);
	if (ssiz >= bufsize) {
		errno = EINVAL;
		return -1;
	}
	__mon_env_load(&st->env);
	if (st->env.disabled) {
		/* PROFDIR set and empty: no profiling, as documented. */
		MON_STORE(&st->disabled, 1);
		return 0;
	}
	if (nfunc > 0 && (c = chunk_desc()) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	/* At most one bin per 2 bytes: more would not span [lo, hi). */
	need = (hi - lo) / 2 + (hi - lo) % 2;
	nbins = bufsize - ssiz < need ? bufsize - ssiz : need;
	h = (struct hdr *)buffer;
	h->lpc = (char *)lo;
	h->hpc = (char *)hi;
	h->nfns = nfunc;
	bins = buffer + ssiz;
	memset(h + 1, 0, nfunc * sizeof(struct cnt));
	memset(bins, 0, nbins * sizeof(WORD));
	if (c != NULL) {
		c->base = (char *)(h + 1);
		c->cap = nfunc;
		__mon_arena_add(&st->cells, c);
	}
	st->out.lpc = (char *)lo;
	st->out.hpc = (char *)hi;
	st->out_bins = bins;
	st->out_nbins = nbins;
	MON_STORE(&st->saturated, 0);
	MON_STORE(&st->outside, 0);
	MON_STORE(&st->samples, 0);
	__mon_hist_set(bins, nbins, lo, hi, 0, 0);
	MON_STORE(&st->active, 1);
	__mon_sampler_start();
	__moncontrol(1);
	return 0;
}

MON_WEAK_ALIAS(__monitor, monitor);

/* Stop sampling and counting; write the profile if asked and enabled. */
void
__mon_monitor_stop(int write)
{
	struct __mon_state *st = &__mon_state;
	char path[PATH_MAX];
	int zero = 0;

	/* monitor(0) in one thread while another exits: one stop only. */
	if (!MON_LOAD(&st->active) || !MON_CAS(&st->stopping, &zero, 1))
		return;
	__moncontrol(0);
	__mon_sampler_stop();
	if (write && !MON_LOAD(&st->disabled)) {
		if (__mon_out_path(path, sizeof(path)) == 0)
			__mon_out_write(path);
		else
			MON_ERR("monprof: profile file name too long\n");
		__mon_gmon_dump();
	}
	MON_STORE(&st->active, 0);
	MON_STORE(&st->stopping, 0);
	__mon_hist_set(NULL, 0, 0, 0, 0, 0);
}

/*
 * monstartup(lowpc, highpc): monitor() over [lowpc, highpc) with a buffer
 * of its own sized by monitor(3)'s formula (BARSIZE, MON_NFUNC cells);
 * (0, 0) profiles the main executable's text.
 */
int
__monstartup(char *lowpc, char *highpc)
{
	struct __mon_state *st = &__mon_state;
	uintptr_t lo = (uintptr_t)lowpc, hi = (uintptr_t)highpc;
	size_t bytes;
	void *buf;

	if (lo == 0 && hi == 0) {
		__mon_init_exe();
		lo = st->text_lo;
		hi = st->text_hi;
	}
	if (lo == 0 || lo >= hi) {
		errno = EINVAL;
		return -1;
	}
	/* Whole BARSIZE bins from an aligned lpc: a bin never straddles
	 * two functions' aligned starts. */
	lo &= ~(uintptr_t)(BARSIZE - 1);
	hi = (hi + BARSIZE - 1) & ~(uintptr_t)(BARSIZE - 1);
	bytes = sizeof(struct hdr) + MON_NFUNC * sizeof(struct cnt) +
	    ((hi - lo) / BARSIZE) * sizeof(WORD) + sizeof(WORD) - 1;
	buf = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		MON_ERR("monstartup: no memory for the profile buffer\n");
		errno = ENOMEM;
		return -1;
	}
	if (__monitor((int (*)(void))lo, (int (*)(void))hi, buf,
	    bytes / sizeof(WORD), MON_NFUNC) != 0) {
		munmap(buf, bytes);
		return -1;
	}
	return 0;
}

MON_WEAK_ALIAS(__monstartup, monstartup);

/* moncontrol(mode): 0 stops counting and sampling, else resumes; returns
 * the previous mode. */
int
__moncontrol(int mode)
{
	struct __mon_state *st = &__mon_state;
	int on = mode != 0, prev, zero = 0;

	/* Two threads switching at once would exclude calls twice. */
	while (!MON_CAS(&st->switching, &zero, 1)) {
		zero = 0;
		sched_yield();
	}
	if ((prev = MON_LOAD(&st->on)) == on) {
		MON_STORE(&st->switching, 0);
		return prev;
	}
	/* The sampler switches while the mode is still off. */
	if (!on)
		__mon_sampler_control(0);
	__mon_cells_control(on);
	if (on)
		__mon_sampler_control(1);
	MON_STORE(&st->on, on);
	MON_STORE(&st->switching, 0);
	return prev;
}

MON_WEAK_ALIAS(__moncontrol, moncontrol);
