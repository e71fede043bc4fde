/* SPDX-License-Identifier: MIT */
/*
 * mon.h - monprof: the System V execution profiler interface.
 *
 * One definition, shared by the runtime, the GCC plugin (compiled as
 * C++) and prof: the public API (monitor(3)), the mon.out layout, the
 * metadata cells, and the hook ABI between plugin and runtime.
 */
#ifndef _MON_H
#define _MON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * mon.out, classic layout, native byte order (LP64: 24 + 16 * nfns bytes,
 * then the histogram):
 *
 *	struct hdr	lpc, hpc: link-time addresses (PIE load bias removed)
 *	struct cnt	nfns of them; metadata cells first (fnpc < MON_META_LIMIT)
 *	WORD		the histogram: the rest of the file, spanning [lpc, hpc)
 *			uniformly
 */
struct hdr {
	char	*lpc;		/* lowest profiled pc */
	char	*hpc;		/* first pc past the profiled range */
	size_t	 nfns;		/* number of struct cnt cells that follow */
};

struct cnt {
	char	*fnpc;		/* a pc strictly inside the function */
	long	 mcnt;		/* calls */
};

typedef unsigned short WORD;

#define MON_OUT		"mon.out"
/*
 * With PROFDIR, a process's files are <pid>.<prog> (and .gmon): prog is
 * the program's base name cut to its first MON_PROGNAME_MAX bytes (back
 * to the start of a UTF-8 character), so every name fits NAME_MAX.
 */
#define MON_PROGNAME_MAX	200
#define MPROGS0		(150 * sizeof(WORD))	/* 300: the cnt cells of cc -p */
#define MSCALE0		4
#define BARSIZE		8	/* text bytes per histogram WORD, default */
#define MON_NFUNC	600	/* cells of the default monitor() call */

/*
 * Several ranges at once (Tru64): monitor(MON_RANGES, 0, (WORD *)args,
 * nargs, 0).  Each range has bufsiz / sizeof(unsigned int) counters over
 * [lowpc, highpc) uniformly; monitor() sorts args by decreasing lowpc.
 * Ranges must not overlap and must be mapped, or it returns -1 (EINVAL).
 */
struct monitor_args {
	char		*lowpc;
	char		*highpc;
	unsigned int	*buffer;
	size_t		 bufsiz;	/* bytes */
};

#define MON_RANGES	((int (*)(void))-1)
#define MON_RANGES_MAX	1024	/* monitor_args in one call */

/*
 * monitor(lowpc, highpc, buffer, bufsize, nfunc): bufsize counts WORDs;
 * buffer = struct hdr | struct cnt[nfunc] | WORD histogram.
 * monitor(0, 0, 0, 0, 0) stops profiling and writes mon.out.
 * Returns 0, or -1 with errno EINVAL for arguments it cannot use.
 */
int	monitor(int (*lowpc)(void), int (*highpc)(void), WORD *buffer,
	    size_t bufsize, size_t nfunc);
int	monstartup(char *lowpc, char *highpc);
int	moncontrol(int mode);
void	monitor_signal(int sig);
/* Same prototype as glibc's <unistd.h>, so both headers can be included. */
int	profil(unsigned short *samples, size_t size, size_t offset,
	    unsigned int scale);

/*
 * Metadata cells: a cell whose fnpc is below MON_META_LIMIT carries
 * (key = fnpc, value = mcnt).  No function lives in the first page, so
 * classic prof drops these cells; ours reads them.  The writer puts them
 * before the function cells.
 */
#define MON_META_LIMIT		4096
#define MON_META_MAGIC		1	/* value MON_META_MAGIC_VALUE */
#define MON_META_VERSION	2	/* value MON_FORMAT_VERSION */
#define MON_META_RATE		3	/* samples per CPU-second, per thread */
#define MON_META_SAMPLER	4	/* MON_SAMPLER_* */
#define MON_META_SATURATED	5	/* samples dropped: their bin was full */
#define MON_META_OUTSIDE	6	/* samples outside [lpc, hpc) */
#define MON_META_BIAS		7	/* load bias removed from addresses */
#define MON_META_BUILDID	8	/* first 8 bytes of the GNU build-id */
#define MON_META_PID		9	/* process that wrote the file */
#define MON_META_SAMPLES	10	/* all samples taken */
#define MON_META_LOST		11	/* samples the kernel lost */
#define MON_META_THREADS	12	/* threads that ran instrumented code */
/*
 * A shared object with counted functions (whose cells keep run-time
 * addresses) or samples: one executable mapping of it, as consecutive
 * cells.
 */
