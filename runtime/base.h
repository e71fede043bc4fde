/* SPDX-License-Identifier: MIT */
/*
 * base.h - the runtime's primitives (seccomp.c, fmt.c, err.c, note.c,
 * name.c, match.c, sort.c, mapped.c) and
 * what every runtime file uses: visibility, atomics, the error line.
 *
 * The runtime is layered; each layer's header includes the one below:
 * base.h < process.h < storage.h < sampler.h < writer.h < control.h
 * (DESIGN.md, "Runtime layers"; testsuite/tools/layers.sh checks it).
 */
#ifndef MON_BASE_H
#define MON_BASE_H

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "mon_abi.h"

#define MON_HIDDEN	__attribute__((__visibility__("hidden")))
#define MON_EXPORT	__attribute__((__visibility__("default")))
#define MON_WEAK_ALIAS(old, new)					\
	extern __typeof(old) new					\
	    __attribute__((__weak__, __alias__(#old), __visibility__("default")))

#define MON_LOAD(p)		__atomic_load_n((p), __ATOMIC_ACQUIRE)
#define MON_STORE(p, v)		__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define MON_ADD(p, v)		__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
/*
 * A fork child's reset of a word: stored only where it differs.  The
 * child's pages are its parent's until it writes one, and each page it
 * writes is a copy and a fault (about 2 us): a child that execs or
 * exits at once should copy none it need not.
 */
#define MON_RESET(p, v) do {						\
	if (MON_LOAD(p) != (v))						\
		MON_STORE((p), (v));					\
} while (0)
#define MON_CAS(p, e, v)						\
	__atomic_compare_exchange_n((p), (e), (v), 0, __ATOMIC_ACQ_REL,	\
	    __ATOMIC_ACQUIRE)
/* A spin-wait's step: no system call. */
#if defined(__x86_64__) || defined(__i386__)
#define MON_RELAX()		__builtin_ia32_pause()
#else
#define MON_RELAX()		__asm__ __volatile__("" ::: "memory")
#endif

/*
 * seccomp.c: what the program's seccomp filters let the runtime do in
 * its threads, by sets of the calls it makes there.
 */
#define MON_SECCOMP_STDERR	0x01	/* write(2, ...): err.c's line */
#define MON_SECCOMP_GETPID	0x02
#define MON_SECCOMP_GETTID	0x04
#define MON_SECCOMP_FUTEX	0x08	/* wait and wake, private or not */
#define MON_SECCOMP_EXIT	0x10	/* exit.c's wait: open, read /proc */
#define MON_SECCOMP_DIE		0x20	/* signal.c: sigaction, raise */
#define MON_SECCOMP_SIGRETURN	0x40	/* a handler returns */
#define MON_SECCOMP_REAP	0x80	/* final.c: wait4 __WCLONE, munmap */
#define MON_SECCOMP_SIGPROF	0x100	/* itimer.c's handler: its stack walk */
#define MON_SECCOMP_GONE	0x200	/* has a thread gone: tgkill(pid, tid, 0) */
#define MON_SECCOMP_YIELD	0x400	/* perf.c's waits: sched_yield */
#define MON_SECCOMP_ZERO	0x800	/* hist.c: pages dropped to zeros */

int	 __mon_seccomp_push(int, const void *) MON_HIDDEN;
void	 __mon_seccomp_pop(void) MON_HIDDEN;
int	 __mon_seccomp_confined(void) MON_HIDDEN;
int	 __mon_seccomp_may(unsigned) MON_HIDDEN;
/* The same for n bytes at p, to be zeros (MON_RESET). */
static inline void
__mon_reset_zero(void *p, size_t n)
{
	const unsigned char *c = (const unsigned char *)p;
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i] != 0) {
			__builtin_memset(p, 0, n);
			return;
		}
}

int	 __mon_seccomp_kills(void) MON_HIDDEN;
void	 __mon_seccomp_exempt(const void *, const void *) MON_HIDDEN;

/*
 * A system call by its instruction: the kernel's return, -4095 to -1
 * for an error, and errno untouched.  For code whose errno is another
 * thread's too (final.c's writer process shares the TLS of the thread
 * that started it) and for confine.c's syscall() and prctl().
 */
static inline __attribute__((__always_inline__,
    __target__("general-regs-only"))) long
