/*
 * 217-raw-clone: a thread started by a raw clone(CLONE_SETTLS), whose
 * thread pointer is in a block of its own, calls an executable's
 * function (app_f) and a shared object's (lib_f) N times each, after
 * the main thread called each 3 times.  argv[1] says what lies around
 * the thread pointer, as tls-modules.md's cases do:
 *	e1  nothing readable below it (PROT_NONE)
 *	e2  zeros
 *	e3  0x41 bytes everywhere but its self pointer at 0
 *	e4  zeros below, glibc's TCB header copied above, self pointers set
 * The thread touches no libc: its start and end are system calls.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define N	1000
#define BELOW	(256 * 1024)	/* the block below the thread pointer */
#define ABOVE	(64 * 1024)
#define STACK	(256 * 1024)

int lib_f(int), lib_g(int);

__attribute__((noinline, noclone)) int
app_f(int x)
{
	__asm__ volatile("");
	return lib_f(x) + 1;
}

static volatile int sum;
static volatile pid_t tid = 1;

__attribute__((no_instrument_function)) static int
raw(void *arg)
{
	int i, s = 0;

	(void)arg;
	for (i = 0; i < N; i++)
		s += app_f(i) + lib_g(i);
	sum = s;
	return 0;
}

__attribute__((no_instrument_function)) int
main(int argc, char **argv)
{
	char *block, *stack, *tp;
	const char *c = argc > 1 ? argv[1] : "e2";
	int i, s = 0;

	for (i = 0; i < 3; i++)
		s += app_f(i) + lib_g(i);
	block = mmap(NULL, BELOW + ABOVE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (block == MAP_FAILED || stack == MAP_FAILED)
		return 2;
	tp = block + BELOW;
	if (strcmp(c, "e1") == 0)
		mprotect(block, BELOW, PROT_NONE);
	else if (strcmp(c, "e3") == 0)
		memset(block, 0x41, BELOW + ABOVE);
	else if (strcmp(c, "e4") == 0) {
		char *mine;

		__asm__("movq %%fs:0, %0" : "=r"(mine));
		memcpy(tp, mine, 0x40);
		memcpy(tp + 16, &tp, sizeof(tp));
	}
	memcpy(tp, &tp, sizeof(tp));
	if (clone(raw, stack + STACK, CLONE_VM | CLONE_FS | CLONE_FILES |
	    CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
	    CLONE_CHILD_CLEARTID, NULL, NULL, tp, &tid) == -1) {
		perror("clone");
		return 2;
	}
	while (tid != 0)
		syscall(SYS_futex, &tid, FUTEX_WAIT, tid, NULL, NULL, 0);
	printf("%s: %d %d\n", c, s, sum);
	return 0;
}
