/* SPDX-License-Identifier: MIT */
/*
 * final.c - the profile written when the process ends, by a writer
 * process: a clone that shares the memory (CLONE_VM) but is no thread
 * of the program, so an exit() in another thread, which ends every
 * thread at once, cannot end the write half way.  It starts sharing the
 * program's descriptor table (CLONE_FILES: valgrind runs no clone that
 * shares the memory but not the table) and at once takes a copy of its
 * own (unshare), of which it closes all but stderr: the program's
 * descriptors stay the program's (a pipe it closes at exit reaches EOF
 * as without profiling), and a program that fills its table up to a
 * hard RLIMIT_NOFILE still gets its profile.  At exit() it is started
 * before the destructors and waits: for the go once they have run (so
 * that they are counted), or for the end of the process, whichever
 * comes first.  Whoever gives the go waits
 * until it has written.
 *
 * It blocks every signal, uses none of the program's threads' state but
 * errno, is reported by no wait() (its exit signal is 0), and is reaped
 * by the thread that waits for it, or, if the process has ended, by
 * init.  Where it cannot be started (RLIMIT_NPROC, a sandbox), the
 * caller writes the profile itself.  Async-signal-safe.
 *
 * A program about to confine itself with seccomp has it started then
 * (confine.c), before the filter, which therefore does not filter it
 * (nor does a later one: SECCOMP_FILTER_FLAG_TSYNC reaches the thread
 * group only, and this process is none of the program's).  It then
 * waits for the rest of the program's life, and while it waits it
 * drains the perf sampler's rings, the helper thread's work, as there
 * is no helper in a confined program (__mon_final_nap).  Where the
 * filter refuses futex() to the program's threads (seccomp.c), nobody
 * wakes it: it looks for the go every 10 ms, and whoever gives the go
 * waits for it without a system call, spinning.
 */
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "control.h"

#define STAGE_NONE	0
#define STAGE_WAITING	1	/* started, waiting for the go */
#define STAGE_GO	2
#define STAGE_DONE	3	/* it has written (or failed to) */

#define STACKLEN	(128 * 1024)
#define NAP_NS		2000000L	/* how soon it sees the process end */

static struct {
	unsigned	 stage;
	int		 tid;		/* the writer's; 0 once it has exited */
	int		 pid;		/* the same, kept for waitpid */
	unsigned	 ready;		/* 0 while being started, then 1 */
	int		 reaped;
	long		 parent;	/* the process it writes for */
	long		 nap;		/* ns between its looks, NAP_NS */
	int		 drain;		/* it drains the sampler as it looks */
	char		*stack;
	int		(*write)(void);
} fw;

/*
 * A wait or a wake, where the program's seccomp filter allows them to
 * the caller; else a pause: the callers' loops then spin.
 */
static long
futex(void *word, int op, unsigned val, long ns)
{
	struct timespec ts = { ns / 1000000000L, ns % 1000000000L };

	if (!__mon_seccomp_may(MON_SECCOMP_FUTEX)) {
		MON_RELAX();
		return -1;
	}
	/* errno untouched: the writer shares it, and checks it as it writes. */
	return __mon_sys(SYS_futex, (long)word, op, (long)val,
	    ns > 0 ? (long)&ts : 0, 0, 0);
}

/*
 * The writer's copies of the program's descriptors, all but stderr
 * (its messages): closed, in a table of its own only (if it cannot have
 * one, it closes nothing).
 */
