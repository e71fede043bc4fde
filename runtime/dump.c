/* SPDX-License-Identifier: MIT */
/*
 * dump.c - the one dump path: mon.out, and gmon.out in a -pg program,
 * written now under this process's names (env.c).  Used at exit and by
 * monitor(0) (monitor.c), by monitor_signal and before a fatal signal
 * (signal.c).  Async-signal-safe, like the writers it calls, and frugal
 * with the stack (it may run on a small alternate signal stack): the
 * names are built in static storage, one dump at a time.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "control.h"

static int owner;	/* the thread dumping, 0: none */
static long dumps;	/* numbered dumps written (-sigdump) */

/*
 * One dump at a time: a dump waits for another thread's (and then
 * writes the newer profile); over this thread's own (a signal handler)
 * it cannot: 0, or -1.  The owner may be a thread that another's exit
 * has ended (the writer process finds that): its dump is taken over.
 */
static int
dump_lock(void)
{
	static const struct timespec nap = { 0, 10000000L };
	int tid = __mon_self_tid(), now;

	for (;;) {
		now = 0;
		if (MON_CAS(&owner, &now, tid))
			return 0;
		if (now == tid)
			return -1;
		if (syscall(SYS_futex, &owner, FUTEX_WAIT_PRIVATE, now, &nap,
		    NULL, 0) != 0 && errno == ETIMEDOUT && now > 0 &&
		    kill(now, 0) != 0 && errno == ESRCH &&
		    MON_CAS(&owner, &now, tid)) {
			__mon_outfile_reset();
			return 0;
		}
	}
}

static void
dump_unlock(void)
{
	MON_STORE(&owner, 0);
	syscall(SYS_futex, &owner, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

static char path[PATH_MAX];

/* -threads: the file of thread tid, sid (main: the main thread's). */
static int
thread_file(long tid, long sid, int main)
{
	if (__mon_env_thread_path(path, sizeof(path), sid) != 0) {
		__mon_err_errno("cannot name the profile", "", ENAMETOOLONG);
		return -1;
	}
	return __mon_monout_thread(path, tid, sid, main);
}

struct every {
	int		 rc;
	int		 main;		/* the main file is written */
};

static void
every(long tid, long sid, void *arg)
{
	struct every *e = arg;

	if (sid == 1 && tid != __mon_self_pid())
		return;		/* past the sids: no file of its own */
	if (sid == 1)
		e->main = 1;
	if (thread_file(tid, sid, sid == 1) != 0)
		e->rc = -1;
}

/*
 * -threads: the files of every thread not yet written (those that have
 * ended were, by __mon_dump_thread), the main thread's always.
 */
static int
thread_files(void)
{
	struct every e = { 0, 0 };

	__mon_cells_sids(every, &e);
	if (!e.main && thread_file(__mon_self_pid(), 1, 1) != 0)
		e.rc = -1;
	return e.rc;
}

/*
 * -threads: this thread ends (its leases' destructor, arena.c): its
 * file, of its sets' counts and its samples, then its sets start from
 * zero for the thread that adopts them.  Samples it takes later go to
 * the main thread's file, which is written at exit.
 */
void
__mon_dump_thread(void)
{
	long tid = syscall(SYS_gettid), sid;
	int saved = errno;

	if (__mon_mcount_disabled() || dump_lock() != 0)
		return;
	if (tid == __mon_self_pid()) {
		/* The main thread (pthread_exit): its file is written at
		 * exit, with what no thread writes; its storage is its own. */
		__mon_cells_keep();
		__mon_arcs_keep(0);
		dump_unlock();
		errno = saved;
		return;
	}
	__mon_sampler_drain();
	sid = __mon_cells_sid(0);
	__mon_cells_sid_end();
	if (sid != 1) {
		thread_file(tid, sid, 0);
		__mon_cells_zero_tid(tid);
		/* Its arcs stay for gmon.out, the process's: not handed on. */
		__mon_arcs_keep(1);
	}
	dump_unlock();
	errno = saved;
}

/*
 * Write the profile (numbered: under the next dump number, name.c); with
 * -threads, a file per thread.  0, or -1: nothing to write (PROFDIR
 * empty), or a file not written.
 */
int
__mon_dump_write(int numbered)
{
	int rc, saved = errno;
	long seq;

	if (__mon_mcount_disabled() || dump_lock() != 0)
		return -1;
	seq = numbered ? ++dumps : 0;
	if (seq == 0 && __mon_env_get()->threads)
		rc = thread_files();
	else if (seq == 0 && __mon_env_get()->merge) {
		/* gmon.out too, beside the merged profile. */
		rc = __mon_merge_write();
		goto out;
	} else if (__mon_env_profile_path(path, sizeof(path)) != 0 ||
	    (seq != 0 && __mon_name_seq(path, sizeof(path), seq) != 0)) {
		__mon_err_errno("cannot name the profile", "", ENAMETOOLONG);
		rc = -1;
	} else
		rc = __mon_monout_write(path);
	if (!__mon_arcs_used())
		goto out;
	if (__mon_env_gmon_path(path, sizeof(path)) != 0 ||
	    (seq != 0 && __mon_name_seq(path, sizeof(path), seq) != 0)) {
		__mon_err_errno("cannot name gmon.out", "", ENAMETOOLONG);
		rc = -1;
	} else if (__mon_gmonout_write(path) != 0)
		rc = -1;
out:
	dump_unlock();
	errno = saved;
	return rc;
}

/* fork child: a dump in progress was another thread's, in the parent. */
void
__mon_dump_reset(void)
{
	MON_RESET(&owner, 0);
	MON_RESET(&dumps, 0);
}
