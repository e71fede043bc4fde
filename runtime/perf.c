/* SPDX-License-Identifier: MIT */
/*
 * perf.c - the perf_event sampler: samples (IP, TID, and the user call
 * stack) in one ring buffer per CPU, drained into the histogram by a
 * helper thread.  On x86-64 a sample carries the user registers and a
 * copy of the top of the user stack, which the helper unwinds (unwind.c:
 * by each object's SFrame rows or .eh_frame), as perf --call-graph dwarf
 * does; elsewhere the call chain the kernel finds by frame pointers.
 * Two scopes:
 *
 * task	a task-clock event per CPU, inherited by every thread (not by
 *	fork children).  Anyone may open it, but the kernel switches the
 *	events out and in at every context switch of every thread: a
 *	server that switches 100,000 times a second pays for it.
 * cpu	a cpu-clock event per CPU for the whole CPU, whose samples of
 *	other processes (and of the helper) the drain drops.  Nothing is
 *	done at a switch, but it needs CAP_PERFMON or perf_event_paranoid
 *	<= 0, and every CPU takes its interrupts while the process lives.
 *
 * It starts in task scope (or cpu, PROFFLAGS -cpuwide) and the helper
 * moves it to cpu scope once the process's threads block more than
 * MON_PERF_SWITCHES times a second, where the kernel allows it (not
 * with -nocpuwide).  Either way no signal is involved, so threads that
 * block signals are sampled and no blocking call is interrupted.  An
 * inherited per-task event cannot be mmap'd with cpu = -1, hence one per
 * CPU.  The helper is created before the task events are opened, so it
 * is not sampled itself (one started again after unshare() or setns()
 * is, and the drain leaves its samples out); it blocks every signal.
 *
 * The program owns its file descriptors: the helper sleeps on a futex
 * (waking often enough that no ring fills), never on an fd.  An event's
 * fd is kept (above 2, close-on-exec) only to stop and restart it for
 * moncontrol, and only used after PERF_EVENT_IOC_ID shows it is still
 * ours: a daemon may close every fd and reuse the numbers.  The ring
 * mapping alone keeps an event alive, so under a small RLIMIT_NOFILE no
 * fd is kept (and no move), and samples taken while off are dropped by
 * time stamp.
 */
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sampler.h"

/*
 * Bytes of user stack copied with each sample, which unwind.c unwinds
 * (x86-64, by SFrame rows or .eh_frame): perf's default; PROFFLAGS
 * -stackcopy asks for another size (a program whose stacks hold large
 * buffers: its outer frames lie beyond 8 KB).  The rings hold 1 MB of
 * copies in all, MON_PERF_COPY_RINGS (more for larger copies asked
 * for), in rings of 8 to 1024 pages a CPU: what the kernel pins for
 * each process (every perf ring is locked memory, charged to the user's
 * perf_event_mlock_kb, then to RLIMIT_MEMLOCK), so that a server of 100
 * processes pins 100 MB, not the 800 MB of the 8 MB this was, and a
 * fork child maps its rings in a fraction of the time (zeroing 8 MB
 * made a fork cost 7 times plain).  64 pages a ring on 2 CPUs: 31
 * copies, 31 ms of one CPU at the default rate, drained every quarter
 * of that.  Where a ring would hold fewer than MON_PERF_COPIES (from 8
 * CPUs on), the default copy is smaller, down to 1 KB: shallower
 * stacks, but fewer samples lost.  Half as much, down to 64 pages, where the
 * kernel refuses to lock it.
 */
#define MON_PERF_COPY		8192
#define MON_PERF_COPY_MIN	1024
#define MON_PERF_COPIES		16
#define MON_PERF_COPY_RINGS	(1UL << 20)

/* How long a drain waits for another one to end. */
#define MON_PERF_LOCK_NS	100000000L

/* Switches a second above which the task scope costs the server. */
#define MON_PERF_SWITCHES	1000
/*
 * And above which the profile says so: at a few microseconds a switch,
 * a few percent of a CPU.
 */
#define MON_PERF_COSTLY		10000

struct ring {
	int		 fd;		/* -1: not kept */
	uint64_t	 id;		/* PERF_EVENT_IOC_ID of fd */
	struct perf_event_mmap_page *meta;
	char		*data;
	size_t		 size;		/* data bytes, a power of two */
};

