/* SPDX-License-Identifier: MIT */
/*
 * unshare.c - unshare() and setns() as without the runtime.  The kernel
 * lets only a process that is its own only thread make a new user
 * namespace (unshare(CLONE_NEWUSER): rootless containers, sandboxes) or
 * enter a user or mount namespace with setns(): EINVAL otherwise.  The
 * perf sampler's helper thread would make every such program fail.
 * The specs file links executables with ld's --wrap for both: the
 * helper ends for the call and starts again after it, so the sampler
 * goes on; if it cannot, one line says so and the samples wait for the
 * profile's write.  A program with threads of its own fails as it
 * would without the runtime.
 */
#include <errno.h>
#include <sched.h>

#include "control.h"

extern int __real_unshare(int);
extern int __real_setns(int, int);

int	 __wrap_unshare(int) MON_HIDDEN;
int	 __wrap_setns(int, int) MON_HIDDEN;

/* After the call: the helper again, errno as the call left it. */
static int
after(int r)
{
	int saved = errno;

	if (__mon_sampler_alone(0) != 0)
		MON_ERR("monprof: the sampler's helper thread did not start "
		    "again after unshare() or setns(): samples are drained "
		    "only when the profile is written\n");
	errno = saved;
	return r;
}

int
__wrap_unshare(int flags)
{
	__mon_sampler_alone(1);
	return after(__real_unshare(flags));
}

int
__wrap_setns(int fd, int nstype)
{
	__mon_sampler_alone(1);
	return after(__real_setns(fd, nstype));
}
