/* SPDX-License-Identifier: MIT */
/*
 * single.c - glibc's word that the process is single-threaded, given
 * back when the runtime's own thread that took it is gone.
 *
 * glibc keeps in __libc_single_threaded (sys/single_threaded.h) whether
 * the process has had a second thread: pthread_create clears it, and
 * nothing sets it again.  glibc reads it itself: where it is clear, a
 * fork takes and resets the malloc arenas' and stdio's locks and runs
 * more fork hooks (12 page faults more a fork, a third of a small
 * program's: DESIGN.md), malloc and pthread mutexes use atomics,
 * setuid() signals every thread; and libstdc++ makes every shared_ptr
 * copy atomic.  The perf helper of a process that holds a privilege is
 * a pthread (rawthread.c says why), so a program that never starts a
 * thread of its own would run on as a multi-threaded one after the
 * helper has ended (a process that forks often: sampler.c).
 *
 * The runtime gives back only what its own threads took.  The flag has
 * two places: libc's own byte, which glibc reads, and the program's
 * copy where that is another (a copy relocation: C++ programs read it
 * inline, from libstdc++'s headers); pthread_create clears both, a
 * thread's pthread_cancel of itself libc's (so that its cancellation
 * points act).  Where a place was set when the runtime started a thread
 * of its own, the program has started no thread since (thread.c's
 * wrapper), and the caller knows that the process has one thread again
 * (the helper joined where it was the only other, or a fork child), the
 * place is set again; libc's byte only where that thread's cancel word
 * says that no cancel is pending and cancellation is at its defaults,
 * as a self-cancel by any path (a library opened with RTLD_DEEPBIND
 * calls libc's directly) leaves its mark there.
 * glibc's manual forbids programs to write it; the runtime writes back
 * the value glibc gave, where what it said is true again, to undo its
 * own thread's effect on the program.  A thread that glibc started
 * itself meanwhile (aio's) and that has ended leaves the flag set here,
 * where glibc would have left it clear: a truth, not the same word.
 * Without dlvsym's answers (a static link, another C library) nothing
 * is written.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

#include "process.h"

/* The flag's places (ours). */
#define ONE_LIBC	1	/* libc's own byte */
#define ONE_PROG	2	/* the program's copy, where it is another */

static char	*libc_flag, *prog_flag;	/* NULL: none to be had */
static uint32_t	 cancel_off;		/* 0: the cancel word not to be read */
static int	 looked;		/* 0 not yet, 1 found, -1 none */
static int	 ours;			/* those only the runtime's threads cleared */

/*
 * The flag's two places, once: the program's (the first definition,
 * a copy relocation's where there is one) and libc's own (the next
 * after the executable, which the runtime is linked into); and where
 * a thread's cancel word lies in glibc's descriptor (rawthread.c).
 */
static int
look(void)
{
	if (looked != 0)
		return looked > 0;
	looked = -1;
	/* A static link has no dynamic symbols: RTLD_NEXT not asked. */
	if ((prog_flag = dlvsym(RTLD_DEFAULT, "__libc_single_threaded",
	    "GLIBC_2.32")) == NULL || (libc_flag = dlvsym(RTLD_NEXT,
	    "__libc_single_threaded", "GLIBC_2.32")) == NULL)
		return 0;
	cancel_off = __mon_rawthread_field("_thread_db_pthread_cancelhandling",
	    NULL);
	looked = 1;
	return 1;
}

/*
 * Whether glibc's cancel word of this thread is 0: cancellation enabled
 * and deferred, no cancel pending.  A thread that cancelled itself
 * with cancellation disabled has the cancel pending, and glibc's
 * cleared byte makes its cancellation points look for it: the byte is
 * then the program's.  So is it where the word cannot be read.
 */
static int
uncancelled(void)
{
	if (cancel_off == 0)
		return 0;
	return MON_LOAD((uint32_t *)((char *)pthread_self() +
	    cancel_off)) == 0;
}

/*
 * Before the runtime starts a thread of its own (thread.c): the places
 * set now are its to set again, as are those its earlier threads
 * cleared (an unshare()'s helper started again).
 */
void
__mon_single_runtime(void)
{
	int set;

	if (!look())
		return;
	set = MON_LOAD(libc_flag) != 0 ? ONE_LIBC : 0;
	if (prog_flag != libc_flag && MON_LOAD(prog_flag) != 0)
		set |= ONE_PROG;
	if (set != 0)
		__atomic_fetch_or(&ours, set, __ATOMIC_ACQ_REL);
}

/* Before the program starts a thread (thread.c): both are its own. */
void
__mon_single_program(void)
{
	if (MON_LOAD(&ours) != 0)
		MON_STORE(&ours, 0);
}

/*
 * The calling thread is the process's only one: the flag's places as
 * they were before the runtime's threads, where only those cleared
 * them.  A store only where it changes: a fork child's page stays
 * shared.
 */
void
__mon_single_again(void)
{
	int mine = MON_LOAD(&ours);

	if ((mine & ONE_LIBC) != 0 && MON_LOAD(libc_flag) == 0 &&
	    uncancelled())
		MON_STORE(libc_flag, 1);
	if ((mine & ONE_PROG) != 0 && MON_LOAD(prog_flag) == 0)
		MON_STORE(prog_flag, 1);
}
