/* SPDX-License-Identifier: MIT */
/*
 * signal.c - monitor_signal(): write the profile (and gmon.out in -pg
 * programs) from a signal handler (daemons, programs killed rather than
 * exited), and PROFFLAGS -sigdump.
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
