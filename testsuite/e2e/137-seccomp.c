/*
 * 137-seccomp: the program confines itself with a seccomp filter that
 * refuses getpid() with EPERM (argv[1] "getpid"), or returns EPERM for
 * every system call but a few (argv[1] "allow": read, write, close,
 * fstat, exit_group, exit, futex, brk, mmap, munmap, rt_sigreturn),
 * then writes its output through stdio, buffered, and exits 7.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <errno.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static void
f(void)
{
	sink++;
}

#define NR	offsetof(struct seccomp_data, nr)
#define ALLOW(n) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (n), 0, 1), \
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int
main(int argc, char **argv)
{
	struct sock_filter deny[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getpid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter allow[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, NR),
		ALLOW(SYS_read), ALLOW(SYS_write), ALLOW(SYS_close),
		ALLOW(SYS_fstat), ALLOW(SYS_exit_group), ALLOW(SYS_exit),
		ALLOW(SYS_futex), ALLOW(SYS_brk), ALLOW(SYS_mmap),
		ALLOW(SYS_munmap), ALLOW(SYS_rt_sigreturn),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
	};
	struct sock_fprog prog;
	int i;

	if (argc > 1 && strcmp(argv[1], "allow") == 0) {
		prog.len = sizeof(allow) / sizeof(allow[0]);
		prog.filter = allow;
	} else {
		prog.len = sizeof(deny) / sizeof(deny[0]);
		prog.filter = deny;
	}
	for (i = 0; i < 5; i++)
		f();
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) {
		perror("seccomp");
		return 2;
	}
	printf("confined: getpid %ld\n", (long)syscall(SYS_getpid));
	for (i = 0; i < 5; i++)
		f();
	printf("done\n");
	exit(7);
}
