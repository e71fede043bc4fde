/* SPDX-License-Identifier: MIT */
/*
 * sampler.h - the PC histogram (hist.c; pcs.c the samples outside it,
 * stacks.c their call stacks) and the samplers that fill it: perf_event
 * (perf.c), a CPU-time timer (itimer.c), and the choice between them
 * (sampler.c).
 */
#ifndef MON_SAMPLER_H
#define MON_SAMPLER_H

#include "hooks.h"

/* pcs.c */
int	 __mon_pcs_add(uintptr_t) MON_HIDDEN;
int	 __mon_pcs_add_sid(uintptr_t, long) MON_HIDDEN;
void	 __mon_pcs_thread(long) MON_HIDDEN;
void	 __mon_pcs_move(uintptr_t, uintptr_t, uintptr_t) MON_HIDDEN;
void	 __mon_pcs_stride(unsigned int) MON_HIDDEN;
unsigned int __mon_pcs_bytes(void) MON_HIDDEN;
void	 __mon_pcs_each(uintptr_t, uintptr_t,
	    void (*)(uintptr_t, long, void *), void *) MON_HIDDEN;
void	 __mon_pcs_reset(void) MON_HIDDEN;

/* stacks.c */
int	 __mon_stacks_add(const uintptr_t *, size_t, long) MON_HIDDEN;
uintptr_t __mon_stacks_callee(uintptr_t) MON_HIDDEN;
int	 __mon_stacks_returns(uintptr_t, uintptr_t) MON_HIDDEN;
size_t	 __mon_stacks_caller(uintptr_t *, size_t, uintptr_t) MON_HIDDEN;
long	 __mon_stacks_lost(void) MON_HIDDEN;
void	 __mon_stacks_thread(long) MON_HIDDEN;
int	 __mon_stacks_in(uintptr_t, uintptr_t) MON_HIDDEN;
void	 __mon_stacks_move(uintptr_t, uintptr_t, uintptr_t) MON_HIDDEN;
int	 __mon_stacks_each(void (*)(const uintptr_t *, size_t, long, void *),
	    void *) MON_HIDDEN;
void	 __mon_stacks_reset(void) MON_HIDDEN;

/*
 * The rule that finds a pc's frame (CFA) and saved FP, from an object's
 * SFrame rows (sframe.c) or its .eh_frame (ehframe.c)
 */
struct __mon_sframe_rule {
	int		 sp_based;	/* CFA = SP + cfa, else FP + cfa */
	long		 cfa;
	int		 fp_saved;	/* the caller's FP is at CFA + fp */
	long		 fp;
};

/* ehframe.c: an object's .eh_frame, copied */
struct __mon_ehframe;
/* Copy n bytes at src to dst: 0, or -1 where they cannot be read. */
typedef int (*__mon_ehframe_read)(void *, void *, uintptr_t, size_t);
struct __mon_ehframe *__mon_ehframe_copy(uintptr_t, size_t, uintptr_t,
	    uintptr_t, __mon_ehframe_read, void *) MON_HIDDEN;
int	 __mon_ehframe_same(const struct __mon_ehframe *) MON_HIDDEN;
int	 __mon_ehframe_find(const struct __mon_ehframe *, uintptr_t,
	    struct __mon_sframe_rule *) MON_HIDDEN;

/* sframe.c: each loaded object's code and rows */
void	 __mon_sframe_scan(void) MON_HIDDEN;
void	 __mon_sframe_scan_helper(void) MON_HIDDEN;
int	 __mon_sframe_lockfree(void) MON_HIDDEN;
void	 __mon_sframe_learner(void) MON_HIDDEN;
void	 __mon_sframe_scan_lockfree(void) MON_HIDDEN;
void	 __mon_sframe_fork_prepare(void) MON_HIDDEN;
void	 __mon_sframe_fork_parent(void) MON_HIDDEN;
void	 __mon_sframe_forked(void) MON_HIDDEN;
int	 __mon_sframe_known(void) MON_HIDDEN;
int	 __mon_sframe_any(void) MON_HIDDEN;
int	 __mon_sframe_code(uintptr_t) MON_HIDDEN;
int	 __mon_sframe_object(uintptr_t) MON_HIDDEN;
int	 __mon_sframe_find(uintptr_t, struct __mon_sframe_rule *) MON_HIDDEN;

/*
 * unwind.c: a call stack from a thread's registers and a reader of its
 * stack (a word at an address: 0, or -1 where it cannot be read).
 */
typedef int (*__mon_unwind_read)(void *, uintptr_t, uintptr_t *);
size_t	 __mon_unwind_stack(uintptr_t *, size_t, uintptr_t, uintptr_t,
	    __mon_unwind_read, void *) MON_HIDDEN;
size_t	 __mon_unwind_exact(uintptr_t *, size_t, uintptr_t, uintptr_t,
	    __mon_unwind_read, void *) MON_HIDDEN;

/* What a reader of the live stack has read: 32 words at base. */
struct __mon_unwind_window {
	uintptr_t	 base;
	size_t		 have;		/* bytes */
	uintptr_t	 w[32];
};

int	 __mon_unwind_live(void *, uintptr_t, uintptr_t *) MON_HIDDEN;

