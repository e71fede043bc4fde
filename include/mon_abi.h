/* SPDX-License-Identifier: MIT */
/*
 * mon_abi.h - the hook ABI between the monprof plugin and its runtime:
 * what instrumented code calls, reads and names, one definition shared
 * by the plugin (compiled as C++), the runtime and the null runtime.
 * Internal: no program calls these, and it is not installed (mon.h is
 * the public interface).
 */
#ifndef _MON_ABI_H
#define _MON_ABI_H

#include "mon.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Hook ABI, version 10 (plugin -> runtime; 2 added the -pg arc cache, 3
 * the executable's thread-local counters, 4 the -pg call sites that
 * announce themselves to their callee, 5 their words in the runtime's
 * blocks, which -fPIC code in an executable announces too, 6 -fPIC
 * code's words in each thread's area of the runtime's, 7 the
 * executable's counters in each thread's window, through %gs, 8 the
 * executable's -pg arcs counted at their call sites, 9 -p's calls
 * counted once per group, 10 every call counted at its entry alone:
 * 8's and 9's fast paths are gone, below).  The
 * runtime serves this version alone: an object of another fails to
 * link, with a message that says to rebuild it (MON_LINK_STALE).
 *
 * -p code that can only be in an executable (x86-64, update=thread, not
 * -fPIC: non-PIC or -fPIE) gives each function a counter in section
 * MON_PCTRS_SECTION (no bits in the file: GCC and gas take a .lbss name
 * for zero-filled memory) and a record in section MON_PCELLS_SECTION:
 *
 *	static long ctr;		in MON_PCTRS_SECTION
 *	struct mon_pcell { int pc; int tls; long ctr; }:
 *		pc	a pc inside the function, minus the record's
 *			address; 0 for a -pg word (below)
 *		tls	__mon_area_mine@tpoff: a local-exec reference that
 *			ld refuses in a shared object, where %gs would
 *			not reach the counter; never read
 *		ctr	&ctr minus the address of the field
 *
 * and at entry the one instruction
 *
 *	addq	$1, %gs:ctr(%rip)
 *
 * which counts at the segment base plus the counter's address: the
 * counter itself in a thread whose base is 0 (the main thread, every
 * thread while profiling is off), and in the others the same offset of
 * a window that the runtime maps for the thread, where only the pages
 * of the functions it calls are ever touched.  glibc never uses %gs on
 * x86-64, and a thread inherits its creator's base, so a thread the
 * runtime does not see counts, unsynchronised, in its creator's window.
 *
 * -pg code of an executable keeps its thread-local words (the arc cache
 * and call-site words below) in the same section, read as
 * %gs:word(%rip), each named by a record with pc 0 in every function
 * that reads it: the runtime zeroes them in a window that another
 * thread held, and stores a word through its stubs at the same offset
 * of the calling thread's window.
 *
 * The runtime reads the records between the linker's __start_ and
 * __stop_ symbols of the section (a record may appear twice in a row:
 * one counter is one function), and each thread's counters in its
 * window: it learns threads from pthread_create, which the specs
 * file has the executable wrap (static links) or define as
 * __mon_thread_create and export (dynamic links).  thrd_create
 * (__mon_thread_c11), and the SIGEV_THREAD notifications of
 * timer_create and mq_notify (__mon_notify_timer_create,
 * __mon_notify_mq_notify), are linked alike.
 *
 * -fPIC code on x86-64 keeps its words in the runtime's area (below).
 * Other -p code (other targets, update=single|atomic, tls=) keeps the
 * word of version 2.  For every such function the plugin emits two
 * zeroed words,
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
#define MON_HOOK_ABI		10
#define MON_PCELLS_SECTION	"__mon_pcells"
#define MON_PCTRS_SECTION	".lbss.__mon_pctr"
struct mon_pcell {
	int	 pc;		/* a pc inside the function - &pc */
	int	 tls;		/* __mon_area_mine@tpoff, never read */
	long	 ctr;		/* &counter - &ctr */
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
 * code), which only a runtime of the same hook ABI defines: a link
 * without the runtime then says what to add.  The runtime defines the
 * hints of versions 2 to 6 too, in an archive member that names
 * MON_LINK_STALE the same way: a link of an object built by an older
 * plugin says to rebuild it.
 */
#define MON_STR_(x)		#x
#define MON_STR(x)		MON_STR_(x)
#define MON_LINK_HINT_ABI(abi) \
	"monprof: compiled with -p or -pg (hook ABI " MON_STR(abi) \
	"); link with -specs=monprof.specs -p too, or add libmonprof.a"
#define MON_LINK_HINT		MON_LINK_HINT_ABI(MON_HOOK_ABI)
#define MON_LINK_STALE \
	"monprof: an object was compiled with -p or -pg by an older " \
	"monprof (hook ABI 2 to 9); rebuild it with this one (hook ABI " \
	MON_STR(MON_HOOK_ABI) ")"

