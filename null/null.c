/* SPDX-License-Identifier: MIT */
/*
 * null.c - libmonprof-null.so, the runtime of a host that has none.  The
 * specs file links it into every instrumented shared object, so that
 * one loads into a program not linked with the runtime (a plain
 * interpreter importing a -p extension module) and runs, counting
 * nothing: the area pointer stays 0 in every thread, so each entry
 * calls a stub here, which returns.  In a program linked with the
 * runtime, the executable's definitions come first in the dynamic
 * linker's search and these are never used; the object is loaded, its
 * thread-local storage never touched.
 *
 * What it defines is what instrumented -fPIC code references (mon.h):
 * the thread-local variables that code reads (24 bytes of static TLS,
 * taken once in a plain host: built -z nodelete, so never given back
 * and taken again), and every stub and hook it may call.  The weak
 * registrations (__mon_area_add, __mon_sites_add) are left undefined:
 * their callers test them.
 */
#include "mon_abi.h"

#define EXPORT	__attribute__((__visibility__("default")))
#define IE	__attribute__((__tls_model__("initial-exec")))

__thread char *__mon_area_mine EXPORT IE;
__thread void *volatile __mon_site_rec EXPORT IE;
__thread long __mon_site_bias EXPORT IE;

#ifdef __x86_64__
/* Each stub returns, every register kept. */
#define RET_STUB(name)							\
	"	.globl	" name "\n"					\
	"	.type	" name ", @function\n"				\
	name ":\n"							\
	"	ret\n"							\
	"	.size	" name ", .-" name "\n"

__asm__("	.text\n"
	RET_STUB(MON_MCOUNT_AREA_STUB_NAME)
	RET_STUB(MON_MCOUNT_ARC_AREA_STUB_NAME)
	RET_STUB(MON_MCOUNT_STUB_NAME)
	RET_STUB(MON_MCOUNT_ARC_REC_STUB_NAME));
#endif

/* The C hooks of other targets, and of update=single|atomic code. */
EXPORT void
__mon_mcount_slow(long **word, struct cnt **cell)
{
	(void)word;
	(void)cell;
}

EXPORT void
__mon_mcount_arc_cache(struct cnt **cell, void *frompc, long **arc)
{
	(void)cell;
	(void)frompc;
	(void)arc;
}
