/*
 * 148-seccomp-lib: the program confines itself through libseccomp: the
 * filter is built by seccomp_init and seccomp_rule_add and installed by
 * seccomp_load, whose prctl() and syscall() calls are libseccomp.so's,
 * not the program's.  It allows only what the program needs itself
 * (write, exit_group, and what stdio and malloc ask for: newfstatat or
 * fstat, brk, getrandom); anything else: argv[1]'s action, "kill"
 * (SCMP_ACT_KILL_PROCESS), "kill-tsync" (the same with
 * SCMP_FLTATR_CTL_TSYNC, so that libseccomp probes the flag first) or
 * "errno" (SCMP_ACT_ERRNO(EPERM)).  It writes its output through stdio,
 * buffered, calls f() 5 times before and 5 after, burns some CPU (so a
 * sampler would signal it) and exits 7.
 *
 * "lib": no filter; the calls of a shared object (148-seccomp-lib.lib.c)
 * through syscall() and prctl(): their returns and errno, printed.
 */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 148-seccomp-lib.lib.c */
long	 lib_syscall(long, long, int *);
long	 lib_prctl(int, unsigned long, int *);

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static void
f(void)
{
	sink++;
}

/* A call, its return and errno (errno set to 1234 before). */
static void
show(const char *what, long r, int err)
{
	printf("%s: %ld errno %s\n", what, r, err == 1234 ? "kept" :
	    strerror(err));
}

static int
lib(void)
{
	int err;
	long r;

	r = lib_syscall(SYS_getpid, 0, &err);
	show("getpid", r == getpid() ? 0 : r, err);
	r = lib_syscall(SYS_close, -1, &err);
	show("close(-1)", r, err);
	r = lib_syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT + 1000, &err);
	show("seccomp(bad op)", r, err);
	r = lib_prctl(PR_GET_DUMPABLE, 0, &err);
	show("prctl(PR_GET_DUMPABLE)", r, err);
	r = lib_prctl(-1, 0, &err);
	show("prctl(-1)", r, err);
	/* Not a filter: no program (libseccomp's probe of a flag). */
	r = lib_prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &err);
	show("prctl(PR_SET_SECCOMP, NULL)", r, err);
	exit(7);
}

static const int needs[] = {
	SCMP_SYS(write), SCMP_SYS(exit_group), SCMP_SYS(newfstatat),
	SCMP_SYS(fstat), SCMP_SYS(brk), SCMP_SYS(getrandom),
};

int
main(int argc, char **argv)
{
	scmp_filter_ctx ctx;
	const char *act;
	size_t k;
	int i, r;

	if (argc != 2)
		return 2;
	act = argv[1];
	if (strcmp(act, "lib") == 0)
		return lib();
	ctx = seccomp_init(strcmp(act, "errno") == 0 ? SCMP_ACT_ERRNO(EPERM) :
	    SCMP_ACT_KILL_PROCESS);
	if (ctx == NULL) {
		fprintf(stderr, "seccomp_init failed\n");
		return 2;
	}
	for (k = 0; k < sizeof(needs) / sizeof(needs[0]); k++)
		if (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, needs[k], 0) != 0) {
			fprintf(stderr, "seccomp_rule_add failed\n");
			return 2;
		}
	if (strcmp(act, "kill-tsync") == 0 &&
	    seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1) != 0) {
		fprintf(stderr, "seccomp_attr_set failed\n");
		return 2;
	}
	for (i = 0; i < 5; i++)
		f();
	if ((r = seccomp_load(ctx)) != 0) {
		fprintf(stderr, "seccomp_load: %s\n", strerror(-r));
		return 2;
	}
	printf("confined\n");
	for (i = 0; i < 5; i++)
		f();
	for (i = 0; i < 30000000; i++)
		sink++;
	printf("done\n");
	exit(7);
}