/* hist.c */
struct __mon_hist_counts {
	long		 samples;	/* all samples taken while on */
	long		 saturated;	/* dropped: their bin was full */
	long		 outside;	/* dropped: outside the histogram */
	long		 lost;		/* lost by the kernel */
	long		 unkept;	/* -threads: no room by thread */
};

size_t	 __mon_hist_index(uintptr_t, uintptr_t, unsigned int) MON_HIDDEN;
size_t	 __mon_hist_bin(uintptr_t, uintptr_t, uintptr_t, size_t) MON_HIDDEN;
void	 __mon_hist_tick(uintptr_t, long) MON_HIDDEN;
void	 __mon_hist_stack(const uintptr_t *, size_t, long) MON_HIDDEN;
void	 __mon_hist_threads(int) MON_HIDDEN;
void	 __mon_hist_stacks(int) MON_HIDDEN;
int	 __mon_hist_with_stacks(void) MON_HIDDEN;
void	 __mon_hist_start(WORD *, size_t, uintptr_t, uintptr_t, int) MON_HIDDEN;
void	 __mon_hist_ranges(const struct monitor_args *, size_t) MON_HIDDEN;
void	 __mon_hist_ranges_each(uintptr_t, uintptr_t,
	    void (*)(uintptr_t, long, void *), void *) MON_HIDDEN;
void	 __mon_hist_stop(void) MON_HIDDEN;
void	 __mon_hist_profil(WORD *, size_t, uintptr_t, unsigned int)
	    MON_HIDDEN;
WORD	*__mon_hist_get(size_t *, uintptr_t *, uintptr_t *) MON_HIDDEN;
void	 __mon_hist_lost(long) MON_HIDDEN;
void	 __mon_hist_counts(struct __mon_hist_counts *) MON_HIDDEN;
void	 __mon_hist_reset(void) MON_HIDDEN;

/* perf.c */
int	 __mon_perf_start(long, int, int, int) MON_HIDDEN;
int	 __mon_perf_kernel(void) MON_HIDDEN;
int	 __mon_perf_scope(void) MON_HIDDEN;
long	 __mon_perf_switches(void) MON_HIDDEN;
long	 __mon_perf_stayed(void) MON_HIDDEN;
void	 __mon_perf_stop(void) MON_HIDDEN;
void	 __mon_perf_enable(int) MON_HIDDEN;
void	 __mon_perf_drain(int) MON_HIDDEN;
void	 __mon_perf_reset(void) MON_HIDDEN;
int	 __mon_perf_alone(int) MON_HIDDEN;
int	 __mon_perf_solo(void) MON_HIDDEN;

/* safepoint.c */
int	 __mon_safepoint_learn(void) MON_HIDDEN;
int	 __mon_safepoint_known(void) MON_HIDDEN;
int	 __mon_safepoint_at(uintptr_t, uintptr_t, uintptr_t, __mon_unwind_read,
	    void *) MON_HIDDEN;
int	 __mon_safepoint_caller(int) MON_HIDDEN;

/* itimer.c */
typedef void (*__mon_itimer_tick)(long, uintptr_t, uintptr_t, uintptr_t,
	    __mon_unwind_read, void *);
int	 __mon_itimer_start(long, int) MON_HIDDEN;
void	 __mon_itimer_hook(__mon_itimer_tick) MON_HIDDEN;
void	 __mon_itimer_stop(void) MON_HIDDEN;
void	 __mon_itimer_handover(void) MON_HIDDEN;
void	 __mon_itimer_check(void) MON_HIDDEN;
void	 __mon_itimer_control(int) MON_HIDDEN;
long	 __mon_itimer_rate(long, int) MON_HIDDEN;
int	 __mon_itimer_reset(long) MON_HIDDEN;
long	 __mon_itimer_cpu_ns(void) MON_HIDDEN;

/* sampler.c */
int	 __mon_sampler_start(void) MON_HIDDEN;
void	 __mon_sampler_stop(void) MON_HIDDEN;
void	 __mon_sampler_drain(void) MON_HIDDEN;
void	 __mon_sampler_poll(void) MON_HIDDEN;
void	 __mon_sampler_drop(void) MON_HIDDEN;
void	 __mon_sampler_control(int) MON_HIDDEN;
long	 __mon_sampler_rate(void) MON_HIDDEN;
int	 __mon_sampler_which(void) MON_HIDDEN;
long	 __mon_sampler_switches(void) MON_HIDDEN;
long	 __mon_sampler_stayed(void) MON_HIDDEN;
int	 __mon_sampler_kernel(void) MON_HIDDEN;
void	 __mon_sampler_reset(void) MON_HIDDEN;
int	 __mon_sampler_yield(void) MON_HIDDEN;
void	 __mon_sampler_forget(void) MON_HIDDEN;
void	 __mon_sampler_forked(void) MON_HIDDEN;
void	 __mon_sampler_resume(void) MON_HIDDEN;
void	 __mon_sampler_unblocked(void) MON_HIDDEN;
void	 __mon_sampler_blocking(void) MON_HIDDEN;
void	 __mon_sampler_unyield(void) MON_HIDDEN;
int	 __mon_sampler_alone(int) MON_HIDDEN;

#endif /* MON_SAMPLER_H */
