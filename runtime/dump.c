/* SPDX-License-Identifier: MIT */
/*
 * dump.c - the one dump path: mon.out, and gmon.out in a -pg program,
 * written now under this process's names (env.c).  Used at exit and by
 * monitor(0) (monitor.c), by monitor_signal and before a fatal signal
 * (signal.c).  Async-signal-safe, like the writers it calls.
 */
#include "control.h"

/* 0, or -1: nothing to write (PROFDIR empty), or a file not written. */
int
__mon_dump_write(void)
{
	char path[PATH_MAX];
	int rc;

	if (__mon_mcount_disabled())
		return -1;
	if (__mon_env_profile_path(path, sizeof(path)) != 0) {
		MON_ERR("monprof: profile file name too long\n");
		rc = -1;
	} else
		rc = __mon_monout_write(path);
	if (!__mon_arcs_used())
		return rc;
	if (__mon_env_gmon_path(path, sizeof(path)) != 0) {
		MON_ERR("monprof: gmon.out file name too long\n");
		return -1;
	}
	if (__mon_gmonout_write(path) != 0)
		rc = -1;
	return rc;
}
