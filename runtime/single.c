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
 * program's: DESIGN.md), malloc and the low-level locks use atomics,
 * setuid() signals every thread; and libstdc++ makes every shared_ptr
 * copy atomic.  The perf helper of a process that holds a privilege is
 * a pthread (rawthread.c says why), so a program that never starts a
 * thread of its own would run on as a multi-threaded one after the
 * helper has ended (a process that forks often: sampler.c).
 *
 * The runtime gives back only what its own thread took.  Where the flag
 * was set when the runtime started a thread of its own, no thread of
 * the program's has been started since (thread.c's wrapper), and the
 * caller knows that the process has one thread again (the helper
 * joined where it was the only other, or a fork child), the flag is set
 * again: in libc's own byte, which glibc reads, and in the program's
 * copy of it where that is another (a copy relocation: C++ programs
 * read it inline, from libstdc++'s headers), each where it was set.
 * glibc's manual forbids programs to write it; the runtime writes back
 * the value glibc gave, where what it said is true again, to undo its
 * own thread's effect on the program.  A thread that glibc started
 * itself meanwhile (aio's) and that has ended leaves the flag set here,
 * where glibc would have left it clear: a truth, not the same word.
 * Without dlvsym's answers (a static link, another C library) nothing
 * is written.
 */
#include <dlfcn.h>

#include "process.h"

static char	*libc_flag, *prog_flag;	/* NULL: none to be had */
static int	 looked;		/* 0 not yet, 1 found, -1 none */
static int	 libc_was, prog_was;	/* set when the runtime's thread began */
static int	 ours;			/* only the runtime's threads cleared them */

/*
 * The flag's two places, once: the program's (the first definition,
 * a copy relocation's where there is one) and libc's own (the next
 * after the executable, which the runtime is linked into).
 */
static int
look(void)
{
	if (looked != 0)
		return looked > 0;
	looked = -1;
	/* A static link has no dynamic symbols: RTLD_NEXT not asked. */
	if ((prog_flag = dlvsym(RTLD_DEFAULT, "__libc_single_threaded",
	    "GLIBC_2.32")) != NULL && (libc_flag = dlvsym(RTLD_NEXT,
	    "__libc_single_threaded", "GLIBC_2.32")) != NULL)
		looked = 1;
	return looked > 0;
}

/* Before the runtime starts a thread of its own (thread.c). */
void
__mon_single_runtime(void)
{
	if (!look())
		return;
	libc_was = MON_LOAD(libc_flag) != 0;
	prog_was = MON_LOAD(prog_flag) != 0;
	MON_STORE(&ours, libc_was);
}

/* Before the program starts a thread (thread.c): the flag is its own. */
void
__mon_single_program(void)
{
	if (MON_LOAD(&ours))
		MON_STORE(&ours, 0);
}

/*
 * The calling thread is the process's only one: the flag as it was
 * before the runtime's thread, where only that thread cleared it.  A
 * store only where it changes: a fork child's page stays shared.
 */
void
__mon_single_again(void)
{
	if (!MON_LOAD(&ours))
		return;
	if (libc_was && MON_LOAD(libc_flag) == 0)
		MON_STORE(libc_flag, 1);
	if (prog_was && MON_LOAD(prog_flag) == 0)
		MON_STORE(prog_flag, 1);
}
