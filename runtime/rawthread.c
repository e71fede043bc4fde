/* SPDX-License-Identifier: MIT */
/*
 * rawthread.c - a thread of the runtime's own that the C library does
 * not count: perf.c's helper, where the process may have one.
 *
 * glibc forks a process that has ever had a second thread another way:
 * it takes the malloc arenas' and stdio's locks around the fork, resets
 * them in the child, reclaims the other threads' stacks there and runs
 * more fork hooks, each touching pages that the fork made copy-on-write
 * (16 more page faults a fork, 0.05 to 0.08 ms of CPU: DESIGN.md).  It
 * also tells the program that it is no longer single-threaded
 * (__libc_single_threaded), which libstdc++ reads to make every
 * shared_ptr copy atomic.  A thread made by clone() alone is none of
 * glibc's: its forks, and its program, stay single-threaded ones.
 *
 * It still runs C library code (the drain's system calls and errno,
 * _dl_find_object), so it gets a thread pointer of its own: the static
 * TLS block and DTV that pthread_create would give it, made by the
 * loader's _dl_allocate_tls, and the descriptor fields that this code
 * reads, set as pthread_create sets them: the self pointers, the stack
 * and pointer guards, and the tid, at the offset glibc publishes for
 * libthread_db (_thread_db_pthread_tid): the loader's recursive lock
 * knows its owner by it.  These are GLIBC_PRIVATE symbols, looked up
 * with dlvsym: where one is missing (another C library, a static link,
 * a layout not checked here) the helper is a pthread, as before.
 *
 * glibc changes the credentials of its own threads only (setuid() and
 * the like signal each of them to make the call): a helper of a process
 * that holds a privilege (root, a set-id program, any capability) would
 * keep it after the program dropped it.  Such a process gets a pthread.
 * An unprivileged process can change its credentials only by exec, or
 * by unshare() or setns() into a user namespace, around which the
 * helper ends and starts again (unshare.c), deciding anew.
 *
 * Not counted by glibc, the thread is not waited for by dlclose() while
 * it binds a symbol lazily (_dl_wait_gscope walks glibc's threads):
 * only the helper's first call of each libc function binds one.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <dlfcn.h>
#include <errno.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "process.h"

/*
 * The offset of a 32-bit word of glibc's thread descriptor, as
 * libthread_db reads it (sym, GLIBC_PRIVATE: { bits, count, offset }),
 * checked to lie within the descriptor, whose size goes to *size; 0
 * where there is none to be had (another C library, a static link).
 */
uint32_t
__mon_rawthread_field(const char *sym, uint32_t *size)
{
#if defined(__GLIBC__)
	const uint32_t *f = dlvsym(RTLD_DEFAULT, sym, "GLIBC_PRIVATE");
	const uint32_t *n = dlvsym(RTLD_DEFAULT, "_thread_db_sizeof_pthread",
	    "GLIBC_PRIVATE");

	if (f == NULL || n == NULL || f[0] != 32 || f[1] != 1 ||
	    f[2] == 0 || f[2] % 4 != 0 || f[2] + 4 > n[0])
		return 0;
	if (size != NULL)
		*size = n[0];
	return f[2];
#else
	(void)sym;
	(void)size;
	return 0;
#endif
}

#if defined(__x86_64__) && defined(__GLIBC__)
/*
 * x86-64 glibc's tcbhead_t, the head of its thread descriptor: the
 * thread pointer (%fs:0, the psABI's), the DTV, the descriptor's own
 * address (THREAD_SELF), whether threads exist, the stack guard (%fs:
 * 0x28, GCC's -fstack-protector) and the pointer guard (PTR_MANGLE).
 */
#define TCB_TCB		0x00
#define TCB_DTV		0x08
#define TCB_SELF	0x10
#define TCB_THREADS	0x18
#define TCB_STACKGUARD	0x28
#define TCB_PTRGUARD	0x30
#define TCB_HEAD	0x40	/* the descriptor is at least this long */

static void *(*alloc_tls)(void *);
static void (*free_tls)(void *, _Bool);
static uint32_t tidoff, tcbsize;
static int looked;	/* 0 not yet, 1 found, -1 none to be had */

/*
 * glibc's pieces, once: _dl_allocate_tls, and the tid's place in and
 * the size of the descriptor, as libthread_db reads them ({ bits,
 * count, offset } and a size).
 */
static int
look(void)
{
	if (looked != 0)
		return looked > 0;
	alloc_tls = (void *(*)(void *))dlvsym(RTLD_DEFAULT,
	    "_dl_allocate_tls", "GLIBC_PRIVATE");
	free_tls = (void (*)(void *, _Bool))dlvsym(RTLD_DEFAULT,
	    "_dl_deallocate_tls", "GLIBC_PRIVATE");
	tidoff = __mon_rawthread_field("_thread_db_pthread_tid", &tcbsize);
	looked = alloc_tls != NULL && free_tls != NULL && tidoff >= TCB_HEAD ?
	    1 : -1;
	return looked > 0;
}