#define MON_META_OBJECT		13	/* the mapping's start */
#define MON_META_OBJECT_END	14	/* its end */
#define MON_META_OBJECT_OFFSET	15	/* the file offset mapped at start */
#define MON_META_OBJECT_PATH	16	/* 8 bytes of the path per cell,
					   to its NUL */
#define MON_META_OBJECT_BUILDID	17	/* optional, before the path: the
					   first 8 bytes of its build-id */
/*
 * Samples outside [lpc, hpc) (version 2), so every sample is accounted
 * for: the executable's own, each object's, and those in no object.  A
 * SAMPLE cell's value is (where << 16 | n): n samples (1 to 65535; a
 * bucket with more has several cells) in the STRIDE bytes at where, a
 * link-time pc for EXE_SAMPLE, an offset into the mapping for
 * OBJECT_SAMPLE.  OBJECT_SAMPLES and OBJECT_SAMPLE follow a record's
 * path; the objects PROFFLAGS does not select have only the total.
 */
#define MON_META_STRIDE		18	/* bytes per SAMPLE, 0: totals only */
#define MON_META_UNKNOWN	19	/* samples in no object's mapping */
#define MON_META_EXE_SAMPLES	20	/* the executable's, outside [lpc, hpc) */
#define MON_META_EXE_SAMPLE	21	/* where << 16 | n */
#define MON_META_OBJECT_SAMPLES	22	/* in a record: its mapping's samples */
#define MON_META_OBJECT_SAMPLE	23	/* in a record: where << 16 | n */
#define MON_META_EXE_PATH	24	/* the executable's path, 8 bytes a
					   cell to its NUL, as OBJECT_PATH */
/*
 * The most times a second the program's threads blocked while the perf
 * sampler stayed in task scope, where the kernel works at each switch;
 * written only when above 10,000 (a few percent of a CPU).
 */
#define MON_META_SWITCHES	25
#define MON_META_NKEYS		26	/* keys are below this */
#define MON_SAMPLE_MAX		65535	/* n of one SAMPLE cell */

#define MON_META_MAGIC_VALUE	0x31666f72706e6f6dL	/* "monprof1", little-endian */
#define MON_FORMAT_VERSION	2	/* 1: no samples outside [lpc, hpc) */

#define MON_SAMPLER_NONE	0
#define MON_SAMPLER_PERF	1	/* perf_event task-clock */
#define MON_SAMPLER_ITIMER	2	/* CPU-time timer, SIGPROF */
#define MON_SAMPLER_PERF_CPU	3	/* perf_event cpu-clock per CPU, filtered */

/*
 * Hook ABI, version 5 (plugin -> runtime; 2 added the -pg arc cache, 3
 * the executable's thread-local counters, 4 the -pg call sites that
 * announce themselves to their callee, 5 their words in the runtime's
 * blocks, which -fPIC code in an executable announces too).
 *
 * -p code that can only be in an executable (x86-64, update=thread, not
 * -fPIC: non-PIC or -fPIE) gives each function a counter in the
 * executable's own static TLS and a record in section MON_PCELLS_SECTION:
 *
 *	static __thread long ctr;	local-exec: %fs:ctr@tpoff
 *	struct mon_pcell { long pc; long tpoff; }:
 *		pc	a pc inside the function, minus the record's address
 *		tpoff	ctr@tpoff, its offset from any thread's pointer
 *
 * and at entry the one instruction
 *
 *	addq	$1, %fs:ctr@tpoff
 *
 * The runtime reads the records between the linker's __start_ and
 * __stop_ symbols of the section (a record may appear twice in a row:
 * one counter is one function), and each thread's counters through its
 * thread pointer: it learns threads from pthread_create, which the specs
 * file has the executable wrap (static links) or define as
 * __mon_thread_create and export (dynamic links), and adds a thread's
 * counters up when it ends.  thrd_create (__mon_thread_c11), and the
 * SIGEV_THREAD notifications of timer_create and mq_notify
 * (__mon_notify_timer_create, __mon_notify_mq_notify), are linked alike.
 *
 * Other -p code (-fPIC, which may go into a shared object or be
 * dlopen()ed, other targets, update=single|atomic, tls=) keeps the word
 * of version 2.  For every such function the plugin emits two zeroed
 * words,
 *
 *	static struct cnt *cell;	the function's cell, shared
 *	static long *word;		the counter this code increments;
 *					__thread in update=thread mode
 *
 * and at entry
 *
 *	long *p = word;
 *	if (p != NULL)
 *		++*p;			(lock add in update=atomic mode)
 *	else
 *		__mon_mcount_slow(&word, &cell);
 *
 * The slow path allocates the cell once (fnpc = its return address, a pc
 * inside the function), allocates a counter for the word (per thread when
 * the word is thread-local), counts this call and publishes the word with
 * a compare-and-swap.  It never calls malloc, stdio, locks or user code.
 */
