/* SPDX-License-Identifier: MIT */
/*
 * seccomp.c - what the program's seccomp filters let the runtime do.
 * A program may confine itself (OpenSSH's privilege-separated child, a
 * browser's renderer): a filter that returns EPERM for a system call,
 * or kills the thread or the process, or sends SIGSYS.  The runtime's
 * own calls are filtered too, and one the program never makes (gettid
 * at exit, clone for the writer process, open for the profile) would
 * end it with a status or signal of the runtime's making, its buffered
 * output lost.
 *
 * confine.c sees each filter as it is installed (the program's and its
 * libraries' prctl(PR_SET_SECCOMP) and syscall(SYS_seccomp) calls) and
 * hands it here first: a copy of its classic BPF program is kept, and
 * this file runs the copies as the kernel runs the filters (every filter on a
 * made-up seccomp_data, the action of highest precedence wins), for
 * the few system calls the runtime still makes in the program's
 * threads once it is confined: a call is made only if every filter
 * allows it (ALLOW or LOG).  An argument the runtime cannot know in
 * advance (an address, a descriptor number), or the instruction
 * pointer, that a filter reads makes its answer unknown: refused.  A
 * filter that could not be copied, or strict mode, refuses all but
 * strict mode's four calls.  Whether the filters can kill at all (any
 * action but ALLOW, LOG, ERRNO or TRACE, or a return of A) is kept
 * too: where none can, the runtime's calls fail with an errno at worst,
 * and it makes them as before.
 *
 * A process started before the filters (final.c's writer) is not
 * filtered by them, nor by a later one (SECCOMP_FILTER_FLAG_TSYNC
 * reaches the thread group only): code on its stack is answered for
 * the filters in force when it started.
 *
 * The answers are computed when a filter is installed, one set of bits
 * per depth; reading them is a load: async-signal-safe, no errno
 * change.  Linux copies filters to a fork child, and so does fork here.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <string.h>
#include <sys/wait.h>

#include "base.h"

/* Reached from the hooks, whose stubs save no vector register. */
#pragma GCC target("general-regs-only")

#ifndef SECCOMP_RET_KILL_PROCESS
#define SECCOMP_RET_KILL_PROCESS	0x80000000U
#endif
#ifndef SECCOMP_RET_LOG
#define SECCOMP_RET_LOG			0x7ffc0000U
#endif
#ifndef SECCOMP_RET_ACTION_FULL
#define SECCOMP_RET_ACTION_FULL		0xffff0000U
#endif

#if defined(__x86_64__)
#define ARCH		AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH		AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define ARCH		AUDIT_ARCH_I386
#else
#define ARCH		0	/* every answer: refused (arch unknown) */
#endif

#define MAXF		64	/* filters kept; past that, unknown */

#define KIND_BPF	1
#define KIND_STRICT	2	/* read, write, exit, rt_sigreturn; else killed */
#define KIND_UNKNOWN	3	/* not copied: refuses everything */

static struct {
	int		 kind;
	unsigned short	 len;
	struct sock_filter *insn;	/* a copy, mapped; NULL unless BPF */
} filt[MAXF];

static int nfilt;		/* filters in force (installed, or pushed) */
static int busy;		/* push and pop, one thread at a time */
/* Per depth d (the first d filters): the MON_SECCOMP_* sets allowed. */
static unsigned may_at[MAXF + 1] = { ~0U };
/* Per depth: no filter can kill (KILL_*, TRAP, USER_NOTIF, RET A). */
static unsigned char killfree_at[MAXF + 1] = { 1 };

/* The stack of a process started at a depth (the writer's). */
static uintptr_t exempt_lo, exempt_hi;
static int exempt_depth;

/* One system call as the runtime makes it: known arguments by bit. */
struct call {
	int		 nr;
	unsigned	 known;		/* bit i: args[i] known */
	unsigned long	 a[6];
};

