/* SPDX-License-Identifier: MIT */
/*
 * signal.c - monitor_signal(): write the profile (and gmon.out in -pg
 * programs) from a signal handler (daemons, programs killed rather than
 * exited), PROFFLAGS -sigdump, and the write before a fatal signal
 * (a crash, ^C, kill) ends the program.
 *
 * Async-signal-safe: it only calls the dump path and zeroes counts.
 */
#include <sys/mman.h>

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#include "control.h"

/* -sigdump: each dump holds the work since the previous one. */
static int zero_after_dump;
/* Handlers put back to the default for a seccomp filter: 1 fatal, 2 dump. */
static unsigned char withdrawn[_NSIG];

/* Write the profile now; profiling goes on.  0, or -1. */
static int
dump(void)
{
	int rc;

	if (zero_after_dump)
		rc = __mon_monitor_dump_interval();
	else
		rc = __mon_monitor_dump(0);
	return rc;
}

void
__monitor_signal(int sig)
{
	int saved = errno;

	(void)sig;
	dump();
	errno = saved;
}

MON_WEAK_ALIAS(__monitor_signal, monitor_signal);

/*
 * Signals whose default action ends the program: the profile is written
 * first (once, however many threads and handlers come), then the signal
 * is raised again with its default action, so the program still dies of
 * it (and dumps core where it would have).
 */
/*
 * Whether sig is one of them: every signal but these, the real-time ones
 * included (glibc keeps two of those for itself: sigaction refuses
 * them).  SIGPROF belongs to the CPU-time timer sampler.
 */
static const int not_fatal[] = {
	SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGWINCH,
	SIGKILL, SIGPROF,
};

static int
fatal_signal(int sig)
{
	size_t i;

	for (i = 0; i < sizeof(not_fatal) / sizeof(not_fatal[0]); i++)
		if (sig == not_fatal[i])
			return 0;
	return sig > 0 && sig <= SIGRTMAX;
}

static void fatal(int, siginfo_t *, void *);

/* Whether sig's handler is this file's fatal one. */
static int
handled(int sig)
{
	struct sigaction cur;

	return sigaction(sig, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) != 0 && cur.sa_sigaction == fatal;
}

/*
 * Die of sig as its default action does.  A crash handler of the
 * program's that calls this one as "the previous handler" (Breakpad
 * style) is then not called again: the default action it asked for is
 * what happens.
 */
static __attribute__((__noinline__)) void
die(int sig)
{
	struct sigaction dfl;
	sigset_t set;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	raise(sig);
	sigemptyset(&set);
	sigaddset(&set, sig);
	__mon_sigmask_set(SIG_UNBLOCK, &set, NULL);
}

/*
 * The process dies of the first fatal signal, as it would have without
 * profiling; another one, handled meanwhile in another thread, waits
 * for the write and then dies of that one too.  A signal already pending
 * and not blocked where this one came (sent to a thread that has not
 * run its handler yet) was sent first.  A crash handler of the program's
 * that calls this one may pass no context (sa_handler(sig)): a context is
 * only believed just above this frame, where the kernel puts it.
 */
static __attribute__((__noinline__)) int
sent_first(int sig, const void *ctx)
{
	const ucontext_t *uc = ctx;
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	sigset_t pend;
	int s = sig, f;

	if ((uintptr_t)ctx > sp && (uintptr_t)ctx - sp < 256 * 1024 &&
	    sigpending(&pend) == 0)
		for (f = 1; f <= SIGRTMAX; f++)
			if (sigismember(&pend, f) == 1 &&
			    sigismember(&uc->uc_sigmask, f) == 0 && handled(f))
				s = f;
	return s;
}

/* Small frames: this may run on a small alternate stack. */
static void
fatal(int sig, siginfo_t *si, void *ctx)
{
	static int first;
	int zero = 0;

	(void)si;
	MON_CAS(&first, &zero, sent_first(sig, ctx));
	__mon_monitor_end();
	die(MON_LOAD(&first));
}

/*
 * One line: "monprof: PROFFLAGS: -sigdump <arg>: the program <what>
 * <SIGNAME><why>; choose ...", with the signal as -sigdump was given it
 * and by its name, and what to do about it.  Async-signal-safe: it may
 * come from the program's sigaction() in one of its handlers.
 */
