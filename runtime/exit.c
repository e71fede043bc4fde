/* SPDX-License-Identifier: MIT */
/*
 * exit.c - one exit() at a time.  glibc before 2.41 lets threads that
 * call exit() together share the exit handlers; the one that finds none
 * left ends the process with the others' handlers half run, the
 * runtime's write among them (init.c's holds catch only so many).  The
 * specs file links executables with ld's --wrap=exit: the program's own
 * calls come here, and as in glibc 2.41 and Rust's std, the first
 * thread goes on while any other waits for the process to end.
 * A thread may call exit() again from an exit handler (glibc runs the
 * rest); a child with a copy of the memory, or sharing it (vfork), is
 * not held by its parent's exit.
 *
 * The wait must not become a deadlock that glibc before 2.41 would not
 * have: a program's exit handler, or a destructor, may join a thread
 * that itself calls exit() (told to stop, it takes an error path).  So
 * a waiter watches the first thread: once that one has slept, without
 * running, for MON_EXIT_PATIENCE checks in a row, outside the runtime's
 * own write of the profile (__mon_exit_busy), it is taken to wait for
 * the waiter, which then goes on into exit() as glibc would have let
 * it: it runs the handlers left and ends the process with its own
 * status.  If the first thread had passed the runtime's exit handler
 * (__mon_exit_reached), the waiter first writes the profile in its
 * place, as the destructor it would still have run: the profile is
 * whole before the process ends.  A first thread that runs is never
 * overtaken, so threads exiting together on a loaded machine still end
 * with one whole profile.
 *
 * main's return is an exit() too, made inside libc, where --wrap does
 * not reach: the specs file wraps main instead (--wrap=main, a reference
 * of the start files), and __wrap_main calls the program's main and
 * passes what it returns to __wrap_exit, so that a main returning while
 * another thread calls exit() waits as that one does, and the profile
 * is whole on disk before the process ends.  Without it the other
 * thread's exit was writing while main's ended the process, and the
 * writer process finished after the program's parent had seen it end.
 * main's return address is __mon_exit_main_return, which the gmon.out
 * writer takes for libc's, where __wrap_main was called from
 * (__mon_exit_main_caller), so that main's caller is what it was:
 * libc's in a static link, else "<external>".
 *
 * Calls from shared libraries are not wrapped: the holds still serve
 * them, and they are few.
 *
 * Where the program's seccomp filter refuses a call of the wait
 * (seccomp.c), exit() is glibc's, with no wait: a kill filter would end
 * the program on the runtime's gettid, status and output lost.
 */
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "process.h"

/*
 * Weak: only ld's --wrap=exit defines it, and only then is the wrapper
 * called; a link without the specs file takes this file for
 * __mon_exit_reached alone.
 */
extern void __real_exit(int) __attribute__((__noreturn__, __weak__));
extern const char __mon_exit_main_return[] MON_HIDDEN;

/* Where libc called main (__wrap_main) from. */
uintptr_t __mon_exit_main_caller MON_HIDDEN;
/* main has been entered: a later call (the program's own) is plain. */
char __mon_exit_in_main MON_HIDDEN;
void __wrap_exit(int) MON_HIDDEN __attribute__((__noreturn__));

/* Checks 10 ms apart that the first thread sleeps: then a waiter goes on. */
#define MON_EXIT_PATIENCE	20

static int owner;	/* the thread in exit(), or 0 */
static int reached;	/* it has reached the runtime's exit handler */
static int busy;	/* it writes the profile: never overtaken */
static void (*finish)(void);	/* the write it would still make */
static int started;	/* init.c's constructor has run */

/* init.c's constructor runs: the runtime serves this program. */
void
__mon_exit_started(void)
{
	MON_STORE(&started, 1);
}

/*
 * init.c's exit handler runs: the program's own handlers are done, and
 * fin() is the write of the profile that its destructor would make.
 */
void
__mon_exit_reached(void (*fin)(void))
{
	MON_STORE(&finish, fin);
	MON_STORE(&reached, 1);
}

/* The thread in exit() writes the profile (on), or has written it. */
void
__mon_exit_busy(int on)
{
	MON_STORE(&busy, on);
}

/* The owner may be another process's thread: a fork child's copy. */
static int
gone(int tid)
{
	int saved = errno, r;

	r = syscall(SYS_tgkill, (int)syscall(SYS_getpid), tid, 0) != 0 &&
	    errno == ESRCH;
	errno = saved;
	return r;
}

/*
 * Whether thread tid of this process sleeps (or is stopped): the state
 * in /proc/self/task/<tid>/stat, after the name's closing parenthesis.
 * 0 where it cannot be read: the waiter then keeps waiting.
 */