static void
close_copies(void)
{
	struct rlimit rl;
	long fd, n;

	if (syscall(SYS_unshare, CLONE_FILES) != 0)
		return;
	close(0);
	close(1);
	if (syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
		return;
	n = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
	    (long)rl.rlim_cur : 65536;
	for (fd = 3; fd < n; fd++)
		close((int)fd);
}

/* The writer process: wait for the go or the end, write, exit. */
static int
writer(void *arg)
{
	(void)arg;
	close_copies();
	while (MON_LOAD(&fw.stage) == STAGE_WAITING) {
		futex(&fw.stage, FUTEX_WAIT_PRIVATE, STAGE_WAITING,
		    MON_LOAD(&fw.nap));
		/* The process has ended: its children went to a reaper. */
		if (syscall(SYS_getppid) != fw.parent)
			break;
		if (MON_LOAD(&fw.drain))
			__mon_sampler_poll();
	}
	fw.write();
	MON_STORE(&fw.stage, STAGE_DONE);
	futex(&fw.stage, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
	return 0;
}

/*
 * Start the writer, which will call write() at the go or when the
 * process has ended: 0, or -1 if it cannot be started.  Once only: 0 if
 * one was started already.
 */
int
__mon_final_start(int (*write)(void))
{
	unsigned none = STAGE_NONE;
	sigset_t all, old;
	int saved = errno, pid;

	if (!MON_CAS(&fw.stage, &none, STAGE_WAITING))
		return 0;
	fw.stack = mmap(NULL, STACKLEN, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (fw.stack == MAP_FAILED)
		goto fail;
	MON_STORE(&fw.ready, 0);
	fw.write = write;
	fw.parent = syscall(SYS_getpid);
	fw.reaped = 0;
	MON_STORE(&fw.nap, NAP_NS);
	MON_STORE(&fw.drain, 0);
	/* Its code answers for the filters in force now (seccomp.c). */
	__mon_seccomp_exempt(fw.stack, fw.stack + STACKLEN);
	sigfillset(&all);
	__mon_sigmask_set(SIG_SETMASK, &all, &old);
	/* Exit signal 0: no SIGCHLD, and wait() without __WCLONE skips it. */
	pid = clone(writer, fw.stack + STACKLEN, CLONE_VM | CLONE_FS |
	    CLONE_FILES | CLONE_SYSVSEM | CLONE_PARENT_SETTID |
	    CLONE_CHILD_CLEARTID, NULL, &fw.tid, NULL, &fw.tid);
	__mon_sigmask_set(SIG_SETMASK, &old, NULL);
	if (pid > 0) {
		fw.pid = pid;
		MON_STORE(&fw.ready, 1);
		futex(&fw.ready, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
		errno = saved;
		return 0;
	}
	__mon_seccomp_exempt(NULL, NULL);
	munmap(fw.stack, STACKLEN);
fail:
	MON_STORE(&fw.stage, STAGE_NONE);
	MON_STORE(&fw.ready, 1);
	futex(&fw.ready, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
	errno = saved;
	return -1;
}

/* Wait while another thread starts the writer: 1 if there is one. */
int
__mon_final_ready(void)
{
	int saved = errno;

	while (MON_LOAD(&fw.stage) != STAGE_NONE && MON_LOAD(&fw.ready) == 0)
		futex(&fw.ready, FUTEX_WAIT_PRIVATE, 0, 1000000L);
	errno = saved;
	return MON_LOAD(&fw.stage) != STAGE_NONE;
}

/*
 * Give the go (if not given) and wait until the writer has exited: 0, or
 * -1 if none was started (the caller then writes itself).
 */
int
__mon_final_finish(void)
{
	unsigned waiting = STAGE_WAITING;
	int saved = errno, tid, zero = 0;

	if (!__mon_final_ready())
		return -1;
	if (MON_CAS(&fw.stage, &waiting, STAGE_GO))
		futex(&fw.stage, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
	/* The kernel clears tid and wakes it (a shared futex) at its exit. */
	while ((tid = MON_LOAD(&fw.tid)) != 0)
		futex(&fw.tid, FUTEX_WAIT, (unsigned)tid, 100000000L);
	/* Where a filter refuses it, a zombie until the process ends. */
	if (__mon_seccomp_may(MON_SECCOMP_REAP) &&
	    MON_CAS(&fw.reaped, &zero, 1)) {
		while (waitpid(fw.pid, NULL, __WCLONE) < 0 && errno == EINTR)
			continue;
		__mon_seccomp_exempt(NULL, NULL);
		munmap(fw.stack, STACKLEN);
	}
	errno = saved;
	return 0;
}

/*
 * The program is confining itself (confine.c): the writer looks every ns
 * nanoseconds (for the go, where nobody can wake it, or to drain), and
 * drains the sampler if drain.  Before the filter: it is woken to see it.
 */
void
__mon_final_nap(long ns, int drain)
{
	int saved = errno;

	if (MON_LOAD(&fw.stage) != STAGE_WAITING)
		return;
	MON_STORE(&fw.nap, ns);
	MON_STORE(&fw.drain, drain);
	futex(&fw.stage, FUTEX_WAKE_PRIVATE, INT_MAX, 0);
	errno = saved;
}

/* fork child: a writer was the parent's. */
void
__mon_final_reset(void)
{
	__mon_reset_zero(&fw, sizeof(fw));
	__mon_seccomp_exempt(NULL, NULL);
}
