/* SPDX-License-Identifier: MIT */
/*
 * safepoint.c - whether a thread that a signal interrupted may start the
 * perf sampler from the handler: a fork child's sampler starts late
 * (sampler.c), from its CPU timer's handler, and that start calls
 * pthread_create, which takes the C library's locks (its stack cache,
 * the loader's TLS lock, malloc's arena for the thread's DTV).  It may
 * only where no call of the C library or the loader is under way on
 * the thread, and the only thread is it (a fork child before its first
 * pthread_create, which starts the sampler itself).
 *
 * So the interrupted stack is walked by the objects' own rows alone
 * (unwind.c's exact walk: no frame guessed, none skipped), and every
 * frame must be the program's: no frame in the C library, the loader
 * or the runtime (a vDSO function's caller is the C library), but the
 * thread's first ones: _start (the ELF entry), at most two frames of
 * the C library under it (__libc_start_main, and __libc_start_call_main
 * since glibc 2.34), and the runtime's wrapper of main where linked.
 * Three or more are exit() running the program's exit handlers,
 * refused.  A stack that the walk cannot see whole (no rows, too deep)
 * is refused: the next tick tries again.
 *
 * malloc must be the C library's: pthread_create allocates the DTV with
 * whatever malloc the program links, and the program's own may be the
 * code interrupted.  Where it is not, or the C library is the
 * executable (a static link), no point is safe and the child starts its
 * sampler at once, as its parent did.
 */
#include <sys/auxv.h>

#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "sampler.h"

/* Weak, as thread.c's: a static link has no loader to look in. */
extern void *dlsym(void *, const char *) __attribute__((__weak__));

/* Objects whose code a safe stack has none of, but at its bottom. */
#define MON_SAFEPOINT_OBJS	4
/* The C library's frames under the program's first, at most. */
#define MON_SAFEPOINT_START	2
/* How far past the ELF entry _start's call of the C library lies. */
#define MON_SAFEPOINT_ENTRY	64
/* The deepest stack looked at. */
#define MON_SAFEPOINT_DEPTH	256

static int	 objs[MON_SAFEPOINT_OBJS];	/* sframe.c's entries */
static int	 nobjs;
static int	 libc;		/* the C library's entry */
static uintptr_t entry;		/* the ELF entry: _start */
static uintptr_t rt_lo, rt_hi;	/* the runtime's code, where linked */
static int	 rt_obj = -1;	/* the runtime's entry, a shared object */
static int	 known;		/* the above are set: a point may be safe */

static void
add(uintptr_t a)
{
	int o = __mon_sframe_object(a), i;

	if (o < 0 || nobjs == MON_SAFEPOINT_OBJS)
		return;
	for (i = 0; i < nobjs; i++)
		if (objs[i] == o)
			return;
	objs[nobjs++] = o;
}

/*
 * Learn the objects (in normal context, once the objects are scanned):
 * the C library by its pthread_mutex_lock (libpthread's before glibc
 * 2.34, where pthread_create was), the loader by its entry, and the
 * runtime where it is a shared object.  0 if a point may be
 * safe, -1 if none ever is.
 */
int
__mon_safepoint_learn(void)
{
	const ElfW(Ehdr) *ld = (const ElfW(Ehdr) *)getauxval(AT_BASE);
	void *tls;
	int exe;

	if (MON_LOAD(&known))
		return 0;
	nobjs = 0;
	libc = __mon_sframe_object((uintptr_t)&abort);
	exe = __mon_sframe_object((uintptr_t)&__mon_safepoint_learn);
	entry = (uintptr_t)getauxval(AT_ENTRY);
	if (libc < 0 || entry == 0 || libc == exe ||
	    __mon_sframe_object(entry) < 0 ||
	    __mon_sframe_object((uintptr_t)&malloc) != libc ||
	    __mon_sframe_object((uintptr_t)&calloc) != libc ||
	    __mon_sframe_object((uintptr_t)&free) != libc)
		return -1;
	objs[nobjs++] = libc;
	add((uintptr_t)&pthread_mutex_lock);
	/*
	 * The loader's entry, where its header (mapped) says; and one of
	 * its functions, as AT_BASE is 0 in a program the loader was run
	 * with (ld.so ./prog).
	 */
	if (ld != NULL)
		add((uintptr_t)ld + ld->e_entry);
	if (dlsym != NULL &&	/* NULL: RTLD_DEFAULT */
	    (tls = dlsym(NULL, "__tls_get_addr")) != NULL)
		add((uintptr_t)tls);
	__mon_exe_runtime(&rt_lo, &rt_hi);
	if (rt_lo == rt_hi) {
		add((uintptr_t)&__mon_safepoint_learn);
		rt_obj = __mon_sframe_object((uintptr_t)&__mon_safepoint_learn);
	}
	MON_STORE(&known, 1);
	return 0;
}