static int
asleep(int tid)
{
	char path[64] = "/proc/self/task/", buf[512], *p;
	size_t n = sizeof("/proc/self/task/") - 1;
	ssize_t got;
	int fd, saved = errno;

	n += __mon_fmt_ulong(path + n, (unsigned long)tid);
	memcpy(path + n, "/stat", sizeof("/stat"));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		errno = saved;
		return 0;
	}
	got = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	errno = saved;
	if (got <= 0)
		return 0;
	buf[got] = '\0';
	if ((p = strrchr(buf, ')')) == NULL || p[1] != ' ')
		return 0;
	return p[2] == 'S' || p[2] == 'D' || p[2] == 'T' || p[2] == 't';
}

void
__wrap_exit(int status)
{
	int me, was, still = 0;
	void (*fin)(void);

	if (!MON_LOAD(&started))
		/*
		 * No constructor ran: a program with a _start of its own
		 * (-nostartfiles) that never calls __libc_start_main.
		 */
		MON_ERR("monprof: the runtime never started (the program "
		    "has no start files, -nostartfiles): no profile\n");
	/*
	 * A seccomp filter of the program's that would refuse the wait's
	 * calls: glibc's exit() alone, as without the runtime (a program
	 * confined to so few calls has no other thread to wait for).
	 */
	if (__mon_self_which() != MON_SELF_SAME ||
	    !__mon_seccomp_may(MON_SECCOMP_GETTID | MON_SECCOMP_GETPID |
	    MON_SECCOMP_FUTEX | MON_SECCOMP_GONE | MON_SECCOMP_EXIT))
		__real_exit(status);
	me = (int)syscall(SYS_gettid);
	for (;;) {
		was = 0;
		if (__atomic_compare_exchange_n(&owner, &was, me, 0,
		    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) || was == me)
			break;
		if (gone(was)) {
			__atomic_compare_exchange_n(&owner, &was, 0, 0,
			    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
			continue;
		}
		/* Woken by nothing: the owner ends the process. */
		syscall(SYS_futex, &owner, FUTEX_WAIT_PRIVATE, was,
		    &(const struct timespec){ 0, 10000000L }, NULL, 0);
		if (MON_LOAD(&owner) != was || MON_LOAD(&busy) ||
		    !asleep(was))
			still = 0;
		else if (++still >= MON_EXIT_PATIENCE) {
			/* It waits for this thread: as glibc before 2.41. */
			if (MON_LOAD(&reached) &&
			    (fin = MON_LOAD(&finish)) != NULL)
				fin();
			break;
		}
	}
	__real_exit(status);
}

/*
 * int __wrap_main(int argc, char **argv, char **envp): exit(main(...)),
 * the return address of main a label of its own.  Assembly: the label
 * must follow the call itself.  The stack is aligned as main expects,
 * and the frame unwinds to libc's as before.  __real_main is weak: a
 * program linked without start files has no main, and never comes here.
 * Only the first call, the start files', is libc's: main called again
 * from another of the program's files (ld wraps those references too)
 * is jumped to, and returns to its caller.
 */
#ifdef __x86_64__
__asm__("	.text\n"
	"	.globl	__wrap_main\n"
	"	.hidden	__wrap_main\n"
	"	.type	__wrap_main, @function\n"
	"	.p2align 4\n"
	"__wrap_main:\n"
	"	.cfi_startproc\n"
	"	.weak	__real_main\n"
	"	cmpb	$0, __mon_exit_in_main(%rip)\n"
	"	jne	1f\n"
	"	movb	$1, __mon_exit_in_main(%rip)\n"
	"	subq	$8, %rsp\n"
	"	.cfi_adjust_cfa_offset 8\n"
	"	movq	8(%rsp), %rax\n"
	"	movq	%rax, __mon_exit_main_caller(%rip)\n"
	"	call	__real_main\n"
	"	.globl	__mon_exit_main_return\n"
	"	.hidden	__mon_exit_main_return\n"
	"__mon_exit_main_return:\n"
	"	movl	%eax, %edi\n"
	"	call	__wrap_exit\n"
	"1:	jmp	__real_main\n"
	"	.cfi_endproc\n"
	"	.size	__wrap_main, .-__wrap_main\n");
#endif

/* The caller pc from stands for: libc's, for main's return address. */
uintptr_t
__mon_exit_caller(uintptr_t from)
{
#ifdef __x86_64__
	if (from == (uintptr_t)__mon_exit_main_return)
		return MON_LOAD(&__mon_exit_main_caller);
#endif
	return from;
}
