/* SPDX-License-Identifier: MIT */
/*
 * self.c - which process runs the runtime's code: the one it was set up
 * in (or that a fork handler moved it to), a child that no fork handler
 * told it about (syscall(SYS_fork), clone() without CLONE_VM: a copy of
 * the memory), or one that shares that process's memory (vfork(),
 * clone(CLONE_VM)), whose state is the parent's and must not be touched.
 *
 * A page marked MADV_WIPEONFORK tells the last two apart: a copied
 * address space gets it zeroed, a shared one sees the parent's mark.
 * Where the program's seccomp filter refuses getpid() or gettid()
 * (seccomp.c), they are not called: no answer, so the process set up,
 * and a thread known by its glibc descriptor instead of its tid.
 * Async-signal-safe: system calls only.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <pthread.h>
#include <unistd.h>

#include "process.h"

/* Reached from the hooks, whose stubs save no vector register. */
#pragma GCC target("general-regs-only")

#ifndef MADV_WIPEONFORK
#define MADV_WIPEONFORK	18	/* Linux 4.14 */
#endif

static long pid;		/* of the process set up */
static long gen;		/* its samples': one more in a fork child */
static volatile long *mark;	/* the wipe-on-fork page, or NULL */

/* getpid(), or -1 where it fails or a filter refuses it. */
static long
getpid_now(void)
{
	return __mon_seccomp_may(MON_SECCOMP_GETPID) ? syscall(SYS_getpid) :
	    -1;
}

/*
 * This process is the one the runtime serves from now on (at start, in
 * a fork child, or once a child of a raw fork has dropped the parent's
 * state).
 */
void
__mon_self_record(void)
{
	int saved = errno;
	long now;
	void *p;

	if (mark == NULL) {
		p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE),
		    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p != MAP_FAILED && madvise(p, (size_t)sysconf(_SC_PAGESIZE),
		    MADV_WIPEONFORK) == 0)
			mark = p;
		else if (p != MAP_FAILED)
			munmap(p, (size_t)sysconf(_SC_PAGESIZE));
	}
	if (mark != NULL)
		*mark = 1;
	if ((now = getpid_now()) > 0)
		MON_STORE(&pid, now);
	errno = saved;
}

/*
 * MON_SELF_SAME, MON_SELF_COPY (a child with a copy of the memory that
 * no fork handler saw) or MON_SELF_SHARED (a process sharing the memory
 * of the one set up, or a child of unknown kind: without
 * MADV_WIPEONFORK, before Linux 4.14, a raw fork's child looks like
 * this too).
 */
int
__mon_self_which(void)
{
	int saved = errno;
	long now = getpid_now();

	errno = saved;
	if (MON_LOAD(&pid) == 0)
		__mon_self_record();
	else if (now < 0)
		/*
		 * getpid() refused (a seccomp filter returns EPERM, or
		 * would kill): no answer, so the process set up, where the
		 * program runs its filter.  Taken for a vfork child, it
		 * would end at exit() with _exit(), its output never
		 * flushed.
		 */
		return MON_SELF_SAME;
	else if (now != MON_LOAD(&pid))
		return mark != NULL && *mark == 0 ? MON_SELF_COPY :
		    MON_SELF_SHARED;
	return MON_SELF_SAME;
}

/* The pid of the process set up: what its files are named after. */
long
__mon_self_pid(void)
{
	if (MON_LOAD(&pid) == 0)
		__mon_self_record();
	return MON_LOAD(&pid);
}

/* fork child: the samples held so far are the parent's (below). */
void
__mon_self_renew(void)
{
	MON_STORE(&gen, MON_LOAD(&gen) + 1);
}

/*
 * Whether the samples whose generation *owner holds were a fork
 * parent's until now: 1 once, to the caller that takes them over for
 * this process and starts them afresh.  A fork child's samples go to
 * zero so at their first use, not in its fork handler, and a child that
 * execs or exits at once copies none of their pages.  A vfork child
 * shares the parent's; a raw fork's child keeps them, as its counts.
 */
int
__mon_self_take(long *owner)
{
	long o = MON_LOAD(owner), g = MON_LOAD(&gen);

	return o != g && MON_CAS(owner, &o, g);
}

/*
 * This thread, for the runtime's own locks and owners: its tid, or where
 * a seccomp filter refuses gettid(), a negative number made of its glibc
 * descriptor (no tid is negative).  errno kept.
 */
int
__mon_self_tid(void)
{
	int saved = errno;
	long t = -1;

	if (__mon_seccomp_may(MON_SECCOMP_GETTID))
		t = syscall(SYS_gettid);
	errno = saved;
	if (t > 0)
		return (int)t;
	return (int)(unsigned)(((uintptr_t)pthread_self() >> 12) | 0x80000000U);
}
