/* SPDX-License-Identifier: MIT */
/*
 * stale.c - objects built by an older monprof.  The runtime serves one
 * hook ABI (mon_abi.h): an object of version 2 to 9 names the link hint
 * of its version, which stub.c does not define; this archive member
 * does, so that the linker takes it in for such an object, and names in
 * turn, the same way (an R_X86_64_NONE relocation, no code), a symbol
 * that nothing defines, whose name says to rebuild the object:
 *
 *	undefined reference to `monprof: an object was compiled with -p
 *	or -pg by an older monprof (hook ABI 2 to 9); rebuild it with this
 *	one (hook ABI 10)'
 *
 * Nothing calls into this file: a link that takes it in fails.
 */
#include "hooks.h"

#ifdef __x86_64__
#define STALE(abi)							\
	"	.globl	\"" MON_LINK_HINT_ABI(abi) "\"\n"			\
	"	.hidden	\"" MON_LINK_HINT_ABI(abi) "\"\n"			\
	"\"" MON_LINK_HINT_ABI(abi) "\":\n"

/* The linker names the function the reference is in: this one. */
__asm__("	.text\n"
	STALE(2) STALE(3) STALE(4) STALE(5) STALE(6) STALE(7) STALE(8)
	STALE(9)
	"	.type	__mon_stale_object, @function\n"
	"__mon_stale_object:\n"
	"	.reloc	., R_X86_64_NONE, \"" MON_LINK_STALE "\"\n"
	"	ud2\n"
	"	.size	__mon_stale_object, .-__mon_stale_object\n");
#endif
