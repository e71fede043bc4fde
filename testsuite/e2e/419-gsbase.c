/* 419-gsbase: sets its thread's %gs base to a block of its own, by
 * syscall() ("syscall") or glibc's arch_prctl() ("libc"), then calls
 * leaf 250 times; prints the call's result and whether the block is
 * still all zeros. */
#include <asm/prctl.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int arch_prctl(int, unsigned long);

static unsigned char block[1 << 22];
static volatile int sink;

__attribute__((noinline)) static void
leaf(int i)
{
	sink += i;
}

int
main(int argc, char **argv)
{
	size_t k, dirty = 0;
	int r, e;

	if (argc > 1 && strcmp(argv[1], "libc") == 0)
		r = arch_prctl(ARCH_SET_GS, (unsigned long)block);
	else
		r = (int)syscall(SYS_arch_prctl, ARCH_SET_GS,
		    (unsigned long)block);
	e = errno;
	for (int i = 0; i < 250; i++)
		leaf(i);
	for (k = 0; k < sizeof(block); k++)
		dirty += block[k] != 0;
	printf("set: %d %s, block: %zu bytes written\n", r,
	    r == 0 ? "ok" : strerror(e), dirty);
	return 0;
}