#define MON_HOOK_ABI		5
#define MON_PCELLS_SECTION	"__mon_pcells"
struct mon_pcell {
	long	 pc;		/* a pc inside the function - &pc */
	long	 tpoff;		/* the counter's offset from the thread pointer */
};
#define MON_MCOUNT_SLOW_NAME	"__mon_mcount_slow"
void	__mon_mcount_slow(long **word, struct cnt **cell);

/*
 * On x86-64 the plugin calls the slow path from inline assembly through
 * a stub that preserves every register but the flags, so that the rare
 * call costs the fast path nothing (no register saved in the prologue):
 *
 *	lea	cell(%rip), %r11	%rax = &word
 *	lea	-128(%rsp), %rsp	step over the red zone
 *	call	*__mon_mcount_stub@GOTPCREL(%rip)
 *	lea	128(%rsp), %rsp
 */
#define MON_MCOUNT_STUB_NAME	"__mon_mcount_stub"

/*
 * Instrumented code outside shared objects also names this symbol (an
 * R_X86_64_NONE relocation at the stub call or the record's pc, no
 * code), which only a
 * runtime of the same hook ABI defines: a link without the runtime, or
 * with one of another ABI, then says what to add.
 */
#define MON_STR_(x)		#x
#define MON_STR(x)		MON_STR_(x)
#define MON_LINK_HINT_ABI(abi) \
	"monprof: compiled with -p or -pg (hook ABI " MON_STR(abi) \
	"); link with -specs=monprof.specs -p too, or add libmonprof.a"
#define MON_LINK_HINT		MON_LINK_HINT_ABI(MON_HOOK_ABI)
/* Version 5 runtimes serve version 2 to 4 objects too: every hint. */
#define MON_LINK_HINT_OLD	MON_LINK_HINT_ABI(2)
#define MON_LINK_HINT_3		MON_LINK_HINT_ABI(3)
#define MON_LINK_HINT_4		MON_LINK_HINT_ABI(4)

/*
 * -pg (gprof) mode counts caller -> callee arcs.  Each function also
 * gets a thread-local arc cache, the arc it was last called through in
 * this thread (the runtime's entry: from at index MON_ARC_FROM, the
 * count at MON_ARC_COUNT), and the entry test
 *
 *	static struct cnt *cell;
 *	static __thread long *arc;
 *
 *	ra = __builtin_return_address(0);
 *	p = arc;
 *	if (p != 0 && p[MON_ARC_FROM] == (long)ra)
 *		p[MON_ARC_COUNT] += 1;
 *	else
 *		__mon_mcount_arc_cache(&cell, ra, &arc);
 *
 * The hook counts the arc in a per-thread table (the cell, allocated on
 * first use, identifies the callee; its fnpc is the hook's return
 * address) and stores the arc in the cache.  The function's count is the
 * sum of its arcs.  An arc the runtime cannot hand to one thread is
 * counted but not cached.
 */
#define MON_MCOUNT_ARC_NAME	"__mon_mcount_arc_cache"
#define MON_ARC_FROM		0
#define MON_ARC_COUNT		2
void	__mon_mcount_arc_cache(struct cnt **cell, void *frompc, long **arc);

/* Hook ABI 1 (no cache), for objects built by earlier plugins. */
#define MON_MCOUNT_ARC1_NAME	"__mon_mcount_arc"
void	__mon_mcount_arc(struct cnt **cell, void *frompc);

/*
 * Objects compiled by GCC's own -p or -pg (no plugin) call mcount after
 * the prologue; the runtime's counts them (by the pc of the call, as
 * update=atomic in a -p program, as arcs in a -pg one).
 */
#define MON_MCOUNT_GNU_NAME	"mcount"
#define MON_MCOUNT_GNU2_NAME	"_mcount"

/*
 * On x86-64 the hook is called like the -p stub, through a stub that
 * preserves every register but the flags:
 *
 *	mov	<return address>, %r11	%rax = &cell
 *	lea	-128(%rsp), %rsp
 *	push	<&arc>
 *	call	*__mon_mcount_arc_stub@GOTPCREL(%rip)
 *	lea	136(%rsp), %rsp
 */
#define MON_MCOUNT_ARC_STUB_NAME "__mon_mcount_arc_stub"