/* Whether this thread holds no privilege that it could drop (above). */
static int
unprivileged(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	/* Calls that a filter could refuse by killing: none made. */
	if (__mon_seccomp_kills())
		return 0;
	if (getresuid(&ru, &eu, &su) != 0 || getresgid(&rg, &eg, &sg) != 0 ||
	    ru != eu || eu != su || rg != eg || eg != sg ||
	    syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[0].permitted | d[1].permitted | d[0].effective |
	    d[1].effective | d[0].inheritable | d[1].inheritable) == 0;
}

static int
entry(void *arg)
{
	struct __mon_rawthread *t = arg;
	uint64_t all = ~(uint64_t)0;

	/* glibc's sigfillset() leaves out its own two (SIGCANCEL,
	 * SIGSETXID), for its threads: this is none of them. */
	(void)__mon_sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, 0,
	    sizeof(all), 0, 0);
	t->fn(t->arg);
	return 0;	/* glibc's clone() ends the thread: exit, not exit_group */
}

/*
 * Whether a thread that glibc does not count may be had here: glibc's
 * pieces are found, and the process holds no privilege (above).
 */
int
__mon_rawthread_possible(void)
{
	return look() && unprivileged();
}

/*
 * Start fn(arg) on a thread that glibc does not count, where
 * __mon_rawthread_possible() said one may be had, with all
 * signals blocked (the caller's mask, which it sets); 0, or -1 where
 * there is none to be had here (the caller makes a pthread instead).
 * Its stack and TLS stay from one start to the next, and in a fork
 * child, for that process's next start: they are not freed when it
 * ends (it may end in a signal handler, where free() may not be
 * called), but its DTV at the next start, where the loader allocates
 * the next one (where pthread_create would allocate).
 */
int
__mon_rawthread_start(struct __mon_rawthread *t, size_t stacklen,
    void *(*fn)(void *), void *arg)
{
	uintptr_t guard, ptrguard;
	size_t pagesz;
	void *tcb, *self;
	char *p;
	int saved = errno, rc = -1;

	if (!look())
		goto out;
	/* Not on the helper's own thread pointer (a fork child of the
	 * helper, in the exit() it makes for the program: perf.c). */
	__asm__("mov %%fs:%c1, %0" : "=r" (self) : "i" (TCB_TCB));
	if (t->tcb != NULL && self == t->tcb)
		goto out;
	pagesz = (size_t)sysconf(_SC_PAGESIZE);
	if (t->stack == NULL) {
		p = mmap(NULL, stacklen + pagesz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
		    -1, 0);
		if (p == MAP_FAILED)
			goto out;
		/* A guard page below, as glibc's thread stacks have. */
		(void)mprotect(p, pagesz, PROT_NONE);
		t->stack = p;
		t->stacklen = stacklen + pagesz;
	}
	/* Again on the same memory: a new DTV, the TLS blocks afresh, the
	 * last start's DTV freed (300 bytes an unshare() else). */
	if (t->tcb != NULL) {
		free_tls(t->tcb, 0);
		memset(t->tcb, 0, tcbsize);
	}
	if ((tcb = alloc_tls(t->tcb)) == NULL)
		goto out;
	t->tcb = tcb;
	p = tcb;
	__asm__("mov %%fs:%c1, %0" : "=r" (guard) : "i" (TCB_STACKGUARD));
	__asm__("mov %%fs:%c1, %0" : "=r" (ptrguard) : "i" (TCB_PTRGUARD));
	*(void **)(p + TCB_TCB) = tcb;
	*(void **)(p + TCB_SELF) = tcb;
	*(int *)(p + TCB_THREADS) = 1;
	*(uintptr_t *)(p + TCB_STACKGUARD) = guard;
	*(uintptr_t *)(p + TCB_PTRGUARD) = ptrguard;
	t->tid = (int *)(p + tidoff);
	*t->tid = 0;
	t->fn = fn;
	t->arg = arg;
	/* The kernel sets the tid before clone returns and clears it (and
	 * wakes a futex on it) when the thread has ended, as for glibc's. */
	if (clone(entry, (char *)t->stack + t->stacklen, CLONE_VM | CLONE_FS |
	    CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM |
	    CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID, t,
	    t->tid, tcb, t->tid) == -1)
		goto out;
	MON_STORE(&t->running, 1);
	rc = 0;
out:
	errno = saved;
	return rc;
}
#else
int
__mon_rawthread_possible(void)
{
	return 0;
}

int
__mon_rawthread_start(struct __mon_rawthread *t, size_t stacklen,
    void *(*fn)(void *), void *arg)
{
	(void)t;
	(void)stacklen;
	(void)fn;
	(void)arg;
	return -1;
}
#endif

/* Wait until the thread has ended (the kernel has cleared its tid). */
void
__mon_rawthread_join(struct __mon_rawthread *t)
{
	int saved = errno, tid;

	if (!MON_LOAD(&t->running))
		return;
	/* Not a private futex: the kernel's wake at the end is shared. */
	while ((tid = MON_LOAD(t->tid)) != 0)
		(void)syscall(SYS_futex, t->tid, FUTEX_WAIT, tid, NULL, NULL,
		    0);
	MON_STORE(&t->running, 0);
	errno = saved;
}

/* fork child: the thread was the parent's; its stack and TLS stay. */
void
__mon_rawthread_forget(struct __mon_rawthread *t)
{
	MON_RESET(&t->running, 0);
}