static struct ring *rings;
static int	 nrings;
static int	 ncpus;		/* rings[] has room for this many */
static size_t	 ringslen;	/* bytes mapped for rings[] */
static size_t	 maplen;	/* bytes mapped per ring */
static long	 pagesz;
static long	 nap_ns;	/* the helper's sleep between drains */
static uint64_t	 on_since;	/* CLOCK_MONOTONIC ns of the last moncontrol(1) */
static int	 stopping;	/* the helper's futex word */
static int	 keepfds;	/* keep an fd per event for moncontrol */
static int	 draining;
static int	 scope;		/* MON_SAMPLER_PERF or MON_SAMPLER_PERF_CPU */
static int	 movable;	/* the helper may still move to cpu scope */
static long	 stayed;	/* why not, MON_STAYED_* (mon.h), or 0 */
static long	 switches;	/* the most a second it stayed in task scope at */
static int	 stopped;	/* events stopped by moncontrol(0) */
static long	 self_pid;	/* cpu scope keeps this process's samples */
static long	 helper_tid;	/* the helper's samples are not the program's */
static long	 sample_period;
static int	 chains;	/* samples carry their user call stack */
static int	 copies;	/* by a copy of the stack (else the kernel's) */
static int	 refused;	/* a ring's mapping was refused: too large */
static int	 kernel;	/* kernel-mode samples too (PROFFLAGS -kernel) */
static size_t	 copy_bytes;	/* MON_PERF_COPY, or PROFFLAGS -stackcopy */
static size_t	 copy_pages;	/* a ring's pages for copies, 8 to 1024 */
static pthread_t helper;
static struct __mon_rawthread raw;	/* the helper, where not a pthread */
static int	 helper_raw;	/* it is raw's */
static int	 helper_up;	/* started, and not yet joined */
/* This thread is the helper (a tid may be refused: __mon_self_tid). */
static __thread int is_helper __attribute__((__tls_model__("initial-exec")));
/* Copy len bytes at ring offset off, across the wrap. */
static void
ring_copy(const struct ring *r, uint64_t off, void *dst, size_t len)
{
	size_t at = (size_t)(off & (r->size - 1));
	size_t first = r->size - at;

	if (first >= len)
		memcpy(dst, r->data + at, len);
	else {
		memcpy(dst, r->data + at, first);
		memcpy((char *)dst + first, r->data, len - first);
	}
}

/*
 * Whether a sample's pid/tid word is the program's: not the helper's,
 * which a task event samples too where it was started after the events
 * (again after unshare(), setns(): it inherits them), and in cpu scope
 * not another process's.
 */
static int
mine(uint64_t pidtid)
{
	return (long)(pidtid >> 32) != MON_LOAD(&helper_tid) &&
	    (scope != MON_SAMPLER_PERF_CPU ||
	    (long)(uint32_t)pidtid == self_pid);
}

/*
 * A sample record's call chain, rec[4] = nr then nr addresses (from
 * rec[5]): the user part, leaf first, into pc[] without the context
 * markers (PERF_CONTEXT_USER); how many.  The sampled ip if there is
 * none.  Then the user stack's first word (size, the word, its
 * dyn_size): the caller that the frame pointers skip, if it is one.
 */
/* Whether a is a kernel address (the top half of the address space). */
static int
in_kernel(uintptr_t a)
{
	return (intptr_t)a < 0;
}

/* The copy of a sampled stack, in the ring: dyn bytes from sp. */
struct copy {
	const struct ring *r;
	uint64_t	 off;		/* the ring offset of sp's word */
	uintptr_t	 sp;
	size_t		 dyn;
};

/* unwind.c's reader: the word at a, if the copy has it. */
static int
copied(void *arg, uintptr_t a, uintptr_t *v)
{
	const struct copy *c = arg;

	if (a < c->sp || a - c->sp > c->dyn || c->dyn - (a - c->sp) <
	    sizeof(*v))
		return -1;
	ring_copy(c->r, c->off + (a - c->sp), v, sizeof(*v));
	return 0;
}

/*
 * A copying sample's stack into pc[], the record at ring offset at
 * (words of it in rec, all words in the ring): rec[4] is the registers'
 * ABI, then BP, SP and IP (PERF_REG_X86_* order) where there are some,
 * then the copy's size, the copy, and how much of it the kernel filled.
 * The copy is read where it lies, not copied again.
 */
static size_t
unwound(const struct ring *r, uint64_t at, const uint64_t *rec,
    size_t words, size_t all, uintptr_t *pc)
{
	struct copy c;
	uint64_t size, dyn;
	uintptr_t fp;

	pc[0] = (uintptr_t)rec[1];
	if (words < 9 || rec[4] == PERF_SAMPLE_REGS_ABI_NONE)
		return 1;
	/* A kernel-mode sample (-kernel): from where the user code was. */
	if (in_kernel(pc[0]))
		pc[0] = (uintptr_t)rec[7];
	fp = (uintptr_t)rec[5];
	c.sp = (uintptr_t)rec[6];
	size = rec[8];
	if (size % 8 != 0 || size / 8 > all || all - size / 8 < 10)
		return 1;
	ring_copy(r, at + 8 * (9 + size / 8), &dyn, sizeof(dyn));
	c.r = r;
	c.off = at + 8 * 9;
	c.dyn = (size_t)(dyn < size ? dyn : size);
	return __mon_unwind_stack(pc, MON_STACK_DEPTH, c.sp, fp, copied, &c);
}

static size_t
chain(const uint64_t *rec, size_t words, uintptr_t *pc)
{
	size_t i, n = 0, nr = 0;

	if (words >= 5 && MON_LOAD(&chains)) {
		nr = rec[4] < words - 5 ? rec[4] : words - 5;
		for (i = 0; i < nr && n < MON_STACK_DEPTH - 1; i++)
			if (rec[5 + i] < (uint64_t)PERF_CONTEXT_MAX)
				pc[n++] = (uintptr_t)rec[5 + i];
	}
	if (n == 0)
		pc[n++] = (uintptr_t)rec[1];
	if (MON_LOAD(&chains) && words >= 5 + nr + 3 && rec[5 + nr] == 8 &&
	    rec[5 + nr + 2] >= 8)
		n = __mon_stacks_caller(pc, n, (uintptr_t)rec[5 + nr + 1]);
	return n;
}

/*
 * A stack of n frames from chain() whose pc is the kernel's (-kernel,
 * no call chain): the user registers' pc, rec[5] after their ABI, in
 * its place.
 */
