/* SPDX-License-Identifier: MIT */
/*
 * mode.c - moncontrol's mode: whether calls and samples count now.
 *
 * On from the first instrumented call, so constructors are counted.  The
 * hot path never reads it (the tallies keep what moncontrol excluded,
 * storage.h); the histogram and the writers do.  Only moncontrol, under
 * its guard, sets it.
 */
#include "storage.h"

static int on = 1;

int
__mon_mode_on(void)
{
	return MON_LOAD(&on);
}

void
__mon_mode_set(int mode)
{
	MON_STORE(&on, mode != 0);
}
