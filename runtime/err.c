/* SPDX-License-Identifier: MIT */
/*
 * err.c - the runtime's only way to complain: one raw write to stderr.
 * Async-signal-safe; leaves errno as it was.  The runtime never exits or
 * aborts the program it profiles.
 */
#include <errno.h>
#include <unistd.h>

#include "base.h"

void
__mon_err_write(const char *s, size_t len)
{
	int saved = errno;

	if (write(STDERR_FILENO, s, len) < 0)
		errno = saved;
	errno = saved;
}
