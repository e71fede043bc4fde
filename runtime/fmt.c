/* SPDX-License-Identifier: MIT */
/*
 * fmt.c - numbers as text without stdio (async-signal-safe).
 */
#include "base.h"

/* Decimal digits of v into buf (no NUL); returns how many. */
size_t
__mon_fmt_ulong(char *buf, unsigned long v)
{
	char t[24];
	size_t n = 0, i;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		buf[i] = t[n - 1 - i];
	return n;
}
