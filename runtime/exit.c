/* SPDX-License-Identifier: MIT */
/*
 * exit.c - one exit() at a time.  glibc before 2.41 lets threads that
 * call exit() together share the exit handlers; the one that finds none
 * left ends the process with the others' handlers half run, the
 * runtime's write among them (init.c's holds catch only so many).  The
 * specs file links executables with ld's --wrap=exit: the program's own
 * calls come here, and as in glibc 2.41 and Rust's std, the first
 * thread goes on while any other blocks until the process has ended.
 * A thread may call exit() again from an exit handler (glibc runs the
 * rest); a child with a copy of the memory, or sharing it (vfork), is
 * not held by its parent's exit.
 *
 * Calls from libc itself (main's return) and from shared libraries are
 * not wrapped: the holds still serve them, and they are few.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "process.h"

extern void __real_exit(int) __attribute__((__noreturn__));
void __wrap_exit(int) MON_HIDDEN __attribute__((__noreturn__));

static int owner;	/* the thread in exit(), or 0 */

/* The owner may be another process's thread: a fork child's copy. */
static int
gone(int tid)
{
	int saved = errno, r;

	r = syscall(SYS_tgkill, (int)syscall(SYS_getpid), tid, 0) != 0 &&
	    errno == ESRCH;
	errno = saved;
	return r;
}

void
__wrap_exit(int status)
{
	int me, was;

	if (__mon_self_which() != MON_SELF_SAME)
		__real_exit(status);
	me = (int)syscall(SYS_gettid);
	for (;;) {
		was = 0;
		if (__atomic_compare_exchange_n(&owner, &was, me, 0,
		    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) || was == me)
			break;
		if (!gone(was))
			/* Woken by nothing: the owner ends the process. */
			while (MON_LOAD(&owner) == was)
				syscall(SYS_futex, &owner, FUTEX_WAIT_PRIVATE,
				    was, NULL, NULL, 0);
		else
			__atomic_compare_exchange_n(&owner, &was, 0, 0,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	}
	__real_exit(status);
}
