/* SPDX-License-Identifier: MIT */
/*
 * hooks.h - the plugin's -p fast path, by hand, for the tests that call
 * the runtime without the plugin: the unit tests call mon_hook_count()
 * with words and cells of their own; an e2e program puts MON_COUNT() at
 * the top of a function, which does what the plugin inserts (mon.h,
 * hook ABI): a shared cell word, a thread-local counter word, the
 * increment, and __mon_mcount_slow on the first call.  Define
 * MON_HOOK_SHARED before including it for the single/atomic mode (one
 * counter word shared by all threads).
 */
#ifndef HOOKS_H
#define HOOKS_H

#include <time.h>

#include "mon_abi.h"

#ifdef MON_HOOK_SHARED
#define MON_HOOK_TLS
#else
#define MON_HOOK_TLS	__thread
#endif

/* One call of the function whose counter word is *word and cell *cell. */
static inline __attribute__((__always_inline__)) void
mon_hook_count(long **word, struct cnt **cell)
{
	long *p = *word;

	if (p != NULL)
		++*p;
	else
		__mon_mcount_slow(word, cell);
}

#define MON_COUNT()							\
	do {								\
		static struct cnt *mon_cell_;				\
		static MON_HOOK_TLS long *mon_word_;			\
		mon_hook_count(&mon_word_, &mon_cell_);			\
	} while (0)

/*
 * Spin for sec seconds of process CPU time, inside the caller (always
 * inlined, so the samples land in the caller's bins).  The CPU clock is
 * a system call (over 1 us in a VM), read only every ~100 us of work so
 * that libc's share of the samples stays under 2%.
 */
static inline __attribute__((__always_inline__)) void
spin_cpu(double sec)
{
	static volatile unsigned long spin_sink;
	struct timespec ts;
	double end;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	end = ts.tv_sec + ts.tv_nsec / 1e9 + sec;
	do {
		for (int i = 0; i < 300000; i++)
			spin_sink += i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	} while (ts.tv_sec + ts.tv_nsec / 1e9 < end);
}

/* A function the tests can count: never inlined, cloned or tail-called. */
#define COUNTED		__attribute__((__noinline__, __noclone__, __used__))

#endif /* HOOKS_H */