/*
 * A function the plugin sees every call of (static, its address never
 * taken, called from instrumented functions only) has no entry hook:
 * each call site counts its arc in a thread-local word of its own,
 *
 *	static __thread long *word;
 *	static const struct __mon_site site = { &cell, (char *)callee + 1 };
 *
 *	p = word;
 *	if (p != 0)
 *		*p += 1;
 *	else
 *		__mon_mcount_site(&word, &site);
 *
 * which counts the arc from the hook's return address (a pc of the call
 * site) and leaves the arc's counter in word.  x86-64 only, through a
 * stub called as the -p one (%rax = &word, %r11 = &site).
 */
struct __mon_site {
	struct cnt	**cell;		/* the callee's */
	char		 *fn;		/* a pc inside the callee */
};
#define MON_MCOUNT_SITE_STUB_NAME "__mon_mcount_site_stub"

/*
 * Version 5, x86-64: every other call site announces itself to its
 * callee.  Before a direct call (not a tail call) of a function that is
 * not counted at its sites, an executable's code stores the address of
 * a record of the site, 8 zero bytes in section MON_SITES_SECTION, in
 * the runtime's thread-local announcement (initial-exec):
 *
 *	static long rec;		one per call site, never written
 *	extern __thread void *volatile __mon_site_rec;
 *
 *	__mon_site_rec = &rec;
 *	callee(...);
 *
 * Each thread's words, one per record, the arc counted through the
 * site, are a block of the runtime's at __mon_site_bias from the
 * records: rec's word is *(long **)((char *)&rec + bias).  A thread
 * without a block has bias 0, where the word read is rec itself, 0.
 * -fPIC code may end in a shared object, whose records lie outside the
 * executable's section: it announces only if the address of a weak
 * hidden mark that the runtime defines in executables only is not 0 (a
 * shared object's reference stays 0, whatever it is loaded into):
 *
 *	extern const char __mon_mcount_exe;	weak, hidden
 *
 *	if (&__mon_mcount_exe != 0)
 *		__mon_site_rec = &rec;
 *
 * A shared object's code announces through a thread-local word of its
 * own instead, hidden (one per object) and initial-exec, which the
 * runtime sets, in each thread, to where that thread's block of the
 * object's records lies, less the bias, and to 0 while there is none:
 *
 *	extern __thread long __mon_site_mod;	hidden, one-only
 *
 *	if (&__mon_mcount_exe != 0)
 *		__mon_site_rec = &rec;
 *	else if ((t = __mon_site_mod) != 0)
 *		__mon_site_rec = (char *)&rec + t;
 *
 * so that the entry's read below finds the word in either case.  Each
 * unit that announces so registers the object's records and word with
 * a constructor, and unregisters them with a destructor, if the runtime
 * is there (both are weak references):
 *
 *	__mon_sites_add(__start___mon_sites, __stop___mon_sites,
 *	    &__mon_site_mod);		the object's own section, hidden
 *	__mon_sites_del(__start___mon_sites);
 *
 * (Code not built -fPIC cannot be linked into a shared object: its arc
 * caches are local-exec.)  Every -pg entry (any object's) whose arc
 * cache misses reads and clears the announcement, and counts through
 * its word if it holds the very arc of this call.  The announcement may
 * be older than this call, or not meant for this function (the caller
 * announced a function that is not instrumented and calls this one, a
 * tail call, a signal handler came in between): the arc's from and cell
 * are the key the runtime would count the call under, so a stale one
 * costs a hook call, never a count in the wrong place.
 *
 *	if (the arc cache holds ra)		as version 2
 *		p[MON_ARC_COUNT] += 1;
 *	else {
 *		w = __mon_site_rec;
 *		__mon_site_rec = 0;
 *		if (w != 0 &&
 *		    (q = *(long **)((char *)w + __mon_site_bias)) != 0 &&
 *		    q[MON_ARC_FROM] == (long)ra &&
 *		    q[MON_ARC_CELL] == (long)cell)
 *			q[MON_ARC_COUNT] += 1;
 *		else
 *			the stub below;
 *	}
 *
 * The stub is called as __mon_mcount_arc_stub, with w pushed before
 * &arc (lea 144(%rsp), %rsp after it); it counts the arc, caches it,
 * and leaves it in w's word too if w is not 0 and the word lies in one
 * of the thread's blocks.  An arc the runtime counts in no thread's own table is left in
 * neither.  The arc's cell is set (claimed) before any arc names it, so
 * a function whose cell is still 0 never matches.
 *
 * Version 4 objects announce the address of a thread-local word of the
 * site in __mon_site_next instead, read by their entries as *w, and
 * call __mon_mcount_arc_next_stub, which leaves the arc in *w.
 */