static size_t
user(const uint64_t *rec, size_t words, uintptr_t *pc, size_t n)
{
	if (in_kernel(pc[0]) && !MON_LOAD(&chains) && words >= 6 &&
	    rec[4] != PERF_SAMPLE_REGS_ABI_NONE)
		pc[0] = (uintptr_t)rec[5];
	return n;
}

static void
ring_drain(struct ring *r)
{
	struct perf_event_header h;
	uint64_t head, tail, rec[5 + MON_STACK_DEPTH + 8];
	uintptr_t pc[MON_STACK_DEPTH];
	size_t n;

	head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	tail = r->meta->data_tail;
	while (tail < head) {
		ring_copy(r, tail, &h, sizeof(h));
		if (h.size < sizeof(h))
			break;
		n = h.size < sizeof(rec) ? h.size : sizeof(rec);
		ring_copy(r, tail, rec, n);
		/*
		 * ip, pid/tid, time, then the chain: drop what was sampled
		 * while off.
		 */
		if (h.type == PERF_RECORD_SAMPLE && n >= 32 &&
		    rec[3] >= MON_LOAD(&on_since) && mine(rec[2]))
			__mon_hist_stack(pc, MON_LOAD(&copies) ?
			    unwound(r, tail, rec, n / 8, h.size / 8, pc) :
			    user(rec, n / 8, pc, chain(rec, n / 8, pc)),
			    (long)(rec[2] >> 32));
		else if (h.type == PERF_RECORD_LOST && n >= 24)
			__mon_hist_lost((long)rec[2]);
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

static long
now_ns(clockid_t c)
{
	struct timespec ts;

	if (clock_gettime(c, &ts) != 0)
		return 0;
	return (long)ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * Let another thread, or the writer process, go on while this one
 * waits for it: sched_yield where the program's seccomp filters allow
 * it, else a while of pauses.  In a confined program the writer process
 * drains the rings in the helper's place (final.c), and moncontrol()
 * waits for it: a filter that lists no sched_yield would kill it.
 */
static void
yield(void)
{
	int i;

	if (__mon_seccomp_may(MON_SECCOMP_YIELD)) {
		syscall(SYS_sched_yield);
		return;
	}
	for (i = 0; i < 1000; i++)
		MON_RELAX();
}

/*
 * One thread at a time drains, switches or moves the events: 1 when
 * taken; with wait, after waiting for the other one (the helper,
 * another thread, the writer process) up to MON_PERF_LOCK_NS.  The
 * wait is bounded in time, not in tries: a holder may be gone for good
 * (a thread that exit() ended in the middle of a drain), and the writer
 * process, which outlives the program, then spent 10,000 yields, 40 s
 * with two busy processes beside it, before it wrote (e2e 122 found no
 * profile after 5 s).
 */
static int
lock(int wait)
{
	long until = 0;
	int zero;

	for (;;) {
		zero = 0;
		if (MON_CAS(&draining, &zero, 1))
			return 1;
		if (!wait)
			return 0;
		if (until == 0)
			until = now_ns(CLOCK_MONOTONIC) + MON_PERF_LOCK_NS;
		else if (now_ns(CLOCK_MONOTONIC) > until)
			return 0;
		yield();
	}
}

static void
drain_all(void)
{
	int i;

	for (i = 0; i < MON_LOAD(&nrings); i++)
		ring_drain(&rings[i]);
}

/* Empty every ring into the histogram. */
void
__mon_perf_drain(int wait)
{
	if (!lock(wait))
		return;
	drain_all();
	MON_STORE(&draining, 0);
}

/*
 * Whether the helper is the last thread: main has ended by pthread_exit
 * (its zombie, whose /proc exe link is gone, waits for the others) and
 * /proc/<pid>/task counts two threads, main's zombie and this one.
 * Without /proc, never.  No descriptor: readlink and stat only.
 */
static int
alone(void)
{
	char path[64] = "/proc/", link[8];
	struct stat sb;
	size_t n = 6;
	long pid = syscall(SYS_getpid);

	n += __mon_fmt_ulong(path + n, (unsigned long)pid);
	memcpy(path + n, "/task/", 6);
	n += 6;
	n += __mon_fmt_ulong(path + n, (unsigned long)pid);
	memcpy(path + n, "/exe", 5);
	if (readlink(path, link, sizeof(link)) >= 0 || errno != ENOENT)
		return 0;
	path[n] = '\0';
	*strrchr(path, '/') = '\0';
	return stat(path, &sb) == 0 && sb.st_nlink == 2 + 2;
}

/*
 * Whether the program's only thread is the one calling, beside the
 * helper (sampler.c stops the sampler in a fork handler only then: one
 * started again covers the thread that starts it and those created
 * after).  /proc/self/task has two links and one for each thread.
 * Without /proc, or without a helper running, no.
 */
int
__mon_perf_solo(void)
{
	struct stat sb;

	return MON_LOAD(&helper_up) && MON_LOAD(&helper_tid) != 0 &&
	    stat("/proc/self/task", &sb) == 0 && sb.st_nlink == 2 + 2;
}

/*
 * How many times a second the process switched since the last look, at
 * least 100 ms ago (-1: no look now): voluntary switches (a thread
 * blocked), as the program's own doing; a busy machine that preempts it
 * would otherwise move the sampler of a program that never blocks.
 * getrusage counts the ended threads too; no descriptor.
 */
static long
switching(void)
{
	static long last_ns, last_n;
	struct rusage ru;
	long t = now_ns(CLOCK_MONOTONIC), n, rate = -1;

	if (t - last_ns < 100000000L || getrusage(RUSAGE_SELF, &ru) != 0)
		return -1;
	n = ru.ru_nvcsw;
	if (last_ns != 0)
		rate = (long)((double)(n - last_n) * 1e9 / (double)(t - last_ns));
	last_ns = t;
	last_n = n;
	return rate;
}

static int open_all(struct ring *, int, struct perf_event_attr *);
static int ours(const struct ring *);
static void close_all(struct ring *, int);

static void
attr(struct perf_event_attr *a, int cpuwide)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->sample_period = (unsigned long)sample_period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (MON_LOAD(&chains) && MON_LOAD(&copies)) {
		/* Registers and the stack's top, unwound by the helper. */
		a->sample_type |= PERF_SAMPLE_REGS_USER |
		    PERF_SAMPLE_STACK_USER;
#if defined(__x86_64__)
		a->sample_regs_user = 1ULL << PERF_REG_X86_BP |
		    1ULL << PERF_REG_X86_SP | 1ULL << PERF_REG_X86_IP;
#endif
		a->sample_stack_user = (uint32_t)copy_bytes;
	} else if (MON_LOAD(&chains)) {
		/*
		 * The kernel walks the frame pointers of the user stack
		 * (the specs file builds with them); no kernel frames.
		 */
		a->sample_type |= PERF_SAMPLE_CALLCHAIN |
		    PERF_SAMPLE_STACK_USER;
		a->exclude_callchain_kernel = 1;
		a->sample_max_stack = MON_STACK_DEPTH;
		/* The word at the stack pointer: a frameless leaf's caller. */
		a->sample_stack_user = 8;
	}
	/*
	 * Kernel-mode samples are charged to the user code that entered
	 * the kernel: its pc is the first of the user call chain, or the
	 * user registers' (asked for here where nothing else gives it).
	 */
	if (MON_LOAD(&kernel) && !(a->sample_type & PERF_SAMPLE_REGS_USER) &&
	    !(a->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
#if defined(__x86_64__)
		a->sample_regs_user = 1ULL << PERF_REG_X86_IP;
#endif
	}
	a->use_clockid = 1;
	a->clockid = CLOCK_MONOTONIC;
	a->exclude_kernel = !MON_LOAD(&kernel);
	a->exclude_hv = 1;
	if (cpuwide)
		a->config = PERF_COUNT_SW_CPU_CLOCK;
	else {
		a->config = PERF_COUNT_SW_TASK_CLOCK;
		a->inherit = 1;
		a->inherit_thread = 1;	/* threads, not fork children (5.13+) */
	}
}

/*
 * Move from task to cpu scope: open a cpu event on every CPU that has a
 * task event, or stay (for good, if the kernel refuses).  The task
 * events are stopped and drained first: no sample is taken twice.
 */
static void
move(void)
{
	struct perf_event_attr a;
	struct ring *nr, *old;
	int i, n;

	MON_STORE(&movable, 0);
	nr = mmap(NULL, ringslen, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (nr == MAP_FAILED)
		return;
	/* Opened stopped: started below only if moncontrol has them on. */
	attr(&a, 1);
	a.disabled = 1;
	errno = 0;
	n = open_all(nr, -1, &a);
	if (n != nrings) {
		MON_STORE(&stayed, errno == EACCES || errno == EPERM ?
		    MON_STAYED_PRIVILEGE : MON_STAYED_ERRNO + errno);
		goto stay;
	}
	if (!lock(1))
		goto stay;
	/* Every task event must be ours to stop (a daemon closes fds). */
	for (i = 0; i < n && ours(&rings[i]) && ours(&nr[i]); i++)
		continue;
	if (i < n) {
		MON_STORE(&stayed, MON_STAYED_CLOSED);
		MON_STORE(&draining, 0);
		goto stay;
	}
	for (i = 0; i < n; i++)
		ioctl(rings[i].fd, PERF_EVENT_IOC_DISABLE, 0);
	drain_all();
	for (i = 0; i < n && !MON_LOAD(&stopped); i++)
		ioctl(nr[i].fd, PERF_EVENT_IOC_ENABLE, 0);
	old = rings;
	MON_STORE(&scope, MON_SAMPLER_PERF_CPU);
	rings = nr;
	MON_STORE(&draining, 0);
	/* The last references to each task event: this ends them all. */
	nr = old;
stay:
	close_all(nr, n);
	munmap(nr, ringslen);
}

/*
 * The process switches more than MON_PERF_SWITCHES times a second:
 * move to cpu scope if it may; if it stays in task scope above
 * MON_PERF_COSTLY, keep the rate for the profile (prof says what it
 * cost).
 */
static void
switches_seen(long rate)
{
	if (rate <= MON_PERF_SWITCHES)
		return;
	if (MON_LOAD(&movable))
		move();
	if (MON_LOAD(&scope) == MON_SAMPLER_PERF && rate > MON_PERF_COSTLY &&
	    rate > MON_LOAD(&switches))
		MON_STORE(&switches, rate);
}

/* The thread that ends the process for the program's last one. */
static void *
end_process(void *arg)
{
	(void)arg;
	exit(0);
}

#if defined(__x86_64__)
/* exit(0) on a stack of its own, for end_here(). */
static void __attribute__((__noreturn__, __used__))
end_on_stack(void)
{
	/* The outermost frame: an unwinder (an exit handler's
	 * backtrace()) stops here, not above the stack. */
	__asm__ volatile(".cfi_undefined rip");
	exit(0);
}
#endif

/*
 * The helper that is no thread of glibc's ends the process for the
 * program's last thread, which glibc did not see end: it may not make
 * a thread of glibc's (glibc would take its locks without atomics),
 * so it runs exit() itself, as a thread of the program's would: on a
 * stack of glibc's default size (the helper's 256 KB: a destructor
 * that needed 600 KB died of SIGBUS), no signal blocked, its samples
 * the program's.
 */
static void __attribute__((__noreturn__))
end_here(void)
{
	uint64_t none = 0;

	MON_STORE(&helper_tid, 0);
	(void)__mon_sys(SYS_rt_sigprocmask, SIG_SETMASK, (long)&none, 0,
	    sizeof(none), 0, 0);
#if defined(__x86_64__)
	size_t len = (size_t)8 << 20;
	char *stack = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);

	if (stack != MAP_FAILED)
		__asm__ volatile("mov %0, %%rsp\n\txor %%ebp, %%ebp\n\t"
		    "call end_on_stack" : : "r" (stack + len) : "memory");
#endif
	exit(0);
}

static void *
helper_main(void *arg)
{
	struct timespec ts;

	(void)arg;
	is_helper = 1;
	MON_STORE(&helper_tid, syscall(SYS_gettid));
	/* No thread of glibc's: no loader's lock (sframe.c). */
	if (MON_LOAD(&helper_raw))
		__mon_sframe_learner();
	switching();	/* from now: the first look can move */
	while (!MON_LOAD(&stopping)) {
		/* Set once the rings are open (their size sets it). */
		ts.tv_sec = MON_LOAD(&nap_ns) / 1000000000L;
		ts.tv_nsec = MON_LOAD(&nap_ns) % 1000000000L;
		syscall(SYS_futex, &stopping, FUTEX_WAIT_PRIVATE, 0, &ts,
		    NULL, 0);
		/*
		 * Objects that a shared library dlopen()ed (the wrapper
		 * of dl.c sees only the executable's calls): their rows
		 * are learnt before their samples are unwound.  Only
		 * here, in a thread, and not during a fork (sframe.c):
		 * the writer process must not take the loader's lock,
		 * which a thread it outlives may hold.  A helper that is
		 * no thread of glibc's may not take it at all: it learns
		 * them as the drain's unwinding meets their code, and
		 * here retires those gone, without it.
		 */
		if (MON_LOAD(&copies)) {
			if (MON_LOAD(&helper_raw))
				__mon_sframe_scan_lockfree();
			else
				__mon_sframe_scan_helper();
		}
		__mon_perf_drain(0);
		switches_seen(switching());
		/*
		 * The program's last thread has returned: without this
		 * helper, glibc would have ended the process with exit(0)
		 * on that thread's stack; the helper has it done, so the
		 * profile is written too, on a thread of glibc's default
		 * stack: the program's exit handlers and destructors run
		 * there, not on the helper's 256 KB (one that needed 600
		 * KB died of SIGBUS).  Where the helper is no thread of
		 * glibc's (rawthread.c), glibc ends the process itself
		 * after main's pthread_exit(); here main has ended by the
		 * exit system call, past glibc (end_here()).
		 */
		if (alone()) {
			pthread_t ender;

			if (MON_LOAD(&helper_raw))
				end_here();
			if (__mon_thread_plain(&ender, NULL, end_process,
			    NULL) == 0)
				return NULL;
			exit(0);
		}
	}
	return NULL;
}

/*
 * The helper's stack: a drain's record and frames, an unwind, a scan's
 * dl_iterate_phdr.  Not the 8 MB of RLIMIT_STACK that glibc gives a
 * thread by default, which a program under RLIMIT_AS could not spare.
 */
#define MON_PERF_HELPER_STACK	((size_t)256 << 10)

/*
 * Bind, on this thread, the C library functions the helper calls: a
 * non-PIE executable that takes the address of one makes the runtime's
 * GOT entry for it the executable's PLT slot, bound at its first call
 * (-fno-plt does not reach it), and a helper that is no thread of
 * glibc's may not bind one (dlclose() does not wait for it).
 */
static void
prebind(void)
{
	/* Through volatile pointers: calls of pure functions, or into
	 * memory not read again, the compiler would leave out. */
	void *(*volatile cpy)(void *, const void *, size_t) = memcpy;
	void *(*volatile mov)(void *, const void *, size_t) = memmove;
	void *(*volatile set)(void *, int, size_t) = memset;
	int (*volatile cmp)(const void *, const void *, size_t) = memcmp;
	char *(*volatile rchr)(const char *, int) = strrchr;
	pthread_t (*volatile self)(void) = pthread_self;
	volatile size_t none = 0;
	uint64_t id = 0;
	struct rusage ru;
	struct timespec ts;
	struct stat sb;
	char a[8] = "", b[8] = "";
	int saved = errno;
	void *p;

	(void)getrusage(RUSAGE_SELF, &ru);
	(void)clock_gettime(CLOCK_MONOTONIC, &ts);
	(void)ioctl(-1, PERF_EVENT_IOC_ID, &id);
	(void)fcntl(-1, F_GETFD);
	(void)close(-1);
	(void)readlink("", a, none);
	(void)stat("", &sb);
	(void)sched_yield();
	(void)sysconf(_SC_PAGESIZE);
	(void)self();
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		(void)madvise(p, 4096, MADV_NORMAL);
		munmap(p, 4096);
	}
	(void)cpy(a, b, none);
	(void)mov(a, b, none);
	(void)set(a, 0, none);
	(void)cmp(a, b, none);
	(void)rchr(a, '/');
	errno = saved;
}

static int
helper_start(void)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc, sized, loose;

	MON_STORE(&stopping, 0);
	sized = pthread_attr_init(&attr) == 0;
	if (sized && pthread_attr_setstacksize(&attr,
	    MON_PERF_HELPER_STACK) != 0) {
		pthread_attr_destroy(&attr);
		sized = 0;
	}
	sigfillset(&all);
	__mon_sigmask_set(SIG_SETMASK, &all, &old);
	/* A thread of glibc's only where no other can be had (set before
	 * the thread starts, which reads it). */
	MON_STORE(&helper_raw, 1);
	rc = 0;
	/* rawthread.c first: under a filter that kills, no call made. */
	loose = __mon_rawthread_possible() && __mon_sframe_lockfree();
	if (loose)
		prebind();
	if (!loose || __mon_rawthread_start(&raw, MON_PERF_HELPER_STACK,
	    helper_main, NULL) != 0) {
		MON_STORE(&helper_raw, 0);
		rc = __mon_thread_plain(&helper, sized ? &attr : NULL,
		    helper_main, NULL);
	}
	__mon_sigmask_set(SIG_SETMASK, &old, NULL);
	if (sized)
		pthread_attr_destroy(&attr);
	if (rc == 0)
		MON_STORE(&helper_up, 1);
	return rc != 0 ? -1 : 0;
}

static void
helper_stop(void)
{
	MON_STORE(&stopping, 1);
	syscall(SYS_futex, &stopping, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	/* The helper itself, in the exit() it makes for the program's
	 * last thread (helper_main): the process ends with it. */
	if (is_helper)
		return;
	if (!MON_LOAD(&helper_up))
		return;
	if (MON_LOAD(&helper_raw))
		__mon_rawthread_join(&raw);
	else
		pthread_join(helper, NULL);
	MON_STORE(&helper_up, 0);
}

/*
 * Bytes a record takes, about: header, ip, pid/tid and time (32), and
 * with call chains their length and some 25 frames.
 */
static size_t
record_bytes(void)
{
	if (MON_LOAD(&chains) && MON_LOAD(&copies))
		return copy_bytes + 64;
	return MON_LOAD(&chains) ? 256 : 32;
}

static size_t
data_pages(size_t copying, long rate)
{
	size_t want, p;

	if (MON_LOAD(&chains) && MON_LOAD(&copies))
		return copying;
	/* About a second of one CPU's samples. */
	want = (size_t)rate * record_bytes() / 4096;
	for (p = 8; p < want && p < 256; p <<= 1)
		continue;
	return p;
}

static int
open_cpu(struct perf_event_attr *a, int pid, int cpu, struct ring *r)
{
	int fd, k;
	void *m;

	fd = (int)syscall(SYS_perf_event_open, a, pid, cpu, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -1;
	m = mmap(NULL, maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED && (errno == EPERM || errno == ENOMEM))
		MON_STORE(&refused, 1);
	if (m == MAP_FAILED || !keepfds) {
		close(fd);
		fd = -1;
	} else if (fd <= STDERR_FILENO) {
		/* Started with stdio closed: leave 0-2 to the program. */
		k = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		close(fd);
		fd = k;
	}
	if (m == MAP_FAILED)
		return -1;
	if (fd >= 0 && ioctl(fd, PERF_EVENT_IOC_ID, &r->id) != 0) {
		close(fd);
		fd = -1;
	}
	r->fd = fd;
	r->meta = m;
	r->data = (char *)m + pagesz;
	r->size = maplen - (size_t)pagesz;
	return 0;
}

/* Open a's event for pid on every CPU into r[]: how many opened. */
static int
open_all(struct ring *r, int pid, struct perf_event_attr *a)
{
	int i, n;

	for (i = n = 0; i < ncpus; i++)
		if (open_cpu(a, pid, i, &r[n]) == 0)
			n++;
	return n;
}

/*
 * open_all, in rings as large as may be locked: where the samples carry
 * stack copies, copy_pages, and half as many while the kernel refuses
 * to map them (perf_event_mlock_kb, which every perf ring of the user
 * shares, then RLIMIT_MEMLOCK), down to 64 (31 copies of 8 KB); then
 * the kernel's frame-pointer chains in rings of their own size.
 */
static int
open_sized(struct ring *r, int pid, struct perf_event_attr *a, long rate)
{
	size_t pages = copy_pages;
	int n, copying = MON_LOAD(&chains) && MON_LOAD(&copies);

	for (;;) {
		maplen = (1 + data_pages(pages, rate)) * (size_t)pagesz;
		MON_STORE(&refused, 0);
		n = open_all(r, pid, a);
		if (!copying || !MON_LOAD(&refused))
			return n;
		close_all(r, n);
		if (pages > 64) {
			pages /= 2;
			continue;
		}
		MON_STORE(&copies, 0);
		copying = 0;
		attr(a, pid == -1);
	}
}

/* Whether r's fd is still the event we opened (not closed, not reused). */
static int
ours(const struct ring *r)
{
	uint64_t id;

	return r->fd >= 0 && ioctl(r->fd, PERF_EVENT_IOC_ID, &id) == 0 &&
	    id == r->id;
}

/* Unmap and close n rings: their events end. */
static void
close_all(struct ring *r, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		munmap(r[i].meta, maplen);
		if (ours(&r[i]))
			close(r[i].fd);
	}
}

/*
 * Open the events (0) or fail (-1, nothing left open).  cpuwide: 1 in
 * cpu scope from the start (else task), 0 task moving to cpu when the
 * process switches often, -1 task for good.
 */
int
__mon_perf_start(long rate, int cpuwide, int stacks, int want_kernel)
{
	struct perf_event_attr a;
	struct rlimit rl;
	size_t len;
	long ncpu, nap;
	int n, saved = errno;

	MON_STORE(&chains, stacks);
	MON_STORE(&kernel, want_kernel);
	/*
	 * Copies, unwound by unwind.c, on x86-64: by each object's SFrame
	 * rows or .eh_frame.  The kernel's frame-pointer chains would stop
	 * in every object built without frame pointers (Debian's C
	 * library, e2e 146 and 421).
	 */
	MON_STORE(&copies, 0);
#if defined(__x86_64__)
	if (stacks) {
		/*
		 * Not again in a fork child, whose parent's objects are
		 * known: its fork handlers must not take the loader's lock.
		 */
		if (!__mon_sframe_known())
			__mon_sframe_scan();
		MON_STORE(&copies, 1);
	}
#endif
	/*
	 * A fork child's are its parent's: it may start from a signal
	 * handler (sampler.c), where sysconf could fall back to opendir.
	 */
	pagesz = pagesz > 0 ? pagesz : sysconf(_SC_PAGESIZE);
	ncpu = ncpus > 0 ? ncpus : sysconf(_SC_NPROCESSORS_CONF);
	if (ncpu < 1 || pagesz < 1)
		goto fail;
	ncpus = (int)ncpu;
	keepfds = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
	    (rl.rlim_cur == RLIM_INFINITY || (rlim_t)ncpu * 16 <= rl.rlim_cur);
	copy_bytes = __mon_env_get()->stackcopy > 0 ?
	    (size_t)__mon_env_get()->stackcopy : MON_PERF_COPY;
	/*
	 * MON_PERF_COPY_RINGS bytes of rings in all, their first pages
	 * too (1 MB: 64 pages a ring on 2 CPUs, 16 on 8, 8 from 16 on),
	 * more where each copy asked for is larger than 8 KB, 8 to 1024
	 * pages a ring.
	 */
	for (copy_pages = 8; copy_pages < 1024 &&
	    (size_t)ncpus * (copy_pages * 2 + 1) * 4096 <= MON_PERF_COPY_RINGS *
	    ((copy_bytes + MON_PERF_COPY - 1) / MON_PERF_COPY);
	    copy_pages <<= 1)
		continue;
	if (__mon_env_get()->stackcopy <= 0 && copy_pages * 4096 /
	    (copy_bytes + 64) < MON_PERF_COPIES) {
		copy_bytes = (copy_pages * 4096 / MON_PERF_COPIES - 64) &
		    ~(size_t)7;
		if (copy_bytes < MON_PERF_COPY_MIN)
			copy_bytes = MON_PERF_COPY_MIN;
	}
	maplen = (1 + data_pages(copy_pages, rate)) *
	    (size_t)pagesz;
	/* A fork child's rings[] is its parent's, kept (__mon_perf_reset). */
	len = ((size_t)ncpu * sizeof(struct ring) + pagesz - 1) &
	    ~(size_t)(pagesz - 1);
	if (rings != NULL && ringslen != len) {
		munmap(rings, ringslen);
		rings = NULL;
	}
	if (rings == NULL) {
		ringslen = len;
		rings = mmap(NULL, ringslen, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (rings == MAP_FAILED) {
			rings = NULL;
			goto fail;
		}
	}
	sample_period = 1000000000L / rate;
	self_pid = syscall(SYS_getpid);
	MON_STORE(&stopped, 0);
	MON_STORE(&nap_ns, 10000000L);
	if (helper_start() != 0)
		goto fail_rings;
	n = 0;
	if (cpuwide > 0) {
		attr(&a, 1);
		if ((n = open_sized(rings, -1, &a, rate)) < ncpus) {
			close_all(rings, n);
			n = 0;
		}
	}
	MON_STORE(&scope, n > 0 ? MON_SAMPLER_PERF_CPU : MON_SAMPLER_PERF);
	if (n == 0) {
		attr(&a, 0);
		n = open_sized(rings, 0, &a, rate);
	}
	if (n == 0 && MON_LOAD(&kernel)) {
		/* Kernel samples refused (perf_event_paranoid): user only. */
		MON_STORE(&kernel, 0);
		attr(&a, 0);
		n = open_sized(rings, 0, &a, rate);
	}
	/* A quarter of the time a ring takes to fill at one CPU's rate. */
	nap = (long)((maplen - (size_t)pagesz) / record_bytes() *
	    (1000000000UL / 4) / (unsigned long)rate);
	MON_STORE(&nap_ns, nap < 200000000L ? nap : 200000000L);
	if (n == 0 && MON_LOAD(&chains)) {
		/* A kernel without user call chains: samples without. */
		MON_STORE(&chains, 0);
		__mon_hist_stacks(0);
		attr(&a, 0);
		n = open_all(rings, 0, &a);
	}
	if (n == 0) {
		helper_stop();
		goto fail_rings;
	}
	MON_STORE(&nrings, n);
	MON_STORE(&movable, cpuwide == 0 && keepfds &&
	    scope == MON_SAMPLER_PERF);
	MON_STORE(&stayed, cpuwide < 0 ? MON_STAYED_ASKED : !keepfds &&
	    scope == MON_SAMPLER_PERF ? MON_STAYED_NOFILE : 0);
	errno = saved;
	return 0;
fail_rings:
	munmap(rings, ringslen);
	rings = NULL;
fail:
	errno = saved;
	return -1;
}

/* Whether the samples are of kernel mode too (-kernel granted). */
int
__mon_perf_kernel(void)
{
	return MON_LOAD(&kernel);
}

/* MON_SAMPLER_PERF or MON_SAMPLER_PERF_CPU: the scope now. */
int
__mon_perf_scope(void)
{
	return MON_LOAD(&scope);
}

/* The most switches a second above MON_PERF_COSTLY in task scope, or 0. */
long
__mon_perf_switches(void)
{
	return MON_LOAD(&switches);
}

/* Why the sampler stayed in task scope: MON_STAYED_* (mon.h), or 0. */
long
__mon_perf_stayed(void)
{
	return MON_LOAD(&stayed);
}

/* Stop (ioctl 0) or restart the events whose fd we still have. */
static void
switch_events(unsigned long req)
{
	int i;

	for (i = 0; i < MON_LOAD(&nrings); i++)
		if (ours(&rings[i]))
			ioctl(rings[i].fd, req, 0);
}

/*
 * moncontrol, called before the mode changes: at off, stop the events
 * and drain what they sampled; at on, drop what is left (an event whose
 * fd is gone kept sampling: its samples from before now are dropped by
 * time stamp, now or when drained later) and restart them.
 */
void
__mon_perf_enable(int on)
{
	int locked = lock(1);

	if (!on)
		switch_events(PERF_EVENT_IOC_DISABLE);
	if (locked)
		drain_all();
	if (on)
		MON_STORE(&on_since, (uint64_t)now_ns(CLOCK_MONOTONIC));
	MON_STORE(&stopped, !on);
	if (on)
		switch_events(PERF_EVENT_IOC_ENABLE);
	if (locked)
		MON_STORE(&draining, 0);
}

void
__mon_perf_stop(void)
{
	int n;

	MON_STORE(&movable, 0);
	helper_stop();
	n = nrings;
	switch_events(PERF_EVENT_IOC_DISABLE);
	__mon_perf_drain(1);
	MON_STORE(&nrings, 0);
	/* The last references to each event: this ends it. */
	close_all(rings, n);
	munmap(rings, ringslen);
	rings = NULL;
}

/*
 * Wait until the kernel has released the helper thread tid, which
 * pthread_join does not: until then the process is not its own only
 * thread, and unshare(CLONE_NEWUSER) fails with EINVAL.  Up to 10,000
 * looks, about a second: the first 100 after a yield, the others after
 * a nap of 100 us, as a loaded machine may not run the ending thread
 * for tens of milliseconds (e2e 138 failed when 10,000 yields were over
 * sooner).  The calls go only where the program's filters allow them.
 */
static void
released(long tid)
{
	static const struct timespec nap = { 0, 100000L };
	static int word;
	int i;

	if (tid <= 0 || !__mon_seccomp_may(MON_SECCOMP_GONE))
		return;
	for (i = 0; i < 10000 &&
	    syscall(SYS_tgkill, self_pid, tid, 0) == 0; i++)
		if (i < 100 || !__mon_seccomp_may(MON_SECCOMP_FUTEX))
			yield();
		else
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, &nap,
			    NULL, 0);
}

/*
 * The program is to be its only thread for a call (unshare.c): the
 * helper ends, and is gone from the thread group when this returns, or
 * (alone 0) starts again after the call.  The events go on sampling
 * into their rings meanwhile, which the next drain empties.  -1 if the
 * helper could not start again (the samples then wait for a write).
 */
int
__mon_perf_alone(int alone)
{
	static int paused;
	int saved = errno, rc = 0;
	long tid;

	if (alone) {
		if (rings == NULL || MON_LOAD(&nrings) == 0 || paused)
			return 0;
		helper_stop();
		/* Read after the join: a helper that had not yet stored
		 * its tid when the call came has stored it by its end. */
		tid = MON_LOAD(&helper_tid);
		/*
		 * A helper started again after the events (the second
		 * call on) was sampled: its last samples are drained while
		 * helper_tid still names it, for mine() to leave out.
		 */
		__mon_perf_drain(1);
		paused = 1;
		released(tid);
	} else if (paused) {
		paused = 0;
		rc = helper_start();
	}
	errno = saved;
	return rc;
}

/*
 * fork child: the events and the helper are the parent's (the ring
 * mappings are not even copied); drop them without draining.
 */
void
__mon_perf_reset(void)
{
	int i;

	/* By the system call: close() may not be bound yet (lazily). */
	for (i = 0; i < nrings; i++)
		if (ours(&rings[i]))
			(void)__mon_sys(SYS_close, rings[i].fd, 0, 0, 0, 0, 0);
	MON_RESET(&nrings, 0);
	MON_RESET(&draining, 0);
	MON_RESET(&movable, 0);
	MON_RESET(&switches, 0);
	MON_RESET(&helper_up, 0);	/* the parent's, not here */
	/* A child forked off the helper (an exit handler run there). */
	is_helper = 0;
	__mon_rawthread_forget(&raw);
	/* rings[] stays, for the child's own sampler to use (a munmap,
	 * and a TLB flush, less in every fork). */
}
