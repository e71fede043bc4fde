/* SPDX-License-Identifier: MIT */
/*
 * gsbase.c - a program that sets its own %gs base (x86-64).  An
 * executable's -p counters (addq $1, %gs:ctr(%rip)) and its -pg code's
 * words are at the base that pcells.c sets for each thread: a program
 * that set one of its own (arch_prctl(ARCH_SET_GS), as Wine does for
 * its thread blocks) had each count added at its base plus the
 * counter's address, a crash or a silent write into its memory.  So its
 * ARCH_SET_GS is refused where the executable counts there: one line on
 * stderr, once, and -1 with EPERM, which the program reports as it
 * would any failed call.  Where the executable does not (-fPIC code,
 * update=atomic), the call is made as asked.  Both ways in come here:
 * syscall(SYS_arch_prctl, ...) through confine.c, and glibc's
 * arch_prctl(), which the specs file wraps (a static link) or defines
 * as __mon_gsbase_arch_prctl and exports (a dynamic one), as it does
 * syscall.  A program's own wrgsbase instruction is not seen (README,
 * Limitations).
 */
#include <sys/syscall.h>

#include <errno.h>
#include <unistd.h>

#include "control.h"

#ifdef __x86_64__
#include <asm/prctl.h>
#endif

/* Reached from syscall(), which the hooks' code calls: see stub.c. */
#pragma GCC target("general-regs-only")

int	 __mon_gsbase_arch_prctl(int, unsigned long) MON_EXPORT;

/*
 * Whether arch_prctl(code, ...) is refused: 1 with errno EPERM and the
 * line said, or 0 (errno untouched).
 */
int
__mon_gsbase_refuse(long code)
{
#ifdef __x86_64__
	static int said;
	int no = 0;

	if (code != ARCH_SET_GS || !__mon_pcells_at_gs())
		return 0;
	if (MON_CAS(&said, &no, 1))
		MON_ERR("monprof: the program sets its %gs base "
		    "(arch_prctl(ARCH_SET_GS)), where this executable's -p "
		    "or -pg code counts: refused (EPERM); build it -fPIC or "
		    "with -fplugin-arg-monprof-update=atomic to profile it\n");
	errno = EPERM;
	return 1;
#else
	(void)code;
	return 0;
#endif
}

/* glibc's arch_prctl(), the program's. */
int
__mon_gsbase_arch_prctl(int code, unsigned long addr)
{
#ifdef __x86_64__
	if (__mon_gsbase_refuse(code))
		return -1;
	return (int)syscall(SYS_arch_prctl, code, addr);
#else
	(void)code;
	(void)addr;
	errno = ENOSYS;
	return -1;
#endif
}

/* A static link's: ld's --wrap names it. */
__typeof__(__mon_gsbase_arch_prctl) __wrap_arch_prctl
    __attribute__((__alias__("__mon_gsbase_arch_prctl"))) MON_HIDDEN;