#define A(i)		(1U << (i))

/* What a filter reads: a word of seccomp_data, or unknown (-1). */
static int
data_word(const struct call *c, unsigned k, uint32_t *w)
{
	unsigned i;

	if (k >= sizeof(struct seccomp_data) || (k & 3) != 0)
		return -1;
	if (k == offsetof(struct seccomp_data, nr)) {
		*w = (uint32_t)c->nr;
		return 0;
	}
	if (k == offsetof(struct seccomp_data, arch)) {
		*w = ARCH;
		return ARCH != 0 ? 0 : -1;
	}
	if (k < offsetof(struct seccomp_data, args))
		return -1;	/* the instruction pointer */
	i = (k - (unsigned)offsetof(struct seccomp_data, args)) / 8;
	if ((c->known & A(i)) == 0)
		return -1;
	/* Native byte order: the low word first on a little-endian one. */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	*w = (k & 4) == 0 ? (uint32_t)c->a[i] : (uint32_t)(c->a[i] >> 32);
#else
	*w = (k & 4) == 0 ? (uint32_t)(c->a[i] >> 32) : (uint32_t)c->a[i];
#endif
	return 0;
}

/*
 * Run one classic BPF program as seccomp does (seccomp_check_filter's
 * instructions; a division by a zero X returns 0): its return value, or
 * KILL_PROCESS where it reads what is not known or is not well formed.
 */
static uint32_t
run(const struct sock_filter *f, unsigned len, const struct call *c)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 }, w;
	unsigned pc;

	for (pc = 0; pc < len; pc++) {
		const struct sock_filter *i = &f[pc];
		uint32_t src = BPF_SRC(i->code) == BPF_X ? x : i->k;

		switch (i->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (data_word(c, i->k, &w) != 0)
				return SECCOMP_RET_KILL_PROCESS;
			a = w;
			break;
		case BPF_LD | BPF_W | BPF_LEN:
			a = sizeof(struct seccomp_data);
			break;
		case BPF_LDX | BPF_W | BPF_LEN:
			x = sizeof(struct seccomp_data);
			break;
		case BPF_LD | BPF_IMM:
			a = i->k;
			break;
		case BPF_LDX | BPF_IMM:
			x = i->k;
			break;
		case BPF_LD | BPF_MEM:
		case BPF_LDX | BPF_MEM:
			if (i->k >= BPF_MEMWORDS)
				return SECCOMP_RET_KILL_PROCESS;
			if (BPF_CLASS(i->code) == BPF_LD)
				a = mem[i->k];
			else
				x = mem[i->k];
			break;
		case BPF_ST:
		case BPF_STX:
			if (i->k >= BPF_MEMWORDS)
				return SECCOMP_RET_KILL_PROCESS;
			mem[i->k] = i->code == BPF_ST ? a : x;
			break;
		case BPF_MISC | BPF_TAX:
			x = a;
			break;
		case BPF_MISC | BPF_TXA:
			a = x;
			break;
		case BPF_ALU | BPF_NEG:
			a = -a;
			break;
		case BPF_ALU | BPF_ADD | BPF_K: case BPF_ALU | BPF_ADD | BPF_X:
			a += src;
			break;
		case BPF_ALU | BPF_SUB | BPF_K: case BPF_ALU | BPF_SUB | BPF_X:
			a -= src;
			break;
		case BPF_ALU | BPF_MUL | BPF_K: case BPF_ALU | BPF_MUL | BPF_X:
			a *= src;
			break;
		case BPF_ALU | BPF_DIV | BPF_K: case BPF_ALU | BPF_DIV | BPF_X:
			if (src == 0)
				return 0;
			a /= src;
			break;
		case BPF_ALU | BPF_AND | BPF_K: case BPF_ALU | BPF_AND | BPF_X:
			a &= src;
			break;
		case BPF_ALU | BPF_OR | BPF_K: case BPF_ALU | BPF_OR | BPF_X:
			a |= src;
			break;
		case BPF_ALU | BPF_XOR | BPF_K: case BPF_ALU | BPF_XOR | BPF_X:
			a ^= src;
			break;
		case BPF_ALU | BPF_LSH | BPF_K: case BPF_ALU | BPF_LSH | BPF_X:
			a = src < 32 ? a << src : 0;
			break;
		case BPF_ALU | BPF_RSH | BPF_K: case BPF_ALU | BPF_RSH | BPF_X:
			a = src < 32 ? a >> src : 0;
			break;
		case BPF_JMP | BPF_JA:
			pc += i->k;
			break;
		case BPF_JMP | BPF_JEQ | BPF_K: case BPF_JMP | BPF_JEQ | BPF_X:
			pc += a == src ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGE | BPF_K: case BPF_JMP | BPF_JGE | BPF_X:
			pc += a >= src ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JGT | BPF_K: case BPF_JMP | BPF_JGT | BPF_X:
			pc += a > src ? i->jt : i->jf;
			break;
		case BPF_JMP | BPF_JSET | BPF_K: case BPF_JMP | BPF_JSET | BPF_X:
			pc += (a & src) != 0 ? i->jt : i->jf;
			break;
		case BPF_RET | BPF_K:
			return i->k;
		case BPF_RET | BPF_A:
			return a;
		default:
			return SECCOMP_RET_KILL_PROCESS;
		}
	}
	return SECCOMP_RET_KILL_PROCESS;	/* ran off the end */
}