__mon_sys(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	long rc;

	__asm__ __volatile__("syscall" : "=a" (rc)
	    : "0" (nr), "D" (a1), "S" (a2), "d" (a3), "r" (r10), "r" (r8),
	    "r" (r9) : "rcx", "r11", "memory");
	return rc;
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
#ifdef __aarch64__
#define INSN	"svc 0"
#define NR	"x8"
#define ARG(i)	"x" #i
#else
#define INSN	"ecall"
#define NR	"a7"
#define ARG(i)	"a" #i
#endif
	register long n __asm__(NR) = nr;
	register long r0 __asm__(ARG(0)) = a1;
	register long r1 __asm__(ARG(1)) = a2;
	register long r2 __asm__(ARG(2)) = a3;
	register long r3 __asm__(ARG(3)) = a4;
	register long r4 __asm__(ARG(4)) = a5;
	register long r5 __asm__(ARG(5)) = a6;

	__asm__ __volatile__(INSN : "+r" (r0) : "r" (n), "r" (r1), "r" (r2),
	    "r" (r3), "r" (r4), "r" (r5) : "memory");
	return r0;
#else
#error "base.h: no system call instruction for this architecture"
#endif
}

/* An error of __mon_sys: -1, and errno.  Apart: no frame on the way out. */
static __attribute__((__noinline__, __cold__, __unused__,
    __target__("general-regs-only"))) long
__mon_sys_fail(long rc)
{
	errno = (int)-rc;
	return -1;
}

/* __mon_sys's return as libc's: -4095 to -1 is -1 with errno. */
static inline __attribute__((__always_inline__,
    __target__("general-regs-only"))) long
__mon_sys_done(long rc)
{
	if (__builtin_expect((unsigned long)rc > -4096UL, 0))
		return __mon_sys_fail(rc);
	return rc;
}

/* err.c: one line on stderr with a raw write; no stdio, no errno change. */
#define MON_ERR(s)	__mon_err_write((s), sizeof(s) - 1)
void	 __mon_err_write(const char *, size_t) MON_HIDDEN;
void	 __mon_err_errno(const char *, const char *, int) MON_HIDDEN;
void	 __mon_err_errno_more(const char *, const char *, int,
	    const char *const *, size_t) MON_HIDDEN;

/*
 * sigmask.c: the runtime's own pthread_sigmask(), never the wrapper; its
 * pointers are sigset_t's (<signal.h>, which this header leaves out: with
 * _GNU_SOURCE it brings <unistd.h> to every file).
 */
int	 __mon_sigmask_set(int, const void *, void *) MON_HIDDEN;
int	 __mon_sigmask_has(const void *, int) MON_HIDDEN;
/* The faults: SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS. */
#define MON_NFAULTS	6
extern const int __mon_sigmask_faults[MON_NFAULTS] MON_HIDDEN;

/* mapped.c: the profile mergers' memory */
void	*__mon_mapped_anon(size_t) MON_HIDDEN;
void	 __mon_mapped_free(const void *, size_t) MON_HIDDEN;
const unsigned char *__mon_mapped_file(int, size_t, size_t, size_t *)
	    MON_HIDDEN;

/* A file's word at p, which may be unaligned. */
static inline uint64_t
__mon_mapped_u64(const void *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t
__mon_mapped_u32(const void *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

/* fmt.c */
size_t	 __mon_fmt_ulong(char *, unsigned long) MON_HIDDEN;

/* note.c */
long	 __mon_note_buildid(const char *, size_t) MON_HIDDEN;

/* name.c: output file names, pure and async-signal-safe */
int	 __mon_name_profile(const char *, int, const char *, long, char *,
	    size_t) MON_HIDDEN;
int	 __mon_name_gmon(const char *, int, const char *, const char *, long,
	    char *, size_t) MON_HIDDEN;
int	 __mon_name_thread(const char *, const char *, long, long, char *,
	    size_t) MON_HIDDEN;
int	 __mon_name_merged(const char *, int, const char *, long, char *,
	    size_t) MON_HIDDEN;
int	 __mon_name_is_merged(const char *, const char *) MON_HIDDEN;
int	 __mon_name_merged_tmp(const char *, char *, size_t) MON_HIDDEN;
int	 __mon_name_seq(char *, size_t, long) MON_HIDDEN;
int	 __mon_name_dir(const char *, char *, size_t) MON_HIDDEN;
int	 __mon_name_tmp(const char *, long, unsigned long, char *, size_t)
	    MON_HIDDEN;
int	 __mon_name_salted(const char *, unsigned long, char *, size_t)
	    MON_HIDDEN;
int	 __mon_name_is_profile(const char *, const char *, size_t *)
	    MON_HIDDEN;
size_t	 __mon_name_unseq(const char *) MON_HIDDEN;

/* match.c */
int	 __mon_match_object(const char *, const char *) MON_HIDDEN;

/* sort.c */
void	 __mon_sort_heap(void *, size_t, size_t,
	    int (*)(const void *, const void *, void *), void *) MON_HIDDEN;

#endif /* MON_BASE_H */
