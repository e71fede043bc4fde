/* SPDX-License-Identifier: MIT */
/*
 * unit.h - how a Check suite joins the unit test program: each
 * check_<module>.c defines <module>_suite() and names it in UNIT_SUITE().
 */
#ifndef UNIT_H
#define UNIT_H

#include <check.h>

void	unit_register(const char *name, Suite *(*make)(void));

#define UNIT_SUITE(make)						\
	static void __attribute__((constructor))			\
	unit_register_##make(void)					\
	{								\
		unit_register(#make, make);				\
	}

#endif
