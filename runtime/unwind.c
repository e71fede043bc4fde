/* SPDX-License-Identifier: MIT */
/*
 * unwind.c - a sampled thread's call stack from its registers (pc, sp,
 * fp) and a reader of its stack: the itimer handler reads the live
 * stack, the perf helper the copy the kernel took with the sample.
 * Frame by frame, the first rule that applies:
 *
 * 1. The object's SFrame rows, else its .eh_frame (sframe.c,
 *    ehframe.c): the CFA is SP or FP plus a constant, the return
 *    address is at CFA - 8, and FP, if the frame saved it, at a known
 *    offset.  Every object GCC built has .eh_frame: no frame pointer
 *    is needed, so the program pays nothing for its stacks.
 * 2. In the interrupted frame only, the word at SP when it is the
 *    return address of one of the executable's calls into the function
 *    sampled (stacks.c): a leaf without a row (hand-written assembly
 *    without CFI), before the push of a prologue.
 * 3. In a shared object without rows, the first word above SP that
 *    returns from one of the executable's calls into that object: the
 *    object's own frames are skipped, not its callers.
 * 4. Frame pointers: a record at FP is the caller's FP, then the return
 *    address, which must point into an object's code (FP may be a
 *    register like any other in code built without frame pointers);
 *    what the kernel's walker does.  Code built with frame
 *    pointers and without SFrame (older binutils, other distributions'
 *    libraries).
 *
 * A walk stops where no rule applies, a word cannot be read, a frame
 * would not be above the last, or at depth max.  Async-signal-safe.
 */
#include <sys/uio.h>

#include <unistd.h>

#include "sampler.h"

/* Where frame pointers are believed: within 16 MiB above SP. */
#define MON_UNWIND_REACH	((uintptr_t)16 << 20)
/* How far above SP a scan looks for the executable's return address. */
#define MON_UNWIND_SCAN		1024

/*
 * Whether the l bytes before p are a call through memory or a register
 * (ff /2), by the length its ModRM byte (and SIB) gives.  A REX prefix
 * before it changes nothing.
 */
static int
indirect(const unsigned char *p, int l)
{
	unsigned m = p[-l + 1], mod = m >> 6, rm = m & 7;
	int n;

	if (p[-l] != 0xff || (m & 0x38) != 0x10)
		return 0;
	n = 2 + (mod != 3 && rm == 4);		/* opcode, ModRM, SIB */
	if (mod == 1)
		n += 1;
	else if (mod == 2 || (mod == 0 && rm == 5))
		n += 4;
	return n == l;
}

/*
 * Whether w is an address after a call instruction of the executable:
 * a direct call (e8) or one through memory or a register (ff /2).
 * Outside the executable, whether it is in some object's code.
 */
static int
after_call(uintptr_t w)
{
	const unsigned char *p = (const unsigned char *)w;
	int l;

	if (!__mon_exe_in_text(w))
		return __mon_sframe_object(w) >= 0;
	if (!__mon_exe_in_text(w - 7))
		return 0;
	if (p[-5] == 0xe8)
		return 1;
	for (l = 2; l <= 7; l++)
		if (indirect(p, l))
			return 1;
	return 0;
}

/*
 * Whether a word that a scan found, return address w with the caller's
 * SP sp, leads on: the caller has rows, and its frame, by them, returns
 * to an address after a call.  A stale return address, left below the
 * live frames by an earlier call, gives a frame that does not; and a
 * caller without rows (_start's call of the C library's start) is an
 * ancestor too far to name as the caller.  Where no object has rows,
 * the executable was built with frame pointers instead (binutils 2.40,
 * the Makefile's probe): its return address is taken as it is found,
 * as nothing tells a stale one there.
 */
static int
onward(uintptr_t w, uintptr_t sp, __mon_unwind_read rd, void *ctx)
{
	struct __mon_sframe_rule r;
	uintptr_t ra;

	if (__mon_sframe_find(w - 1, &r) != 0)
		return !__mon_sframe_any();
	if (!r.sp_based)
		return 1;
	return rd(ctx, sp + (uintptr_t)r.cfa - sizeof(ra), &ra) == 0 &&
	    ra != 0 && after_call(ra);
}

/*
 * Code of a shared object without rows, pc: the stack address above sp
 * of the first word that returns from one of the executable's calls
 * into that object (its PLT or GOT resolved into it), within
 * MON_UNWIND_SCAN words; 0 if none.  The object's own frames between
 * are skipped: its time is the object's, and its callers are right.
 */
static uintptr_t
scan(uintptr_t pc, uintptr_t sp, __mon_unwind_read rd, void *ctx)
{
	int obj = __mon_sframe_object(pc);
	uintptr_t a, w, target;
	size_t i;

	if (obj < 0)
		return 0;
	for (i = 0, a = sp; i < MON_UNWIND_SCAN; i++, a += sizeof(w)) {
		if (rd(ctx, a, &w) != 0)
			return 0;
		if (__mon_exe_in_text(w) && (target = __mon_stacks_callee(w)) !=
		    0 && __mon_sframe_object(target) == obj &&
		    onward(w, a + sizeof(w), rd, ctx))
			return a;
	}
	return 0;
}

