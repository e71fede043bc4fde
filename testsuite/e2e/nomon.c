/* SPDX-License-Identifier: MIT */
/*
 * nomon.c - the hook of hooks.h without the runtime, for the plain
 * builds the e2e cases compare a profiled program with (plain_cc).
 */
#include "mon_abi.h"

void
__mon_mcount_slow(long **word, struct cnt **cell)
{
	static __thread long sink;

	(void)cell;
	*word = &sink;
}
