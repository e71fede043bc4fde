/* SPDX-License-Identifier: MIT */
/*
 * sigmask.c - the runtime's own changes of a thread's signal mask.  The
 * specs file wraps the program's sigprocmask() and pthread_sigmask()
 * (forced.c: a fault it blocks), and ld's --wrap reaches the runtime's
 * calls too; these are the system call itself, as glibc's
 * pthread_sigmask makes it: the two signals glibc keeps for itself
 * (SIGCANCEL and SIGSETXID) are never blocked, and the return is 0 or
 * an errno value.  And which signals are faults.  Async-signal-safe.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "base.h"

/* Reached from the hooks' code (thread starts): see stub.c. */
#pragma GCC target("general-regs-only")

/*
 * The signals the program's own instructions raise: the runtime never
 * blocks them (outfile.c, signal.c), and the kernel delivers them even
 * where the program blocked or ignored them (forced.c).
 */
const int __mon_sigmask_faults[MON_NFAULTS] = {
	SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS,
};

/*
 * Whether set holds signal sig (1 to _NSIG - 1): sigismember, without
 * its call.  A fork child asks it first (forced.c), where a first call
 * of sigismember is bound lazily: a dozen page faults.
 */
int
__mon_sigmask_has(const void *set, int sig)
{
	unsigned long word[_NSIG / (8 * sizeof(unsigned long))];
	const unsigned bits = 8 * sizeof(unsigned long);

	if (sig < 1 || sig >= _NSIG)
		return 0;
	memcpy(word, set, sizeof(word));
	return (int)(word[(unsigned)(sig - 1) / bits] >>
	    ((unsigned)(sig - 1) % bits)) & 1;
}

int
__mon_sigmask_set(int how, const void *set, void *old)
{
	unsigned long word[_NSIG / (8 * sizeof(unsigned long))];
	int saved = errno, r = 0;

	if (set != NULL) {
		memcpy(word, set, sizeof(word));
		/* SIGCANCEL (32) and SIGSETXID (33): bits 31 and 32. */
		word[0] &= ~(3UL << 31);
	}
	if (syscall(SYS_rt_sigprocmask, how, set != NULL ? word : NULL, old,
	    _NSIG / 8) != 0)
		r = errno;
	errno = saved;
	return r;
}
