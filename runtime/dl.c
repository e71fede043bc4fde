/* SPDX-License-Identifier: MIT */
/*
 * dl.c - dlclose(): the object it unmaps keeps its calls and samples in
 * the profile, named after it, and an object mapped at the same place
 * later is not confused with it (objects.c retires it).  The specs file
 * links executables with ld's --wrap=dlclose: the program's calls come
 * here (those inside shared libraries do not: their objects keep the
 * old behaviour, named by whatever is mapped there at the end).
 */
#include <errno.h>

#include "control.h"

extern int __real_dlclose(void *) __attribute__((__weak__));

int	 __wrap_dlclose(void *) MON_HIDDEN;

int
__wrap_dlclose(void *handle)
{
	int r, saved;

	__mon_objects_closing();
	r = __real_dlclose(handle);
	saved = errno;
	__mon_objects_closed();
	errno = saved;
	return r;
}