/*
 * Exported by dynamic executables only (the specs file): a static PIE
 * would keep a TLS relocation against them, which glibc cannot apply
 * before its TLS is set up.  Not MON_*_NAMEs, which are exported always.
 */
#define MON_SITE_REC_VAR	"__mon_site_rec"
#define MON_SITE_BIAS_VAR	"__mon_site_bias"
#define MON_SITE_NEXT_VAR	"__mon_site_next"	/* version 4 */
#define MON_EXE_VAR		"__mon_mcount_exe"
#define MON_SITES_SECTION	"__mon_sites"
#define MON_ARC_CELL		1
#define MON_SITE_MOD_VAR	"__mon_site_mod"
#define MON_SITES_ADD_NAME	"__mon_sites_add"
#define MON_SITES_DEL_NAME	"__mon_sites_del"
#define MON_MCOUNT_ARC_REC_STUB_NAME "__mon_mcount_arc_rec_stub"
#define MON_MCOUNT_ARC_NEXT_STUB_NAME "__mon_mcount_arc_next_stub" /* 4 */

/*
 * Version 6: -fPIC code (which may be a shared object, dlopen()ed by a
 * host that loads hundreds) has no thread-local storage of its own,
 * which would take the few hundred bytes of static TLS that glibc keeps
 * for every object a program dlopen()s.  Its thread-local words (-p:
 * the word; -pg: the arc cache, a call site's word, the object's mod)
 * are words of an area that the runtime maps for each thread, reached
 * through the runtime's one thread-local pointer (initial-exec: the
 * executable's, or the null runtime's, below).  Each unit of -fPIC code
 * has a hidden base, the offset of its words in every area, 0 until its
 * constructor registers it with the number of words it uses:
 *
 *	extern __thread char *__mon_area_mine;	0: no area yet
 *	static long base;			the unit's, 0 at first
 *	__mon_area_add(&base, n);		its constructor, weak
 *
 * and word k of the unit is at __mon_area_mine + base + 8 * k.  Offsets
 * below MON_AREA_SCRATCH are no unit's: an unregistered unit's words
 * (base 0) are read there, always 0, and never written, so a unit has
 * at most MON_AREA_UNIT_MAX words.  A -p entry:
 *
 *	a = __mon_area_mine;
 *	off = base + 8 * k;
 *	if (a != 0 && (p = *(long **)(a + off)) != 0)
 *		++*p;
 *	else
 *		the stub, %rax = off, %r11 = &cell
 *
 * and the -pg ones alike, their stubs told the offset where version 5
 * told &arc or &word.  The stub counts the call, and leaves the word in
 * this thread's area, mapping it at the thread's first call.  A shared
 * object's mod (version 5's __mon_site_mod) is a word of the areas too,
 * at the offset in a hidden one-only __mon_site_modoff that the
 * object's registration sets:
 *
 *	__mon_sites_add(__start___mon_sites, __stop___mon_sites,
 *	    &__mon_site_modoff);
 *
 *	if (&__mon_mcount_exe != 0)
 *		__mon_site_rec = &rec;
 *	else if ((a = __mon_area_mine) != 0 &&
 *	    (t = *(long *)(a + __mon_site_modoff)) != 0)
 *		__mon_site_rec = (char *)&rec + t;
 *
 * A -shared link needs the executable's runtime, or where the host has
 * none (a plain interpreter), MON_NULL_LIB: the specs file links it into
 * every shared object, it defines the pointer and the stubs, and it
 * counts nothing (the pointer stays 0); an executable's runtime comes
 * first in the dynamic linker's search, so its definitions are used.
 */
#define MON_AREA_VAR		"__mon_area_mine"
#define MON_AREA_ADD_NAME	"__mon_area_add"
#define MON_AREA_LEN		(32L << 20)	/* each thread's area, bytes */
#define MON_AREA_SCRATCH	(1L << 20)	/* no unit's words below */
#define MON_AREA_UNIT_MAX	(MON_AREA_SCRATCH / 8)
#define MON_SITE_MODOFF_VAR	"__mon_site_modoff"
#define MON_MCOUNT_AREA_STUB_NAME "__mon_mcount_area_stub"
#define MON_MCOUNT_SITE_AREA_STUB_NAME "__mon_mcount_site_area_stub"
#define MON_MCOUNT_ARC_AREA_STUB_NAME "__mon_mcount_arc_area_stub"
#define MON_NULL_LIB		"libmonprof-null.so"

#ifdef __cplusplus
}
#endif

#endif /* _MON_H */