/*
 * -pg (gprof) mode counts caller -> callee arcs.  Each function also
 * gets a thread-local arc cache, the arc it was last called through in
 * this thread (the runtime's entry: from at index MON_ARC_FROM, the
 * count at MON_ARC_COUNT), and the entry test
 *
 *	static struct cnt *cell;
 *	static __thread long *arc;	an executable's: a word of the span
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

/*
 * Objects compiled by GCC's own -p or -pg (no plugin) call mcount after
 * the prologue; the runtime's counts them (by the pc of the call, as
 * update=atomic in a -p program, as arcs in a -pg one).
 */
#define MON_MCOUNT_GNU_NAME	"mcount"
#define MON_MCOUNT_GNU2_NAME	"_mcount"

/*
 * On x86-64 the hook is called like the -p stub, through a stub that
 * preserves every register but the flags, the announced site pushed
 * first (below):
 *
 *	mov	<return address>, %r11	%rax = &cell
 *	lea	-128(%rsp), %rsp
 *	push	<w>
 *	push	<&arc>
 *	call	*__mon_mcount_arc_rec_stub@GOTPCREL(%rip)
 *	lea	144(%rsp), %rsp
 */

/*
 * Version 5, x86-64: a call site announces itself to its callee.
 * Before a direct call (not a tail call), an executable's code stores
 * the address of a record of the site, 8 zero bytes in section
 * MON_SITES_SECTION, in the runtime's thread-local announcement
 * (initial-exec):
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
 * A shared object's code announces through its object's mod instead, a
 * word of each thread's area (version 6, below) that the runtime sets to
 * where that thread's block of the object's records lies, less the
 * bias, and to 0 while there is none:
 *
 *	if (&__mon_mcount_exe != 0)
 *		__mon_site_rec = &rec;
 *	else if ((a = __mon_area_mine) != 0 &&
 *	    (t = *(long *)(a + __mon_site_modoff)) != 0)
 *		__mon_site_rec = (char *)&rec + t;
 *
 * so that the entry's read below finds the word in either case.  Each
 * unit that announces so registers the object's records and word with
 * a constructor, and unregisters them with a destructor, if the runtime
 * is there (both are weak references):
 *
 *	__mon_sites_add(__start___mon_sites, __stop___mon_sites,
 *	    &__mon_site_modoff);	the object's own section, hidden;
 *					the offset of its mod, set here
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
 * The stub (above, w pushed before &arc) counts the arc, caches it,
 * and leaves it in w's word too if w is not 0 and the word lies in one
 * of the thread's blocks.  An arc the runtime counts in no thread's own
 * table is left in neither.  The arc's cell is set (claimed) before any
 * arc names it, so a function whose cell is still 0 never matches.
 */
/*
 * Exported by dynamic executables only (the specs file): a static PIE
 * would keep a TLS relocation against them, which glibc cannot apply
 * before its TLS is set up.  Not MON_*_NAMEs, which are exported always.
 */
#define MON_SITE_REC_VAR	"__mon_site_rec"
#define MON_SITE_BIAS_VAR	"__mon_site_bias"
#define MON_EXE_VAR		"__mon_mcount_exe"
#define MON_SITES_SECTION	"__mon_sites"
#define MON_ARC_CELL		1
#define MON_SITES_ADD_NAME	"__mon_sites_add"
#define MON_SITES_DEL_NAME	"__mon_sites_del"
#define MON_MCOUNT_ARC_REC_STUB_NAME "__mon_mcount_arc_rec_stub"

/*
 * Hook ABI 10: every call is counted at its callee's entry, and nowhere
 * else.  Version 8 counted an executable's -pg arcs at their call sites
 * (a tag the callee's entry matched) and let a local function whose
 * calls cgraph showed all direct have no entry at all; version 9 counted
 * an executable's -p calls once per group of calls.  Each lost or added
 * calls that the entry would have counted (DESIGN.md, section 2).
 */

/*
 * -fPIC code (which may be a shared object, dlopen()ed by a
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
 * and the -pg ones alike, their stubs told the offset where the others
 * are told &arc or &word.  The stub counts the call, and leaves the word
 * in this thread's area, mapping it at the thread's first call.  A
 * shared object's mod (above) is a word of the areas too, at the offset
 * in the hidden one-only __mon_site_modoff that the object's
 * registration sets.
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
#define MON_MCOUNT_ARC_AREA_STUB_NAME "__mon_mcount_arc_area_stub"
#define MON_NULL_LIB		"libmonprof-null.so"

#ifdef __cplusplus
}
#endif

#endif /* _MON_ABI_H */