static void
sigdump_warn(const char *what, const char *why)
{
	const struct __mon_env *e = __mon_env_get();
	char line[320], name[32];
	size_t at = 0, i;
	const char *part[] = { "monprof: PROFFLAGS: -sigdump ", e->sigdump_arg,
	    ": the program ", what, name, why, "; choose a signal it leaves "
	    "alone with -sigdump\n" };

	__mon_env_signame(e->sigdump, name, sizeof(name));
	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++)
		for (; *part[i] != '\0' && at < sizeof(line); part[i]++)
			line[at++] = *part[i];
	__mon_err_write(line, at);
}

/*
 * PROFFLAGS -sigdump SIG: monitor_signal becomes SIG's handler, unless
 * a handler of the program's (a library constructor's) is there first.
 */
static void
sigdump_setup(int sig)
{
	struct sigaction sa, old;

	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler != SIG_DFL &&
	    old.sa_handler != SIG_IGN) {
		sigdump_warn("handles ", " itself, ignored");
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = __monitor_signal;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL) == 0)
		zero_after_dump = 1;
}

/* The program was told that it took the -sigdump signal over. */
static int told;
/* __mon_signal_withdraw is at work: its sigaction calls are the runtime's. */
static int withdrawing;

/* Whether a disposition is -sigdump's handler. */
static int
dumper(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) == 0 &&
	    sa->sa_handler == __monitor_signal;
}

/* Whether a change of sig's disposition may end the dumps. */
static int
watched(int sig)
{
	return zero_after_dump && sig == __mon_env_get()->sigdump &&
	    !MON_LOAD(&withdrawing) && !MON_LOAD(&told);
}

/* The program took the -sigdump signal over: said once, at once. */
static void
taken(void)
{
	int zero = 0;

	if (MON_CAS(&told, &zero, 1))
		sigdump_warn("took ", " over, no dump from now on");
}

/*
 * The specs file links executables with ld's --wrap for sigaction and
 * signal, so that a program installing its own handler for the -sigdump
 * signal (nginx reopens its logs on SIGUSR1) is told then, not at exit,
 * where the line is lost among the dumps that never came.  Calls made
 * inside libc or shared libraries (and sigset, bsd_signal) are not seen:
 * __mon_signal_check tells those at exit.  The runtime's own calls come
 * here too (--wrap reaches them).  Both may run in a signal handler:
 * no allocation, no lock.  The real functions are weak: a link without
 * --wrap never calls these.
 */
extern int __real_sigaction(int, const struct sigaction *, struct sigaction *)
    __attribute__((__weak__));
extern __sighandler_t __real_signal(int, __sighandler_t)
    __attribute__((__weak__));

int	 __wrap_sigaction(int, const struct sigaction *, struct sigaction *)
	    MON_HIDDEN;
__sighandler_t	 __wrap_signal(int, __sighandler_t) MON_HIDDEN;

int
__wrap_sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
	struct sigaction prev;
	int w = act != NULL && watched(sig), r;

	if (sig == SIGPROF && act != NULL) {
		__mon_sampler_resume();
		__mon_sampler_yield();
	}
	if ((r = __real_sigaction(sig, act, w ? &prev : oact)) != 0)
		return r;
	if (w) {
		if (oact != NULL)
			*oact = prev;
		if (dumper(&prev) && !dumper(act))
			taken();
	}
	/* An ignored fault (forced.c). */
	if (act != NULL && !(act->sa_flags & SA_SIGINFO))
		__mon_forced_disposed(sig, act->sa_handler);
	return 0;
}

__sighandler_t
__wrap_signal(int sig, __sighandler_t handler)
{
	int w = watched(sig);
	__sighandler_t prev;

	if (sig == SIGPROF) {
		__mon_sampler_resume();
		__mon_sampler_yield();
	}
	prev = __real_signal(sig, handler);

	if (prev == SIG_ERR)
		return prev;
	if (w && prev == __monitor_signal && handler != __monitor_signal)
		taken();
	/* An ignored fault (forced.c). */
	__mon_forced_disposed(sig, handler);
	return prev;
}

/*
 * At exit: a program that installed a handler of its own for the
 * -sigdump signal where the wrappers above did not see it took it over,
 * and the dumps stopped then: told once.  It is not taken back, as the
 * runtime never replaces the program's handlers.
 */
void
__mon_signal_check(void)
{
	const struct __mon_env *e = __mon_env_get();
	struct sigaction cur;

	if (!zero_after_dump || MON_LOAD(&told) || withdrawn[e->sigdump] ||
	    sigaction(e->sigdump, NULL, &cur) != 0 || dumper(&cur))
		return;
	MON_STORE(&told, 1);
	sigdump_warn("took ", " over, no dump after that");
}

