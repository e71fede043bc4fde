/*
 * 144-seccomp-kill: the program confines itself with a seccomp filter
 * that allows only what it needs itself (write, exit_group, and what
 * stdio and malloc ask for: newfstatat or fstat, brk, getrandom) and
 * whose action for anything else is argv[1]'s: "kill-process",
 * "kill-thread", "trap" (SIGSYS), or "strict" (strict mode instead:
 * read, write, exit, rt_sigreturn; else SIGKILL).  argv[2]: "prctl"
 * installs it with prctl(PR_SET_SECCOMP), "tsync" with
 * syscall(SYS_seccomp, ..., SECCOMP_FILTER_FLAG_TSYNC), "futex" with
 * prctl and futex allowed too, "threads" with TSYNC and what threads
 * need allowed too (clone, mmap, futex..., not gettid): once confined,
 * 4 threads call f() 1000 times each.  argv[3]: "clean" keeps to the list,
 * "violate" calls getppid() once confined, before its last output.
 * It writes its output through stdio, buffered, burns some CPU (so a
 * CPU-time sampler would signal it), and exits 7.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline, noclone)) static void
f(void)
{
	sink++;
}

static void *
work(void *arg)
{
	int i;

	for (i = 0; i < 1000; i++)
		f();
	return arg;
}

static struct sock_filter allow[64];
static unsigned short n;

static void
add(unsigned nr)
{
	struct sock_filter jeq = BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
	struct sock_filter ret = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);

	allow[n++] = jeq;
	allow[n++] = ret;
}

/* The program's own needs, and threads' where asked. */
static const unsigned needs[] = {
	SYS_write, SYS_exit_group, SYS_newfstatat, SYS_fstat, SYS_brk,
	SYS_getrandom,
}, threads[] = {
	SYS_clone, SYS_clone3, SYS_mmap, SYS_mprotect, SYS_munmap,
	SYS_madvise, SYS_set_robust_list, SYS_rseq, SYS_rt_sigprocmask,
	SYS_rt_sigaction, SYS_futex, SYS_exit,
};

int
main(int argc, char **argv)
{
	struct sock_filter ld = BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	struct sock_fprog prog;
	const char *act, *how, *run;
	pthread_t t[4];
	size_t k;
	long r;
	int i;

	if (argc != 4)
		return 2;
	act = argv[1];
	how = argv[2];
	run = argv[3];
	allow[n++] = ld;
	for (k = 0; k < sizeof(needs) / sizeof(needs[0]); k++)
		add(needs[k]);
	if (strcmp(how, "futex") == 0)
		add(SYS_futex);
	if (strcmp(how, "threads") == 0)
		for (k = 0; k < sizeof(threads) / sizeof(threads[0]); k++)
			add(threads[k]);
	allow[n].code = BPF_RET | BPF_K;
	allow[n++].k = strcmp(act, "kill-thread") == 0 ?
	    SECCOMP_RET_KILL_THREAD : strcmp(act, "trap") == 0 ?
	    SECCOMP_RET_TRAP : SECCOMP_RET_KILL_PROCESS;
	prog.len = n;
	prog.filter = allow;
	for (i = 0; i < 5; i++)
		f();
	if (strcmp(act, "strict") == 0) {
		/* stdio's buffer and its fstat before: strict mode has none. */
		printf("confined\n");
		r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0);
	} else if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		r = -1;
	else if (strcmp(how, "tsync") == 0 || strcmp(how, "threads") == 0)
		r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		    SECCOMP_FILTER_FLAG_TSYNC, &prog);
	else
		r = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
	if (r != 0) {
		perror("seccomp");
		return 2;
	}
	if (strcmp(act, "strict") != 0)
		printf("confined\n");
	for (i = 0; i < 5; i++)
		f();
	if (strcmp(how, "threads") == 0) {
		for (i = 0; i < 4; i++)
			if (pthread_create(&t[i], NULL, work, NULL) != 0)
				return 3;
		for (i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
	}
	for (i = 0; i < 30000000; i++)
		sink++;
	if (strcmp(run, "violate") == 0)
		getppid();
	printf("done\n");
	if (strcmp(act, "strict") == 0) {
		/* exit_group is not strict mode's: the thread's exit is. */
		fflush(stdout);
		syscall(SYS_exit, 7);
	}
	exit(7);
}
