/* SPDX-License-Identifier: MIT */
/*
 * dl.c - dlclose(): the object it unmaps keeps its calls and samples in
 * the profile, named after it, and an object mapped at the same place
 * later is not confused with it (objects.c retires it).  dlopen(): the
 * object's SFrame rows are learnt (sframe.c), so that stacks go through
 * it.  The specs file links executables with ld's --wrap=dlclose and
 * --wrap=dlopen: the program's calls come here (those inside shared
 * libraries do not: their objects keep the old behaviour, named by
 * whatever is mapped there at the end, and their stacks stop).
 */
#include <errno.h>

#include "control.h"

extern int __real_dlclose(void *) __attribute__((__weak__));
extern void *__real_dlopen(const char *, int) __attribute__((__weak__));

int	 __wrap_dlclose(void *) MON_HIDDEN;
void	*__wrap_dlopen(const char *, int) MON_HIDDEN;

void *
__wrap_dlopen(const char *file, int mode)
{
	void *h = __real_dlopen(file, mode);
	int saved = errno;

	/* Only where a sampler has learnt the objects before. */
	if (h != NULL && __mon_sframe_known())
		__mon_sframe_scan();
	errno = saved;
	return h;
}

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
