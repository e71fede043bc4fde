/* SPDX-License-Identifier: MIT */
/*
 * signal.c - monitor_signal(): write the profile (and gmon.out in -pg
 * programs) from a signal handler (daemons, programs killed rather than
 * exited), PROFFLAGS -sigdump, and the write before a fatal signal
 * (a crash, ^C, kill) ends the program.
 *
 * Async-signal-safe: it only drains the sampler and calls the writer.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "internal.h"

/*
 * Write the profile now, profiling goes on.  After -sigdump the profile
 * is zeroed too, so each dump holds the work since the previous one.
 */
int
__mon_signal_dump(void)
{
	struct __mon_state *st = &__mon_state;
	char path[PATH_MAX];
	int rc;

	if (!MON_LOAD(&st->active) || MON_LOAD(&st->disabled))
		return -1;
	if (__mon_out_path(path, sizeof(path)) != 0)
		return -1;
	rc = __mon_out_write(path);
	if (__mon_gmon_dump() != 0)
		rc = -1;
	if (rc == 0 && st->zero_after_dump) {
		__mon_cells_zero();
		if (st->out_bins != NULL)
			memset(st->out_bins, 0, st->out_nbins * sizeof(WORD));
		MON_STORE(&st->samples, 0);
		MON_STORE(&st->saturated, 0);
		MON_STORE(&st->outside, 0);
		MON_STORE(&st->lost, 0);
	}
	return rc;
}

void
__monitor_signal(int sig)
{
	int saved = errno;

	(void)sig;
	__mon_signal_dump();
	errno = saved;
}

MON_WEAK_ALIAS(__monitor_signal, monitor_signal);

/* PROFFLAGS -sigdump SIG: monitor_signal becomes SIG's handler. */
void
__mon_signal_setup(void)
{
	struct __mon_state *st = &__mon_state;
	struct sigaction sa;

	if (st->env.sigdump == 0)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = __monitor_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(st->env.sigdump, &sa, NULL) == 0)
		st->zero_after_dump = 1;
}

/*
 * Signals whose default action ends the program: the profile is written
 * first, then the signal is raised again with its default action, so the
 * program still dies of it (and dumps core where it would have).
 */
static const int fatal_signals[] = {
	SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGSYS,
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGXCPU, SIGXFSZ,
};

static void
fatal(int sig)
{
	/* SA_RESETHAND restored SIG_DFL; SA_NODEFER lets raise() deliver. */
	__mon_signal_dump();
	raise(sig);
}

/*
 * Only where the disposition is still the default: a program's own
 * handler, or SIG_IGN, is never replaced, and a handler the program
 * installs later simply replaces this one.
 */
void
__mon_signal_fatal_setup(void)
{
	struct sigaction sa, old;
	size_t i;

	if (__mon_state.env.nofatal)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal_signals) / sizeof(fatal_signals[0]); i++)
		if (sigaction(fatal_signals[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_DFL && (old.sa_flags & SA_SIGINFO) == 0)
			sigaction(fatal_signals[i], &sa, NULL);
}
