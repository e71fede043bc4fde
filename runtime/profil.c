/* SPDX-License-Identifier: MIT */
/*
 * profil.c - profil(2): sample the program counter into a buffer of the
 * program's, by profil's formula (hist.c), with the runtime's sampler.
 */
#include <sys/mman.h>

#include <errno.h>
#include <unistd.h>

#include "control.h"

/*
 * profil(samples, size, offset, scale): sample into samples (size
 * bytes): the bin of pc is ((pc - offset) / 2) * scale / 65536.  Scale
 * 0 stops it (a running monitor() histogram then takes over again).  -1
 * with EFAULT for a buffer that is not mapped, EINVAL for one too small
 * or misaligned.
 */
int
__profil(unsigned short *samples, size_t size, size_t offset,
    unsigned int scale)
{
	uintptr_t page, end;
	long pgsz;

	if (scale == 0) {
		__mon_hist_profil(NULL, 0, 0, 0);
		return 0;
	}
	if (samples == NULL) {
		errno = EFAULT;
		return -1;
	}
	if (size < sizeof(WORD) || ((uintptr_t)samples & 1) != 0) {
		errno = EINVAL;
		return -1;
	}
	/* A buffer that is not mapped would fault in the sampler. */
	pgsz = sysconf(_SC_PAGESIZE);
	page = (uintptr_t)samples & ~(uintptr_t)(pgsz - 1);
	end = (uintptr_t)samples + size;
	if (end < (uintptr_t)samples ||
	    msync((void *)page, end - page, MS_ASYNC) != 0) {
		errno = EFAULT;
		return -1;
	}
	__mon_hist_profil(samples, size / sizeof(WORD), offset, scale);
	if (!__mon_mode_on())
		__moncontrol(1);
	return __mon_sampler_start();
}

MON_WEAK_ALIAS(__profil, profil);