/* The kernel's precedence: the lowest action, as a signed number. */
#define ACTION(r)	((int32_t)((r) & SECCOMP_RET_ACTION_FULL))

/* Whether the first depth filters allow call c (ALLOW or LOG). */
static int
allows(int depth, const struct call *c)
{
	uint32_t ret = SECCOMP_RET_ALLOW, r;
	int i;

	for (i = 0; i < depth; i++) {
		switch (filt[i].kind) {
		case KIND_BPF:
			r = run(filt[i].insn, filt[i].len, c);
			break;
		case KIND_STRICT:
			r = c->nr == SYS_read || c->nr == SYS_write ||
			    c->nr == SYS_exit || c->nr == SYS_rt_sigreturn ?
			    SECCOMP_RET_ALLOW : SECCOMP_RET_KILL_THREAD;
			break;
		default:
			r = SECCOMP_RET_KILL_PROCESS;
			break;
		}
		if (ACTION(r) < ACTION(ret))
			ret = r;
	}
	return (ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ALLOW ||
	    (ret & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_LOG;
}

/*
 * The runtime's calls in the program's threads, by set: each exactly as
 * it makes them, the arguments it cannot know left unknown.
 */
static const struct {
	unsigned	 set;
	struct call	 c;
} calls[] = {
	{ MON_SECCOMP_STDERR, { SYS_write, A(0), { 2 } } },
	{ MON_SECCOMP_GETPID, { SYS_getpid, 0, { 0 } } },
	{ MON_SECCOMP_GETTID, { SYS_gettid, 0, { 0 } } },
	{ MON_SECCOMP_FUTEX, { SYS_futex, A(1), { 0, FUTEX_WAIT_PRIVATE } } },
	{ MON_SECCOMP_FUTEX, { SYS_futex, A(1), { 0, FUTEX_WAKE_PRIVATE } } },
	{ MON_SECCOMP_FUTEX, { SYS_futex, A(1), { 0, FUTEX_WAIT } } },
	{ MON_SECCOMP_FUTEX, { SYS_futex, A(1), { 0, FUTEX_WAKE } } },
	/* Has a thread gone (exit.c, arena.c)? */
	{ MON_SECCOMP_GONE, { SYS_getpid, 0, { 0 } } },
	{ MON_SECCOMP_GONE, { SYS_tgkill, A(2), { 0, 0, 0 } } },
	/* exit.c's wait: is the first thread asleep? */
	{ MON_SECCOMP_EXIT, { SYS_openat, A(0) | A(2) | A(3),
	    { (unsigned long)AT_FDCWD, 0, O_RDONLY | O_CLOEXEC, 0 } } },
	{ MON_SECCOMP_EXIT, { SYS_read, 0, { 0 } } },
	{ MON_SECCOMP_EXIT, { SYS_close, 0, { 0 } } },
	/* signal.c's fatal handler: sigpending, sigaction, raise. */
	{ MON_SECCOMP_DIE, { SYS_rt_sigpending, A(1), { 0, 8 } } },
	{ MON_SECCOMP_DIE, { SYS_rt_sigaction, A(3), { 0, 0, 0, 8 } } },
	{ MON_SECCOMP_DIE, { SYS_rt_sigprocmask, A(3), { 0, 0, 0, 8 } } },
	{ MON_SECCOMP_DIE, { SYS_getpid, 0, { 0 } } },
	{ MON_SECCOMP_DIE, { SYS_gettid, 0, { 0 } } },
	{ MON_SECCOMP_DIE, { SYS_tgkill, 0, { 0 } } },
	{ MON_SECCOMP_SIGRETURN, { SYS_rt_sigreturn, 0, { 0 } } },
	/* itimer.c's SIGPROF handler: the stack read by process_vm_readv. */
	{ MON_SECCOMP_SIGPROF, { SYS_getpid, 0, { 0 } } },
	{ MON_SECCOMP_SIGPROF, { SYS_process_vm_readv, A(2) | A(5),
	    { 0, 0, 1, 0, 0, 0 } } },
	{ MON_SECCOMP_SIGPROF, { SYS_rt_sigreturn, 0, { 0 } } },
	/* final.c: the writer process reaped, its stack unmapped. */
	{ MON_SECCOMP_REAP, { SYS_wait4, A(1) | A(2) | A(3),
	    { 0, 0, __WCLONE, 0 } } },
	{ MON_SECCOMP_REAP, { SYS_munmap, 0, { 0 } } },
	/* perf.c: a wait for the rings, which the writer may be draining. */
	{ MON_SECCOMP_YIELD, { SYS_sched_yield, 0, { 0 } } },
	/* hist.c: the histogram zeroed by dropping its pages. */
	{ MON_SECCOMP_ZERO, { SYS_madvise, A(2), { 0, 0, MADV_DONTNEED } } },
};

/* Whether the filter can kill or trap: a return that is not harmless. */
static int
harmless(int i)
{
	unsigned pc;
	uint32_t act;

	if (filt[i].kind != KIND_BPF)
		return 0;
	for (pc = 0; pc < filt[i].len; pc++) {
		if (filt[i].insn[pc].code == (BPF_RET | BPF_A))
			return 0;
		if (filt[i].insn[pc].code != (BPF_RET | BPF_K))
			continue;
		act = filt[i].insn[pc].k & SECCOMP_RET_ACTION_FULL;
		if (act != SECCOMP_RET_ALLOW && act != SECCOMP_RET_LOG &&
		    act != SECCOMP_RET_ERRNO && act != SECCOMP_RET_TRACE)
			return 0;
	}
	return 1;
}

/* The answers for depth d, from the filters below it. */
static void
judge(int d)
{
	unsigned set = ~0U;
	size_t i;

	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		if ((set & calls[i].set) != 0 && !allows(d, &calls[i].c))
			set &= ~calls[i].set;
	may_at[d] = set;
	killfree_at[d] = killfree_at[d - 1] && harmless(d - 1);
}

static void
lock(void)
{
	int zero;

	for (;;) {
		zero = 0;
		if (MON_CAS(&busy, &zero, 1))
			return;
		MON_RELAX();
	}
}

/*
 * A filter is about to be installed (mode SECCOMP_MODE_STRICT or
 * SECCOMP_MODE_FILTER with prog a struct sock_fprog): from now on the
 * answers are the new filter's too.  0, or -1 if it could not be copied
 * (it then refuses everything).  Not async-signal-safe (mmap).
 */
int
__mon_seccomp_push(int mode, const void *prog)
{
	const struct sock_fprog *p = prog;
	struct sock_filter *copy = NULL;
	int saved = errno, rc = 0, n, kind = KIND_UNKNOWN;
	size_t len = 0;

	if (mode == SECCOMP_MODE_STRICT)
		kind = KIND_STRICT;
	else if (p != NULL && p->filter != NULL && p->len > 0 &&
	    p->len <= BPF_MAXINSNS) {
		len = p->len * sizeof(*copy);
		copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (copy != MAP_FAILED) {
			memcpy(copy, p->filter, len);
			kind = KIND_BPF;
		} else
			copy = NULL;
	}
	if (kind == KIND_UNKNOWN)
		rc = -1;
	lock();
	n = MON_LOAD(&nfilt);
	if (n == MAXF) {
		/* Full: the last one stands for all that follow. */
		n--;
		filt[n].kind = KIND_UNKNOWN;
		if (copy != NULL)
			munmap(copy, len);
	} else {
		filt[n].kind = kind;
		filt[n].len = kind == KIND_BPF ? p->len : 0;
		filt[n].insn = copy;
	}
	judge(n + 1);
	MON_STORE(&nfilt, n + 1);
	MON_STORE(&busy, 0);
	errno = saved;
	return rc;
}

/* The last filter pushed was not installed after all (its call failed). */
void
__mon_seccomp_pop(void)
{
	int saved = errno, n;

	lock();
	n = MON_LOAD(&nfilt);
	if (n > 0 && n < MAXF) {
		MON_STORE(&nfilt, n - 1);
		if (filt[n - 1].insn != NULL)
			munmap(filt[n - 1].insn,
			    filt[n - 1].len * sizeof(struct sock_filter));
		filt[n - 1].insn = NULL;
		filt[n - 1].kind = 0;
	}
	MON_STORE(&busy, 0);
	errno = saved;
}

/* Whether the program has installed a filter (or strict mode). */
int
__mon_seccomp_confined(void)
{
	return MON_LOAD(&nfilt) != 0;
}

/* The depth that filters the code running here. */
static int
depth(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);

	if (sp >= MON_LOAD(&exempt_lo) && sp < MON_LOAD(&exempt_hi))
		return MON_LOAD(&exempt_depth);
	return MON_LOAD(&nfilt);
}

/*
 * Whether every call of the sets (MON_SECCOMP_*, or'ed) is allowed here:
 * 1 where no filter was installed.
 */
int
__mon_seccomp_may(unsigned sets)
{
	return (may_at[depth()] & sets) == sets;
}

/*
 * Whether a filter here may kill, trap or hand a call to a supervisor
 * (where none can, the runtime's calls fail with an errno at worst).
 */
int
__mon_seccomp_kills(void)
{
	return !killfree_at[depth()];
}

/*
 * Code on the stack [lo, hi) runs in a process started now, filtered by
 * the filters in force now and no others (final.c's writer); NULL, NULL:
 * none.
 */
void
__mon_seccomp_exempt(const void *lo, const void *hi)
{
	/* A fork child's, where nothing was exempt: nothing to write. */
	if (lo == NULL && MON_LOAD(&exempt_lo) == 0 &&
	    MON_LOAD(&exempt_hi) == 0)
		return;
	MON_STORE(&exempt_lo, 0);
	MON_STORE(&exempt_hi, 0);
	MON_STORE(&exempt_depth, MON_LOAD(&nfilt));
	MON_STORE(&exempt_lo, (uintptr_t)lo);
	MON_STORE(&exempt_hi, (uintptr_t)hi);
}
