/* SPDX-License-Identifier: MIT */
/*
 * unit.h - how a Check suite joins the unit test program: each
 * check_<module>.c defines <module>_suite() and names it in UNIT_SUITE().
 */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>

void	unit_register(const char *name, Suite *(*make)(void));

/*
 * A test case of s whose tests call the hooks: the runtime is stopped
 * (no sampler, no output) but counts, as after monitor() with the
 * profile on.
 */
TCase	*unit_hook_tcase(Suite *s, const char *name);

#define UNIT_SUITE(make)						\
	static void __attribute__((constructor))			\
	unit_register_##make(void)					\
	{								\
		unit_register(#make, make);				\
	}

#endif