/* Whether learnt: the fork child may start its sampler late. */
int
__mon_safepoint_known(void)
{
	return MON_LOAD(&known);
}

static int
unsafe(uintptr_t a)
{
	int o = __mon_sframe_object(a), i;

	if (o < 0 || (a >= rt_lo && a < rt_hi))
		return 1;
	for (i = 0; i < nobjs; i++)
		if (objs[i] == o)
			return 1;
	return 0;
}

/*
 * Whether the frames f[from..n) are the program's, then its start: at
 * least one frame of the program's, then the runtime's __wrap_main,
 * which called main, where linked, then the C library's start, and
 * _start.
 */
static int
whole(const uintptr_t *f, size_t n, size_t from)
{
	uintptr_t a;
	size_t i, k;

	for (i = from; i < n; i++) {
		a = i == 0 ? f[i] : f[i] - 1;
		if (unsafe(a))
			break;
	}
	if (i == from)
		return 0;
	if (i < n && f[i] - 1 >= rt_lo && f[i] - 1 < rt_hi)
		i++;
	for (k = i; k < n && k - i < MON_SAFEPOINT_START &&
	    __mon_sframe_object(f[k] - 1) == libc; k++)
		continue;
	return k > i && k < n && f[k] - 1 >= entry &&
	    f[k] - 1 < entry + MON_SAFEPOINT_ENTRY;
}

/*
 * Whether the thread interrupted at pc, sp and fp (its stack read by
 * rd) may start the sampler now.  Async-signal-safe.
 */
int
__mon_safepoint_at(uintptr_t pc, uintptr_t sp, uintptr_t fp,
    __mon_unwind_read rd, void *ctx)
{
	uintptr_t f[MON_SAFEPOINT_DEPTH];
	size_t n;

	if (!MON_LOAD(&known))
		return 0;
	f[0] = pc;
	n = __mon_unwind_exact(f, MON_SAFEPOINT_DEPTH, sp, fp, rd, ctx);
	return whole(f, n, 0);
}

/* Whether a is the runtime's code. */
static int
runtime(uintptr_t a)
{
	return (a >= rt_lo && a < rt_hi) ||
	    (rt_obj >= 0 && __mon_sframe_object(a) == rt_obj);
}

/*
 * Whether the thread calling may stop or start the sampler here, in
 * normal context: under the runtime's frames (a fork handler's, a
 * wrapper's) and at most libc of the C library's that called them
 * (fork()'s two: __libc_fork, __run_fork_handlers), a safe stack, as
 * above.  Not where the program's call came from a signal handler (the
 * C library's sigreturn frame lies between the program's), nor from
 * the C library's own code (an exit handler, pthread_once's routine),
 * nor on a thread of the program's other than main.
 */
int
__mon_safepoint_caller(int libc_frames)
{
#if defined(__x86_64__)
	struct __mon_unwind_window win = { 0, 0, { 0 } };
	uintptr_t f[MON_SAFEPOINT_DEPTH], sp, fp;
	size_t n, i;
	int k;

	if (!MON_LOAD(&known))
		return 0;
	__asm__ volatile("lea 0(%%rip), %0\n\tmov %%rsp, %1\n\tmov %%rbp, %2"
	    : "=r" (f[0]), "=r" (sp), "=r" (fp));
	n = __mon_unwind_exact(f, MON_SAFEPOINT_DEPTH, sp, fp,
	    __mon_unwind_live, &win);
	for (i = 0; i < n && runtime(i == 0 ? f[i] : f[i] - 1); i++)
		continue;
	for (k = 0; k < libc_frames && i > 0 && i < n &&
	    __mon_sframe_object(f[i] - 1) == libc; k++)
		i++;
	return i > 0 && whole(f, n, i);
#else
	(void)libc_frames;
	return 0;
#endif
}