/*
 * Rule 1 for frame n - 1 of pc[] (its SP and FP in *sp, *fp): 1 with
 * its caller's return address in *ra and the caller's SP and FP, 0
 * where the object has no rule for it, -1 where the rule leads nowhere.
 */
static int
exact(const uintptr_t *pc, size_t n, uintptr_t *sp, uintptr_t *fp,
    uintptr_t *ra, __mon_unwind_read rd, void *ctx)
{
	struct __mon_sframe_rule r;
	uintptr_t cfa;

	/* A return address's call is the byte before it. */
	if (__mon_sframe_find(n == 1 ? pc[0] : pc[n - 1] - 1, &r) != 0)
		return 0;
	if (!r.sp_based && *fp == 0)
		return -1;
	cfa = (r.sp_based ? *sp : *fp) + (uintptr_t)r.cfa;
	if (cfa <= *sp || rd(ctx, cfa - sizeof(*ra), ra) != 0 ||
	    (r.fp_saved && rd(ctx, cfa + (uintptr_t)r.fp, fp) != 0))
		return -1;
	*sp = cfa;
	return 1;
}

/*
 * The call stack by rule 1 alone, each frame by its object's own rows,
 * none guessed: what a caller may trust to hold every frame
 * (safepoint.c).
 * It ends where a frame has no rule (the thread's first, _start), a
 * word cannot be read, or at depth max.
 */
size_t
__mon_unwind_exact(uintptr_t *pc, size_t max, uintptr_t sp, uintptr_t fp,
    __mon_unwind_read rd, void *ctx)
{
	uintptr_t ra;
	size_t n = 1;

	while (n < max && exact(pc, n, &sp, &fp, &ra, rd, ctx) == 1 &&
	    ra != 0)
		pc[n++] = ra;
	return n;
}

/*
 * Read up to len bytes at addr of this process into buf, without a
 * fault where a frame pointer led nowhere: how many were read (0: none).
 * process_vm_readv does not split an iovec, so the remote side is cut at
 * the page boundary: a readable first page still reads.
 */
static size_t
peek(uintptr_t addr, void *buf, size_t len)
{
	uintptr_t edge = (addr | 4095) + 1;
	struct iovec local = { buf, len }, remote[2] = {
		{ (void *)addr, edge - addr < len ? edge - addr : len },
		{ (void *)edge, edge - addr < len ? len - (edge - addr) : 0 },
	};
	ssize_t n;

	n = process_vm_readv(getpid(), &local, 1, remote,
	    remote[1].iov_len != 0 ? 2 : 1, 0);
	return n > 0 ? (size_t)n : 0;
}

/*
 * The reader of a live stack, this thread's (the itimer's handler, a
 * fork handler): the word at a, by peek through the window, which
 * starts empty.
 */
int
__mon_unwind_live(void *arg, uintptr_t a, uintptr_t *v)
{
	struct __mon_unwind_window *win = arg;

	if (a % sizeof(*v) != 0)
		return -1;
	if (a < win->base || a - win->base + sizeof(*v) > win->have) {
		win->base = a;
		if ((win->have = peek(a, win->w, sizeof(win->w))) <
		    sizeof(*v))
			return -1;
	}
	*v = win->w[(a - win->base) / sizeof(*v)];
	return 0;
}

size_t
__mon_unwind_stack(uintptr_t *pc, size_t max, uintptr_t sp, uintptr_t fp,
    __mon_unwind_read rd, void *ctx)
{
	uintptr_t ra, w, next, at;
	size_t n = 1;
	int e;

	while (n < max) {
		if ((e = exact(pc, n, &sp, &fp, &ra, rd, ctx)) < 0)
			break;
		if (e > 0) {
			/* By the object's rule (1). */
		} else if (n == 1 && rd(ctx, sp, &w) == 0 &&
		    __mon_stacks_returns(pc[0], w)) {
			ra = w;
			sp += sizeof(w);
		} else if (!__mon_exe_in_text(pc[n - 1]) &&
		    (at = scan(pc[n - 1], sp, rd, ctx)) != 0) {
			if (rd(ctx, at, &ra) != 0)
				break;
			sp = at + sizeof(ra);
		} else {
			if (fp < sp || fp - sp >= MON_UNWIND_REACH ||
			    fp % sizeof(fp) != 0 || rd(ctx, fp, &next) != 0 ||
			    rd(ctx, fp + sizeof(fp), &ra) != 0 ||
			    !__mon_sframe_code(ra))
				break;
			sp = fp + 2 * sizeof(fp);
			/* The outermost record, or FP used otherwise. */
			fp = next > fp ? next : 0;
		}
		if (ra == 0)
			break;
		pc[n++] = ra;
	}
	return n;
}