/*
 * A stack overflow's SIGSEGV can only be handled on an alternate signal
 * stack: the fatal handler runs on the thread's own one if it has one
 * (SA_ONSTACK; it needs about 7 KiB of it, the kernel's signal frame
 * included), and the main thread, if it has none at start, gets one of
 * the runtime's, 64 KiB and a guard page.  Other threads have only their
 * own (a new thread starts without one).
 */
#define ALTSTACK	(64 * 1024)

static void
altstack_setup(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = ALTSTACK;
	stack_t ss, old;
	char *p;

	if ((size_t)(2 * SIGSTKSZ) > len)
		len = (2 * SIGSTKSZ + page - 1) & ~(page - 1);
	if (sigaltstack(NULL, &old) != 0 || (old.ss_flags & SS_DISABLE) == 0)
		return;
	p = mmap(NULL, page + len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (p == MAP_FAILED)
		return;
	mprotect(p, page, PROT_NONE);
	memset(&ss, 0, sizeof(ss));
	ss.ss_sp = p + page;
	ss.ss_size = len;
	if (sigaltstack(&ss, NULL) != 0)
		munmap(p, page + len);
}

/*
 * The fatal handler's mask: a second signal (kill, ^C) waits: the first
 * one writes, then the process dies of it.  A fault in the handler
 * still reaches it.
 */
static void
fatal_mask(sigset_t *set)
{
	size_t i;

	sigfillset(set);
	for (i = 0; i < MON_NFAULTS; i++)
		sigdelset(set, __mon_sigmask_faults[i]);
}

/*
 * Only where the disposition is still the default: a program's own
 * handler, or SIG_IGN, is never replaced, and a handler the program
 * installs later simply replaces this one.
 */
static void
fatal_setup(void)
{
	struct sigaction sa, old;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fatal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	fatal_mask(&sa.sa_mask);
	for (sig = 1; sig <= SIGRTMAX; sig++)
		if (fatal_signal(sig) && sigaction(sig, NULL, &old) == 0 &&
		    old.sa_handler == SIG_DFL && (old.sa_flags & SA_SIGINFO) == 0)
			sigaction(sig, &sa, NULL);
}

/*
 * A seccomp filter that would kill the handlers' own calls (sigaction,
 * raise, or the return from a handler) is about to confine the program
 * (confine.c): every handler of this file's goes back to the default
 * action first, so that a fatal signal, or the filter's own SIGSYS, ends
 * the program as without the runtime, and the writer process started
 * before the filter writes the profile once the process has ended.
 * __mon_signal_restore puts them back if the filter was refused.
 */
void
__mon_signal_withdraw(void)
{
	struct sigaction cur, dfl;
	int sig;

	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	MON_STORE(&withdrawing, 1);
	for (sig = 1; sig <= SIGRTMAX; sig++) {
		if (sigaction(sig, NULL, &cur) != 0)
			continue;
		if (((cur.sa_flags & SA_SIGINFO) != 0 &&
		    cur.sa_sigaction == fatal) ||
		    ((cur.sa_flags & SA_SIGINFO) == 0 &&
		    cur.sa_handler == __monitor_signal))
			withdrawn[sig] = sigaction(sig, &dfl, NULL) == 0 ?
			    (cur.sa_handler == __monitor_signal ? 2 : 1) : 0;
	}
	MON_STORE(&withdrawing, 0);
}

void
__mon_signal_restore(void)
{
	struct sigaction sa, cur;
	int sig;

	for (sig = 1; sig <= SIGRTMAX; sig++) {
		if (withdrawn[sig] == 0 || sigaction(sig, NULL, &cur) != 0 ||
		    (cur.sa_flags & SA_SIGINFO) != 0 ||
		    cur.sa_handler != SIG_DFL) {
			withdrawn[sig] = 0;
			continue;
		}
		memset(&sa, 0, sizeof(sa));
		if (withdrawn[sig] == 2) {
			sa.sa_handler = __monitor_signal;
			sa.sa_flags = SA_RESTART;
			sigemptyset(&sa.sa_mask);
		} else {
			sa.sa_sigaction = fatal;
			sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
			fatal_mask(&sa.sa_mask);
		}
		sigaction(sig, &sa, NULL);
		withdrawn[sig] = 0;
	}
}

/* At start: the -sigdump handler, then the fatal ones (PROFFLAGS). */
void
__mon_signal_setup(void)
{
	const struct __mon_env *e = __mon_env_get();

	if (e->sigdump != 0)
		sigdump_setup(e->sigdump);
	if (!e->nofatal) {
		altstack_setup();
		fatal_setup();
	}
}
