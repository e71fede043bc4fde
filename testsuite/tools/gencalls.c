/* SPDX-License-Identifier: MIT */
/*
 * gencalls.c - write a random program whose every counted function says
 * how often it ran, so that a test can hold the profilers' call counts
 * to the program's own (a test tool; countcheck.sh drives it).
 *
 * Usage: gencalls SEED DIR
 *
 * Writes into DIR, all of it chosen by SEED alone (the same SEED writes
 * the same bytes): gen.h, main.c and u1.c ... (or .cc, C++, for some
 * seeds), and build.args, a shell fragment that says how to build them:
 *
 *	lang=c|c++	the language, so the compiler: gcc or g++
 *	level=NAME	O0 O1 O2 O3 Os lto pic pie nopie static
 *	opt='...'	the flags of that level (and a few extras: -g ...)
 *	exe_srcs='...'	the units of the executable, main's first
 *	lib_srcs='...'	the units of libgen.so (level pic only)
 *	libs='...'	what the link needs after the units
 *	features='...'	the language, the level, each feature used
 *			(below) and "threads" where threads run
 *
 * The program calls each feature's driver from main some times (and
 * from threads, with -pthread), then prints "count SYMBOL N" for every
 * function marked noinline, the number of times its body ran (SYMBOL as
 * nm prints it: mangled in C++), and "checksum X" of all it computed.
 * Each such function increments its own counter first, atomically where
 * threads may call it, so the program counts its calls whatever the
 * compiler made of them; functions not marked noinline (small ones that
 * GCC inlines into some callers, static inline ones, always_inline
 * wrappers) count nothing, and only their out-of-line calls are
 * compared, between builds.  Arithmetic is unsigned, so every build
 * computes the same checksum.
 *
 * Features (each chosen by the seed): static, global, hidden and weak
 * functions (a weak one sometimes overridden in another unit); small
 * global functions inlined into some callers and not others, through
 * always_inline wrappers and static inline ones; C inline (C++ COMDAT)
 * functions; tail calls and switches of tail calls; bounded recursion,
 * mutual recursion across units; tables of function pointers and a
 * function that calls a pointer it is given; qsort and bsearch
 * callbacks; setjmp/longjmp across three frames; signal handlers
 * (raise(), so synchronous) that call counted functions; a callee that
 * faults (SIGSEGV) or raises a signal whose handler siglongjmps out of
 * it, in a straight run of calls; getshort, issue 35's case: a global
 * function its own unit inlines as a tail call of a switch (and into a
 * noinline function whose address is taken), that another unit calls
 * 1,000 times; threads, each doing a fixed share of work; in C++ exceptions thrown through three frames (a destructor
 * on the way calls a counted function), virtual functions, function
 * and class templates.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAXUNITS	6
#define MAXFNS		512
#define MAXCOUNTED	1024
#define MAXDRIVERS	64

/* A growing string: a unit's text, the header's. */
struct buf {
	char	*s;
	size_t	 len, cap;
};

static void
bput(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
bput(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL,
		    b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0)
			abort();
		if (b->s && b->len + (size_t)n < b->cap)
			break;
		b->cap = (b->cap + (size_t)n + 1) * 2;
		if ((b->s = realloc(b->s, b->cap)) == NULL) {
			perror("gencalls");
			exit(1);
		}
	}
	b->len += (size_t)n;
}

/* ---------------------------------------------------------------- choices */

/*
 * splitmix64: one 64-bit state, every seed a different stream, and no
 * dependence on the C library's rand(), so a seed writes the same
 * program on every machine.
 */
static uint64_t rng;

static uint64_t
rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned
pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

static int
chance(unsigned percent)
{
	return pick(100) < percent;
}

/* A constant for the arithmetic, odd so that products keep their bits. */
static unsigned long
konst(void)
{
	return (unsigned long)(rnd() % 100000) * 2 + 3;
}

enum level { L_O0, L_O1, L_O2, L_O3, L_OS, L_LTO, L_PIC, L_PIE, L_NOPIE,
	L_STATIC, NLEVELS };

static const char *const level_name[NLEVELS] = {
	"O0", "O1", "O2", "O3", "Os", "lto", "pic", "pie", "nopie", "static"
};
static const char *const level_opt[NLEVELS] = {
	"-O0", "-O1", "-O2", "-O3", "-Os", "-O2 -flto", "-O2 -fPIC",
	"-O2 -fPIE -pie", "-O2 -no-pie", "-O2 -static"
};

enum feat { F_LINK, F_INLINE, F_COMDAT, F_TAIL, F_GETSHORT, F_REC, F_TABLE,
	F_LIBC, F_SETJMP, F_SIGNAL, F_FAULT, F_EXC, F_VIRT, F_TMPL, NFEATS };

static const char *const feat_name[NFEATS] = {
	"link", "inline", "comdat", "tail", "getshort", "rec", "table",
	"libc", "setjmp", "signal", "fault", "exc", "virt", "tmpl"
};

/* ---------------------------------------------------------------- program */

enum link { LK_STATIC, LK_GLOBAL, LK_HIDDEN, LK_WEAK };

/*
 * The C library's headers a unit includes: only those its code needs,
 * as parsing them is a good part of compiling a small unit in C++.
 */
enum { INC_STDIO = 1, INC_STDLIB = 2, INC_STRING = 4, INC_SETJMP = 8,
	INC_SIGNAL = 16, INC_PTHREAD = 32, NINCS = 6 };

static const char *const inc_name[NINCS] = {
	"stdio.h", "stdlib.h", "string.h", "setjmp.h", "signal.h", "pthread.h"
};

struct unit {
	struct buf	decl;	/* its static functions' declarations */
	struct buf	body;
	int		lib;	/* in libgen.so (level pic) */
	unsigned	inc;	/* INC_* */
};

/* A counted function: noinline, its own counter c_NAME. */
struct fn {
	char		 name[32];
	int		 unit;
	enum link	 link;
	int		 atomic;	/* threads may call it */
	int		 noclone;
	char		 ret[8];	/* "u64" */
	char		 params[64];	/* "u64 x" */
	char		 mparams[32];	/* the parameters' Itanium mangling */
};

/* A line of main's report: the symbol and the counter that counts it. */
struct counted {
	char	sym[96];
	char	var[48];
};

/* A feature's entry point, which main (and maybe threads) call. */
struct driver {
	char	name[32];
	int	reps;
	int	threaded;
};

static int cxx;
static enum level level;
static int nunits;
static struct unit units[MAXUNITS];
static struct buf hdr;		/* gen.h */
static struct fn fns[MAXFNS];
static int nfns;
static struct counted counted[MAXCOUNTED];
static int ncounted;
static struct driver drivers[MAXDRIVERS];
static int ndrivers;
static int uses[NFEATS];
static int threads;		/* threads that run the threaded drivers */
static int uid;			/* fresh names */

/* Which object holds a unit: 0 the executable, 1 libgen.so. */
static int
dso(int unit)
{
	return units[unit].lib;
}

static int
pick_unit(void)
{
	return (int)pick((unsigned)nunits);
}

/* A unit other than u where there is one. */
static int
other_unit(int u)
{
	int v;

	if (nunits == 1)
		return u;
	while ((v = pick_unit()) == u)
		;
	return v;
}

/* Whether code of unit from may call f directly (and link). */
static int
can_call(int from, const struct fn *f)
{
	switch (f->link) {
	case LK_STATIC:
		return f->unit == from;
	case LK_HIDDEN:
		return dso(f->unit) == dso(from);
	default:
		return 1;
	}
}

/* Widen f's linkage so that unit from may call it. */
static void
make_callable(struct fn *f, int from)
{
	if (!can_call(from, f))
		f->link = LK_GLOBAL;
}

static enum link
pick_link(void)
{
	unsigned r = pick(100);

	return r < 35 ? LK_STATIC : r < 70 ? LK_GLOBAL : r < 85 ? LK_HIDDEN :
	    LK_WEAK;
}

/* Give f another signature: C's, and its parameters' C++ mangling. */
static void
fn_sig(struct fn *f, const char *ret, const char *params, const char *mparams)
{
	snprintf(f->ret, sizeof(f->ret), "%s", ret);
	snprintf(f->params, sizeof(f->params), "%s", params);
	snprintf(f->mparams, sizeof(f->mparams), "%s", mparams);
}

static struct fn *
fn_new(const char *prefix, int unit, enum link link, int atomic)
{
	struct fn *f;

	if (nfns == MAXFNS) {
		fprintf(stderr, "gencalls: too many functions\n");
		exit(1);
	}
	f = &fns[nfns++];
	snprintf(f->name, sizeof(f->name), "%s%d", prefix, uid++);
	f->unit = unit;
	f->link = link;
	f->atomic = atomic;
	f->noclone = chance(30);
	fn_sig(f, "u64", "u64 x", "m");
	return f;
}

/* The symbol of a free function: its name in C, its mangling in C++. */
static void
sym_of(char *out, size_t n, const char *name, int local, const char *mparams)
{
	if (cxx)
		snprintf(out, n, "_Z%s%zu%s%s", local ? "L" : "", strlen(name),
		    name, mparams);
	else
		snprintf(out, n, "%s", name);
}

static void
count_line(const char *sym, const char *var)
{
	if (ncounted == MAXCOUNTED) {
		fprintf(stderr, "gencalls: too many counted functions\n");
		exit(1);
	}
	snprintf(counted[ncounted].sym, sizeof(counted[0].sym), "%s", sym);
	snprintf(counted[ncounted].var, sizeof(counted[0].var), "%s", var);
	ncounted++;
}

/* The statement that counts a call of a function whose counter is var. */
static const char *
cnt(int atomic)
{
	return atomic ? "ACNT" : "CNT";
}

/*
 * Begin f's definition in its unit: its counter (defined there), its
 * declaration (in gen.h, or the unit's own for a static one), its
 * head and the count.  The caller writes the rest of the body and
 * fn_close.  weak_override: f is the strong definition that overrides
 * a weak one of another unit (the same name and counter).
 */
static struct buf *
fn_open_as(struct fn *f, int weak_override)
{
	struct unit *u = &units[f->unit];
	const char *attr = f->noclone ? "NOINLC" : "NOINL";
	const char *vis = "";
	char sym[96], var[48];

	if (!weak_override) {
		snprintf(var, sizeof(var), "c_%s", f->name);
		bput(&hdr, "extern u64 %s;\n", var);
		bput(&u->body, "u64 %s;\n", var);
		sym_of(sym, sizeof(sym), f->name, f->link == LK_STATIC,
		    f->mparams);
		count_line(sym, var);
	}
	switch (f->link) {
	case LK_STATIC:
		bput(&u->decl, "static %s %s(%s);\n", f->ret, f->name,
		    f->params);
		vis = "static ";
		break;
	case LK_HIDDEN:
		if (!weak_override)
			bput(&hdr, "HIDDEN %s %s(%s);\n", f->ret, f->name,
			    f->params);
		vis = "HIDDEN ";
		break;
	case LK_WEAK:
		if (!weak_override)
			bput(&hdr, "%s %s(%s);\n", f->ret, f->name, f->params);
		vis = weak_override ? "" : "WEAK ";
		break;
	case LK_GLOBAL:
		if (!weak_override)
			bput(&hdr, "%s %s(%s);\n", f->ret, f->name, f->params);
		break;
	}
	bput(&u->body, "%s%s %s\n%s(%s)\n{\n\t%s(c_%s);\n", vis, attr, f->ret,
	    f->name, f->params, cnt(f->atomic), f->name);
	return &u->body;
}

static struct buf *
fn_open(struct fn *f)
{
	return fn_open_as(f, 0);
}

static void
fn_close(struct buf *b)
{
	bput(b, "}\n\n");
}

static void
add_driver(struct fn *d, int reps, int threadable)
{
	struct driver *dr = &drivers[ndrivers++];

	snprintf(dr->name, sizeof(dr->name), "%s", d->name);
	dr->reps = reps;
	dr->threaded = threadable && d->atomic;
}

/* A driver: a counted function that main can call, in unit u. */
static struct fn *
driver_new(int unit, int atomic)
{
	return fn_new("d", unit,
	    dso(unit) == 0 && chance(30) ? LK_HIDDEN : LK_GLOBAL, atomic);
}

/* Whether this feature's functions may run in threads (and count so). */
static int
threaded(int threadable)
{
	return threads && threadable && chance(60);
}

/*
 * One call of f, as a statement of a body whose value is x: plain, in a
 * branch, or in a short loop.  A straight run of plain calls is what
 * -p counts as one group.
 */
static void
call_stmt(struct buf *b, const struct fn *f)
{
	switch (pick(4)) {
	case 0:
	case 1:
		bput(b, "\tx += %s(x ^ %luUL);\n", f->name, konst());
		break;
	case 2:
		bput(b, "\tif ((x & 3) == %u)\n\t\tx ^= %s(x + %lu);\n",
		    pick(4), f->name, konst());
		break;
	default:
		bput(b, "\tfor (int i = 0; i < 2; i++)\n\t\tx += %s(x + i);\n",
		    f->name);
		break;
	}
}

/*
 * The body of driver d: a call of each of the n callers, in turn; then
 * d is main's, repeated 1 + pick(reps) times (after the body, as the
 * seeds' programs were written).
 */
static void
drive_all(struct fn *d, struct fn **callers, int n, unsigned reps)
{
	struct buf *b = fn_open(d);
	int i;

	for (i = 0; i < n; i++)
		call_stmt(b, callers[i]);
	bput(b, "\treturn x;\n");
	fn_close(b);
	add_driver(d, 1 + (int)pick(reps), 1);
}

static void
mix(struct buf *b)
{
	bput(b, "\tx = x * %luUL + %luUL;\n", konst(), konst());
}

/* ---------------------------------------------------------------- features */

/*
 * link: a small graph of static, global, hidden and weak functions, each
 * calling up to two of those after it; a weak one is sometimes
 * overridden by a strong definition in another unit.
 */
static void
feat_link(void)
{
	int atomic = threaded(1), n = 3 + (int)pick(4), i, j, k;
	struct fn *f[8], *callees[8][2], *d;
	int ncallees[8], called[8] = { 0 }, dcall[8];
	struct buf *b;

	d = driver_new(pick_unit(), atomic);
	for (i = n - 1; i >= 0; i--) {
		f[i] = fn_new("f", pick_unit(), pick_link(), atomic);
		ncallees[i] = 0;
		for (k = (int)pick(3); k > 0 && i + 1 < n; k--) {
			j = i + 1 + (int)pick((unsigned)(n - i - 1));
			make_callable(f[j], f[i]->unit);
			callees[i][ncallees[i]++] = f[j];
			called[j] = 1;
		}
	}
	/* What the driver calls, widened before any declaration is written. */
	for (i = 0; i < n; i++)
		if ((dcall[i] = !called[i] || chance(30)))
			make_callable(f[i], d->unit);
	for (i = 0; i < n; i++) {
		b = fn_open(f[i]);
		mix(b);
		for (k = 0; k < ncallees[i]; k++) {
			if (k == ncallees[i] - 1 && chance(30)) {
				bput(b, "\treturn %s(x ^ %luUL);\n",
				    callees[i][k]->name, konst());
				goto closed;
			}
			call_stmt(b, callees[i][k]);
		}
		bput(b, "\treturn x ^ (x >> %u);\n", 1 + pick(30));
closed:
		fn_close(b);
		if (f[i]->link == LK_WEAK && nunits > 1 && chance(40)) {
			struct fn o = *f[i];

			o.unit = other_unit(f[i]->unit);
			b = fn_open_as(&o, 1);
			bput(b, "\treturn x * %luUL + 1;\n", konst());
			fn_close(b);
		}
	}
	b = fn_open(d);
	for (i = 0; i < n; i++)
		if (dcall[i])
			call_stmt(b, f[i]);
	bput(b, "\treturn x;\n");
	fn_close(b);
	add_driver(d, 1 + (int)pick(40), 1);
}

/*
 * inline: a small global function that GCC inlines into some callers
 * (of its unit, or all of them with -flto) and calls out of line from
 * others, directly, through an always_inline wrapper and through a
 * static inline function (out of line per unit at -O0).
 */
static void
feat_inline(void)
{
	int atomic = threaded(1), a = pick_unit(), n = 2 + (int)pick(4), i;
	int id = uid++;
	int hidden = chance(30);
	struct fn *callers[6], *d;
	struct buf *b;
	char sm[32];

	snprintf(sm, sizeof(sm), "sm%d", id);
	bput(&hdr, "%su64 %s(u64 x);\n", hidden ? "HIDDEN " : "", sm);
	/* Tiny, a little larger, or loads from a table: GCC's heuristics
	 * inline each at different levels, early or in IPA. */
	bput(&units[a].body, "%su64\n%s(u64 x)\n{\n", hidden ? "HIDDEN " : "",
	    sm);
	switch (pick(3)) {
	case 0:
		bput(&units[a].body, "\treturn x ^ %luUL;\n", konst());
		break;
	case 1:
		bput(&units[a].body, "\treturn (x ^ %luUL) * %luUL + (x >> %u);\n",
		    konst(), konst(), 1 + pick(20));
		break;
	default:
		bput(&units[a].body, "\tstatic const unsigned char t[16] = {");
		for (i = 0; i < 16; i++)
			bput(&units[a].body, "%s%u", i ? ", " : " ", pick(256));
		bput(&units[a].body, " };\n\n\treturn (u64)t[x & 15] << 8 | "
		    "t[(x >> 4) & 15];\n");
		break;
	}
	bput(&units[a].body, "}\n\n");
	bput(&hdr, "static inline AINL u64 aw%d(u64 x)\n{\n\treturn %s(x + "
	    "%lu) ^ %luUL;\n}\n", id, sm, konst(), konst());
	bput(&hdr, "static inline u64 si%d(u64 x)\n{\n\tu64 r = x;\n\n\t"
	    "for (int i = 0; i < %u; i++)\n\t\tr = r * 3 + (r >> 7) + "
	    "(u64)i;\n\treturn r ^ %s(r);\n}\n", id, 2 + pick(6), sm);
	d = driver_new(pick_unit(), atomic);
	for (i = 0; i < n; i++) {
		int u = i == 0 ? a : i == 1 ? other_unit(a) : pick_unit();

		/* Hidden: only its own object calls it. */
		if (hidden && dso(u) != dso(a))
			u = a;
		callers[i] = fn_new("c", u, pick_link(), atomic);
		make_callable(callers[i], d->unit);
		b = fn_open(callers[i]);
		switch (pick(4)) {
		case 0:
			bput(b, "\tx += %s(x);\n", sm);
			break;
		case 1:
			bput(b, "\tx ^= aw%d(x);\n\tx += %s(x >> 1);\n", id, sm);
			break;
		case 2:
			bput(b, "\tx += si%d(x);\n", id);
			break;
		default:
			bput(b, "\tfor (int i = 0; i < 3; i++)\n\t\tx += "
			    "%s(x + (u64)i);\n", sm);
			break;
		}
		if (chance(30))
			bput(b, "\treturn %s(x);\n", sm);
		else
			bput(b, "\treturn x;\n");
		fn_close(b);
	}
	drive_all(d, callers, n, 60);
}

/*
 * comdat: in C an inline function of gen.h with its external
 * definition in one unit (C99 inline), one of them noinline and
 * counted; in C++ the same functions are COMDAT, emitted by every unit
 * that calls them out of line, one copy kept by the link (one per
 * object at level pic).
 */
static void
feat_comdat(void)
{
	int atomic = threaded(1), e = pick_unit(), n = 2 + (int)pick(3), i;
	int id = uid++;
	struct fn *callers[5], *d;
	struct buf *b;
	char sym[96], name[32], var[48];

	bput(&hdr, "inline u64 il%d(u64 x)\n{\n\treturn (x >> 1) * %luUL + "
	    "(x & 7);\n}\n", id, konst());
	bput(&hdr, "extern u64 c_ic%d;\ninline NOINL u64 ic%d(u64 x)\n{\n\t"
	    "%s(c_ic%d);\n\treturn (x * %luUL) ^ (x >> 4);\n}\n", id, id,
	    cnt(atomic), id, konst());
	bput(&units[e].body, "u64 c_ic%d;\n", id);
	if (!cxx)
		bput(&units[e].body, "extern inline u64 il%d(u64 x);\n"
		    "extern inline u64 ic%d(u64 x);\n", id, id);
	snprintf(name, sizeof(name), "ic%d", id);
	snprintf(var, sizeof(var), "c_ic%d", id);
	sym_of(sym, sizeof(sym), name, 0, "m");
	count_line(sym, var);
	d = driver_new(pick_unit(), atomic);
	for (i = 0; i < n; i++) {
		callers[i] = fn_new("c", pick_unit(), pick_link(), atomic);
		make_callable(callers[i], d->unit);
		b = fn_open(callers[i]);
		bput(b, "\tx += il%d(x);\n\tx ^= ic%d(x);\n", id, id);
		if (chance(50))
			bput(b, "\tx += il%d(x >> 2) + ic%d(x + 1);\n", id, id);
		bput(b, "\treturn x;\n");
		fn_close(b);
	}
	drive_all(d, callers, n, 40);
}

/*
 * tail: a chain of functions that end in tail calls, some in the arms
 * of a switch, some in a branch beside a call that is not one.
 */
static void
feat_tail(void)
{
	int atomic = threaded(1), n = 3 + (int)pick(3), i;
	struct fn *t[6], *d;
	struct buf *b;

	for (i = 0; i < n; i++)
		t[i] = fn_new("t", pick_unit(), pick_link(), atomic);
	/* Widen before any definition: each declaration is written once. */
	for (i = 0; i + 1 < n; i++) {
		make_callable(t[i + 1], t[i]->unit);
		if (i + 2 < n)
			make_callable(t[i + 2], t[i]->unit);
	}
	d = driver_new(pick_unit(), atomic);
	make_callable(t[0], d->unit);
	for (i = 0; i < n; i++) {
		b = fn_open(t[i]);
		mix(b);
		if (i + 1 == n) {
			bput(b, "\treturn x ^ %luUL;\n", konst());
		} else if (i + 2 < n && chance(50)) {
			bput(b, "\tswitch (x %% 3) {\n\tcase 0:\n\t\treturn "
			    "%s(x + 1);\n\tcase 1:\n\t\treturn %s(x >> 1);\n"
			    "\tdefault:\n\t\tbreak;\n\t}\n\treturn x ^ %luUL;\n",
			    t[i + 1]->name, t[i + 2]->name, konst());
		} else if (chance(50)) {
			bput(b, "\tif (x & 1)\n\t\treturn %s(x + 3);\n\t"
			    "x += %s(x);\n\treturn x;\n", t[i + 1]->name,
			    t[i + 1]->name);
		} else {
			bput(b, "\treturn %s(x ^ %luUL);\n", t[i + 1]->name,
			    konst());
		}
		fn_close(b);
	}
	b = fn_open(d);
	bput(b, "\tx += %s(x);\n\treturn %s(x + 1);\n", t[0]->name, t[0]->name);
	fn_close(b);
	add_driver(d, 1 + (int)pick(80), 1);
}

/*
 * getshort, issue 35's minimal case: a.c's global getshort, which reads
 * two bytes through a pointer, is inlined as the tail call of a switch
 * of a.c (and twice into a noinline function of a.c whose address is
 * taken, which changes the order GCC compiles a.c in), and b.c calls it
 * 1,000 times.  Not counted by the program (its inlined calls are not
 * entries): the builds must agree on its out-of-line calls.
 */
static void
feat_getshort(void)
{
	int atomic = threaded(1), a = pick_unit(), bu = other_unit(a);
	int id = uid++, fp = 0;
	struct fn *gsd, *tw = NULL, *other, *d;
	struct buf *b;
	static const char bytes[] = "\tunsigned char b[4] = { (unsigned char)x, "
	    "(unsigned char)(x >> 8), (unsigned char)(x >> 16),\n\t    "
	    "(unsigned char)(x >> 24) };\n\n";

	bput(&hdr, "u64 getshort%d(const unsigned char *p);\n", id);
	bput(&units[a].body, "u64\ngetshort%d(const unsigned char *p)\n{\n\t"
	    "return (u64)(p[0] << 8 | p[1]);\n}\n\n", id);
	other = fn_new("o", a, LK_STATIC, atomic);
	b = fn_open(other);
	bput(b, "\treturn x * %luUL;\n", konst());
	fn_close(b);
	if (chance(70)) {
		tw = fn_new("tw", a, chance(50) ? LK_STATIC : LK_GLOBAL, atomic);
		b = fn_open(tw);
		bput(b, "%s\treturn getshort%d(b) + getshort%d(b + 2) * 3;\n",
		    bytes, id, id);
		fn_close(b);
		if ((fp = chance(50))) {
			bput(&hdr, "extern u64 (*gsp%d)(u64);\n", id);
			bput(&units[a].body, "u64 (*gsp%d)(u64) = %s;\n\n", id,
			    tw->name);
		}
	}
	gsd = fn_new("sw", a, LK_GLOBAL, atomic);
	b = fn_open(gsd);
	bput(b, "%s\tswitch (x & 3) {\n\tcase 0:\n\t\treturn getshort%d(b);\n"
	    "\tcase 1:\n\t\treturn %s(x + 1);\n\tcase 2:\n\t\treturn "
	    "getshort%d(b + 1);\n\tdefault:\n", bytes, id, other->name, id);
	if (tw != NULL)
		bput(b, "\t\treturn %s(x);\n\t}\n", tw->name);
	else
		bput(b, "\t\treturn x ^ %luUL;\n\t}\n", konst());
	fn_close(b);
	d = driver_new(bu, atomic);
	b = fn_open(d);
	bput(b, "\tunsigned char b[64];\n\n\tfor (int i = 0; i < 64; i++)\n\t\t"
	    "b[i] = (unsigned char)(x + (u64)i * 7);\n\tfor (u64 i = 0; i < "
	    "1000; i++)\n\t\tx += getshort%d(b + (i & 31));\n\tfor (u64 i = 0; "
	    "i < %u; i++)\n\t\tx ^= %s(x + i);\n", id, 4 + pick(20), gsd->name);
	if (fp)
		bput(b, "\tx += gsp%d(x);\n", id);
	bput(b, "\treturn x;\n");
	fn_close(b);
	add_driver(d, 1 + (int)pick(3), 1);
}

/*
 * rec: bounded recursion that GCC cannot turn into a loop (no self tail
 * call, no accumulator), twice per level on odd depths; and mutual
 * recursion across two units, through a tail call or not.
 */
static void
feat_rec(void)
{
	int atomic = threaded(1);
	struct fn *r, *ev, *od, *d;
	struct buf *b;

	d = driver_new(pick_unit(), atomic);
	r = fn_new("r", pick_unit(), pick_link(), atomic);
	fn_sig(r, "u64", "u64 x, int d", "mi");
	ev = fn_new("ev", pick_unit(), pick_link(), atomic);
	fn_sig(ev, "u64", "u64 x, int d", "mi");
	od = fn_new("od", other_unit(ev->unit), pick_link(), atomic);
	fn_sig(od, "u64", "u64 x, int d", "mi");
	make_callable(r, d->unit);
	make_callable(ev, d->unit);
	make_callable(od, ev->unit);
	make_callable(ev, od->unit);
	b = fn_open(r);
	bput(b, "\tif (d <= 0)\n\t\treturn x ^ %luUL;\n\tu64 a = %s(x * 3 + 1, "
	    "d - 1);\n", konst(), r->name);
	if (chance(60))
		bput(b, "\tif (d & 1)\n\t\ta ^= %s(x + 7, d - 2);\n", r->name);
	bput(b, "\treturn (a ^ (a >> 5)) * %luUL + x;\n", konst());
	fn_close(b);
	b = fn_open(ev);
	if (chance(50))
		bput(b, "\tif (d <= 0)\n\t\treturn x;\n\treturn %s(x + 1, d - 1);"
		    "\n", od->name);
	else
		bput(b, "\tif (d <= 0)\n\t\treturn x;\n\treturn %s(x + 1, d - 1) "
		    "^ %luUL;\n", od->name, konst());
	fn_close(b);
	b = fn_open(od);
	bput(b, "\tif (d <= 0)\n\t\treturn x * 3;\n\tu64 r = %s(x ^ %luUL, d - 1);"
	    "\n\treturn r + (r >> 3);\n", ev->name, konst());
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tx += %s(x, (int)(x & 3) + %u);\n\tx ^= %s(x, (int)(x & 7) + "
	    "1);\n\treturn x;\n", r->name, 2 + pick(4), ev->name);
	fn_close(b);
	add_driver(d, 1 + (int)pick(20), 1);
}

/*
 * table: calls through a table of function pointers (static and
 * const in its unit, or global and read by another unit), and through a
 * pointer passed to a function of another unit.
 */
static void
feat_table(void)
{
	int atomic = threaded(1), t = pick_unit(), n = 3 + (int)pick(3), i;
	int id = uid++, global = chance(50);
	struct fn *tg[6], *ap, *d;
	struct buf *b;

	d = driver_new(global ? pick_unit() : t, atomic);
	ap = fn_new("ap", pick_unit(), pick_link(), atomic);
	fn_sig(ap, "u64", "u64 (*fp)(u64), u64 x", "PFmmEm");
	make_callable(ap, d->unit);
	for (i = 0; i < n; i++) {
		tg[i] = fn_new("p", pick_unit(), pick_link(), atomic);
		make_callable(tg[i], t);
		b = fn_open(tg[i]);
		mix(b);
		bput(b, "\treturn x ^ (x >> %u);\n", 1 + pick(30));
		fn_close(b);
	}
	b = &units[t].body;
	if (global) {
		bput(&hdr, "extern u64 (*tab%d[%d])(u64);\n", id, n);
		bput(b, "u64 (*tab%d[%d])(u64) = {", id, n);
	} else {
		bput(b, "static u64 (*const tab%d[%d])(u64) = {", id, n);
	}
	for (i = 0; i < n; i++)
		bput(b, "%s %s", i ? "," : "", tg[i]->name);
	bput(b, " };\n\n");
	b = fn_open(ap);
	bput(b, "\treturn fp(x) ^ fp(x + 1);\n");
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tfor (int i = 0; i < %u; i++)\n\t\tx += tab%d[(x + (u64)i) "
	    "%% %d](x);\n\tx ^= %s(tab%d[x %% %d], x);\n\treturn x;\n",
	    2 + pick(5), id, n, ap->name, id, n);
	fn_close(b);
	add_driver(d, 1 + (int)pick(40), 1);
}

/* libc: qsort and bsearch call counted comparators. */
static void
feat_libc(void)
{
	int atomic = threaded(1), u = pick_unit();
	struct fn *cmp, *bc, *d;
	struct buf *b;
	unsigned n = 8 + pick(40), m = 20 + pick(200);

	units[u].inc |= INC_STDLIB;
	d = driver_new(u, atomic);
	cmp = fn_new("cmp", u, chance(50) ? LK_STATIC : LK_GLOBAL, atomic);
	bc = fn_new("bcmp", u, chance(50) ? LK_STATIC : LK_GLOBAL, atomic);
	fn_sig(cmp, "int", "const void *a, const void *b", "PKvS0_");
	fn_sig(bc, "int", "const void *a, const void *b", "PKvS0_");
	b = fn_open(cmp);
	bput(b, "\tu64 p = *(const u64 *)a, q = *(const u64 *)b;\n\n\t"
	    "return (p > q) - (p < q);\n");
	fn_close(b);
	b = fn_open(bc);
	bput(b, "\tu64 p = *(const u64 *)a, q = *(const u64 *)b;\n\n\t"
	    "return (p > q) - (p < q);\n");
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tu64 a[%u], s = x;\n\n\tfor (int i = 0; i < %u; i++) {\n\t\t"
	    "s = s * 6364136223846793005UL + 1442695040888963407UL;\n\t\t"
	    "a[i] = (s >> 33) %% %u;\n\t}\n\tqsort(a, %u, sizeof(a[0]), %s);\n"
	    "\tfor (u64 i = 0; i < 4; i++) {\n\t\tu64 k = (i & 1) ? a[(x + i) "
	    "%% %u] : (x + i) %% %u;\n\t\tconst u64 *p = (const u64 *)bsearch("
	    "&k, a, %u, sizeof(a[0]), %s);\n\n\t\tx = x * 31 + (p ? *p : 7);\n"
	    "\t}\n\treturn x + a[0];\n", n, n, m, n, cmp->name, n, m, n,
	    bc->name);
	fn_close(b);
	add_driver(d, 1 + (int)pick(20), 1);
}

/*
 * setjmp: a longjmp from three frames down; the frame between calls a
 * function after the call that may not return (a group cut short).
 */
static void
feat_setjmp(void)
{
	int id = uid++;
	struct fn *a, *bb, *c, *aft, *d;
	struct buf *b;

	d = driver_new(pick_unit(), 0);
	a = fn_new("sa", pick_unit(), pick_link(), 0);
	bb = fn_new("sb", pick_unit(), pick_link(), 0);
	c = fn_new("sc", pick_unit(), pick_link(), 0);
	aft = fn_new("sf", bb->unit, chance(60) ? LK_STATIC : LK_GLOBAL, 0);
	make_callable(a, d->unit);
	make_callable(bb, a->unit);
	make_callable(c, bb->unit);
	bput(&units[d->unit].body, "jmp_buf sjb%d;\n", id);
	if (c->unit != d->unit)
		bput(&units[c->unit].decl, "extern jmp_buf sjb%d;\n", id);
	units[d->unit].inc |= INC_SETJMP;
	units[c->unit].inc |= INC_SETJMP;
	b = fn_open(c);
	bput(b, "\tif (x %% 3 == %u)\n\t\tlongjmp(sjb%d, 1);\n\treturn x * "
	    "%luUL + 1;\n", pick(3), id, konst());
	fn_close(b);
	b = fn_open(aft);
	bput(b, "\treturn x ^ %luUL;\n", konst());
	fn_close(b);
	b = fn_open(bb);
	bput(b, "\tx = %s(x ^ %luUL);\n\tx += %s(x);\n\treturn x;\n", c->name,
	    konst(), aft->name);
	fn_close(b);
	b = fn_open(a);
	bput(b, "\tx += %s(x + 1);\n\treturn x ^ %luUL;\n", bb->name, konst());
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tvolatile u64 acc = x;\n\tvolatile int i;\n\n\tfor (i = 0; "
	    "i < %u; i++) {\n\t\tif (setjmp(sjb%d) == 0)\n\t\t\tacc += %s(acc "
	    "+ (u64)i);\n\t\telse\n\t\t\tacc ^= %luUL;\n\t}\n\treturn acc;\n",
	    2 + pick(10), id, a->name, konst());
	fn_close(b);
	add_driver(d, 1 + (int)pick(20), 0);
}

/*
 * signal: a handler, run by raise() (synchronously, so the counts do
 * not depend on timing), that calls a counted function the driver
 * calls too.
 */
static void
feat_signal(void)
{
	int id = uid++, u = pick_unit();
	const char *sig = chance(50) ? "SIGUSR1" : "SIGUSR2";
	struct fn *h, *hs, *d;
	struct buf *b;

	units[u].inc |= INC_SIGNAL;
	d = driver_new(u, 0);
	h = fn_new("sh", u, chance(70) ? LK_STATIC : LK_GLOBAL, 0);
	fn_sig(h, "void", "int sig", "i");
	hs = fn_new("hs", pick_unit(), pick_link(), 0);
	make_callable(hs, u);
	bput(&hdr, "extern volatile u64 sacc%d;\n", id);
	bput(&units[u].body, "volatile u64 sacc%d;\n", id);
	b = fn_open(hs);
	mix(b);
	bput(b, "\treturn x;\n");
	fn_close(b);
	b = fn_open(h);
	bput(b, "\tsacc%d += %s(sacc%d + (u64)sig);\n", id, hs->name, id);
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tsignal(%s, %s);\n\tfor (int i = 0; i < %u; i++) {\n\t\t"
	    "x += %s(x);\n\t\tif ((x >> 2) & 1)\n\t\t\traise(%s);\n\t}\n\t"
	    "signal(%s, SIG_DFL);\n\treturn x ^ sacc%d;\n", sig, h->name,
	    2 + pick(10), hs->name, sig, sig, id);
	fn_close(b);
	add_driver(d, 1 + (int)pick(20), 0);
}

/*
 * fault: the first callee of a straight run of calls faults (SIGSEGV,
 * through a null pointer the compiler cannot see) or raises a signal,
 * and the handler siglongjmps out of it: the calls after it never
 * happen.  The callees are the caller's unit's, static or global, so
 * that -p counts them as one group.
 */
static void
feat_fault(void)
{
	int id = uid++, u = pick_unit(), segv = chance(60);
	const char *sig = segv ? "SIGSEGV" : "SIGUSR2";
	struct fn *h, *flt, *aft, *g, *d;
	struct buf *b = &units[u].body;

	d = driver_new(u, 0);
	bput(b, "static sigjmp_buf fjb%d;\nint *volatile fptr%d;\n\n", id, id);
	units[u].inc |= INC_SETJMP | INC_SIGNAL | INC_STRING;
	h = fn_new("fh", u, LK_STATIC, 0);
	fn_sig(h, "void", "int sig", "i");
	flt = fn_new("fl", u, chance(60) ? LK_STATIC : LK_GLOBAL, 0);
	aft = fn_new("fa", u, chance(60) ? LK_STATIC : LK_GLOBAL, 0);
	g = fn_new("fg", u, chance(50) ? LK_STATIC : LK_GLOBAL, 0);
	b = fn_open(h);
	bput(b, "\tsiglongjmp(fjb%d, sig);\n", id);
	fn_close(b);
	b = fn_open(flt);
	if (segv)
		bput(b, "\tif (x %% 4 == 1)\n\t\t*fptr%d = (int)x;\n", id);
	else
		bput(b, "\tif (x %% 4 == 1)\n\t\traise(SIGUSR2);\n");
	bput(b, "\treturn x * 3 + 1;\n");
	fn_close(b);
	b = fn_open(aft);
	bput(b, "\treturn x ^ %luUL;\n", konst());
	fn_close(b);
	b = fn_open(g);
	bput(b, "\tx += %s(x);\n\tx ^= %s(x);\n\tx += %s(x >> 1);\n\treturn x;\n",
	    flt->name, aft->name, aft->name);
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tstruct sigaction sa, old;\n\tvolatile u64 acc = x;\n\t"
	    "volatile int i;\n\n\tmemset(&sa, 0, sizeof(sa));\n\t"
	    "sa.sa_handler = %s;\n\tsigemptyset(&sa.sa_mask);\n\t"
	    "sigaction(%s, &sa, &old);\n\tfor (i = 0; i < %u; i++) {\n\t\t"
	    "if (sigsetjmp(fjb%d, 1) == 0)\n\t\t\tacc += %s(acc + (u64)i);\n"
	    "\t\telse\n\t\t\tacc ^= %luUL;\n\t}\n\tsigaction(%s, &old, 0);\n\t"
	    "return acc;\n", h->name, sig, 3 + pick(12), id, g->name, konst(),
	    sig);
	fn_close(b);
	add_driver(d, 1 + (int)pick(10), 0);
}

/*
 * exc (C++): an exception thrown three frames down, through a frame
 * whose local's destructor calls a counted function (and, sometimes,
 * a catch that rethrows), caught by the driver.
 */
static void
feat_exc(void)
{
	int atomic = threaded(1), id = uid++;
	struct fn *a, *bb, *c, *gd, *d;
	struct buf *b;

	d = driver_new(pick_unit(), atomic);
	a = fn_new("xa", pick_unit(), pick_link(), atomic);
	bb = fn_new("xb", pick_unit(), pick_link(), atomic);
	c = fn_new("xc", pick_unit(), pick_link(), atomic);
	gd = fn_new("xg", pick_unit(), pick_link(), atomic);
	make_callable(a, d->unit);
	make_callable(bb, a->unit);
	make_callable(c, bb->unit);
	make_callable(gd, bb->unit);
	bput(&hdr, "struct Guard%d {\n\tu64 v;\n\t~Guard%d();\n};\n", id, id);
	b = fn_open(c);
	bput(b, "\tif (x %% 3 == %u)\n\t\tthrow GenErr{x};\n\treturn x * %luUL "
	    "+ 1;\n", pick(3), konst());
	fn_close(b);
	b = fn_open(gd);
	bput(b, "\treturn x ^ %luUL;\n", konst());
	fn_close(b);
	b = &units[bb->unit].body;
	bput(b, "Guard%d::~Guard%d()\n{\n\t(void)%s(v);\n}\n\n", id, id,
	    gd->name);
	b = fn_open(bb);
	bput(b, "\tGuard%d g{x};\n\n", id);
	if (chance(40))
		bput(b, "\ttry {\n\t\tx = %s(x ^ %luUL);\n\t} catch (const "
		    "GenErr &) {\n\t\t(void)%s(x);\n\t\tthrow;\n\t}\n", c->name,
		    konst(), gd->name);
	else
		bput(b, "\tx = %s(x ^ %luUL);\n", c->name, konst());
	bput(b, "\tx += %s(x);\n\treturn x;\n", gd->name);
	fn_close(b);
	b = fn_open(a);
	bput(b, "\tx += %s(x + 1);\n\treturn x ^ %luUL;\n", bb->name, konst());
	fn_close(b);
	b = fn_open(d);
	bput(b, "\tfor (u64 i = 0; i < %u; i++) {\n\t\ttry {\n\t\t\tx += %s(x + "
	    "i);\n\t\t} catch (const GenErr &e) {\n\t\t\tx ^= e.v;\n\t\t}\n\t}"
	    "\n\treturn x;\n", 2 + pick(10), a->name);
	fn_close(b);
	add_driver(d, 1 + (int)pick(20), 1);
}

/* A counted member function: its counter and report line. */
static struct buf *
method_open(const char *cls, const char *m, int unit, int atomic)
{
	struct buf *b = &units[unit].body;
	char sym[96], var[48];

	snprintf(var, sizeof(var), "c_%s_%s", cls, m);
	bput(&hdr, "extern u64 %s;\n", var);
	bput(b, "u64 %s;\n", var);
	snprintf(sym, sizeof(sym), "_ZN%zu%s%zu%sEm", strlen(cls), cls,
	    strlen(m), m);
	count_line(sym, var);
	bput(b, "%s u64\n%s::%s(u64 x)\n{\n\t%s(%s);\n",
	    chance(30) ? "NOINLC" : "NOINL", cls, m, cnt(atomic), var);
	return b;
}

/*
 * virt (C++): a base class and two derived ones, called through base
 * pointers in a loop and by a function of another unit.
 */
static void
feat_virt(void)
{
	int atomic = threaded(1), id = uid++;
	char vb[16], vx[16], vy[16], params[64], mparams[32];
	struct fn *vc, *d;
	struct buf *b;

	snprintf(vb, sizeof(vb), "VB%d", id);
	snprintf(vx, sizeof(vx), "VX%d", id);
	snprintf(vy, sizeof(vy), "VY%d", id);
	bput(&hdr, "struct %s {\n\tvirtual u64 f(u64 x);\n\tvirtual u64 g(u64 "
	    "x) { return x + %luUL; }\n\tvirtual ~%s() {}\n};\n", vb, konst(),
	    vb);
	bput(&hdr, "struct %s : %s {\n\tu64 f(u64 x) override;\n};\n", vx, vb);
	bput(&hdr, "struct %s : %s {\n\tu64 f(u64 x) override;\n\tu64 g(u64 x) "
	    "override;\n};\n", vy, vb);
	b = method_open(vb, "f", pick_unit(), atomic);
	bput(b, "\treturn x * %luUL;\n}\n\n", konst());
	b = method_open(vx, "f", pick_unit(), atomic);
	bput(b, "\treturn (x ^ %luUL) + 1;\n}\n\n", konst());
	b = method_open(vy, "f", pick_unit(), atomic);
	bput(b, "\treturn x + (x >> %u);\n}\n\n", 1 + pick(20));
	b = method_open(vy, "g", pick_unit(), atomic);
	bput(b, "\treturn x * 7 + %luUL;\n}\n\n", konst());
	d = driver_new(pick_unit(), atomic);
	vc = fn_new("vc", pick_unit(), pick_link(), atomic);
	make_callable(vc, d->unit);
	snprintf(params, sizeof(params), "%s *p, u64 x", vb);
	snprintf(mparams, sizeof(mparams), "P%zu%sm", strlen(vb), vb);
	fn_sig(vc, "u64", params, mparams);
	b = fn_open(vc);
	bput(b, "\treturn p->f(x) + p->g(x >> 1);\n");
	fn_close(b);
	b = fn_open(d);
	bput(b, "\t%s b;\n\t%s cx;\n\t%s cy;\n\t%s *o[3] = { &b, &cx, &cy };\n\n"
	    "\tfor (u64 i = 0; i < %u; i++) {\n\t\tx += o[(x + i) %% 3]->f(x);\n"
	    "\t\tx ^= o[i %% 3]->g(x);\n\t}\n\treturn x + %s(&cy, x);\n", vb,
	    vx, vy, vb, 2 + pick(10), vc->name);
	fn_close(b);
	add_driver(d, 1 + (int)pick(30), 1);
}

/*
 * tmpl (C++): a function template and a class template's member, both
 * noinline, instantiated for K = 0, 1, 2 by callers in several units
 * (COMDAT: one copy kept by the link, one per object at level pic).
 */
static void
feat_tmpl(void)
{
	int atomic = threaded(1), id = uid++, n = 2 + (int)pick(3), i, k;
	char name[32], sym[96], var[48];
	struct fn *callers[5], *d;
	struct buf *b;

	bput(&hdr, "extern u64 c_tp%d[3], c_tb%d[3];\n", id, id);
	bput(&hdr, "template<int K> NOINL u64 tp%d(u64 x)\n{\n\t%s(c_tp%d[K]);"
	    "\n\treturn (x ^ (K + %luUL)) * 3;\n}\n", id, cnt(atomic), id,
	    konst());
	bput(&hdr, "template<int K> struct TB%d {\n\tu64 s;\n\tNOINL u64 "
	    "get(u64 x)\n\t{\n\t\t%s(c_tb%d[K]);\n\t\treturn x + s * (K + 1);"
	    "\n\t}\n};\n", id, cnt(atomic), id);
	bput(&units[pick_unit()].body, "u64 c_tp%d[3], c_tb%d[3];\n", id, id);
	for (k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "tp%d", id);
		snprintf(sym, sizeof(sym), "_Z%zu%sILi%dEEmm", strlen(name),
		    name, k);
		snprintf(var, sizeof(var), "c_tp%d[%d]", id, k);
		count_line(sym, var);
		snprintf(name, sizeof(name), "TB%d", id);
		snprintf(sym, sizeof(sym), "_ZN%zu%sILi%dEE3getEm",
		    strlen(name), name, k);
		snprintf(var, sizeof(var), "c_tb%d[%d]", id, k);
		count_line(sym, var);
	}
	d = driver_new(pick_unit(), atomic);
	for (i = 0; i < n; i++) {
		callers[i] = fn_new("c", pick_unit(), pick_link(), atomic);
		make_callable(callers[i], d->unit);
		b = fn_open(callers[i]);
		bput(b, "\tx += tp%d<%u>(x);\n\t{\n\t\tTB%d<%u> t{x & 7};\n\n\t\t"
		    "x ^= t.get(x);\n\t}\n", id, pick(3), id, pick(3));
		if (chance(50))
			bput(b, "\treturn tp%d<%u>(x + 1);\n", id, pick(3));
		else
			bput(b, "\treturn x;\n");
		fn_close(b);
	}
	drive_all(d, callers, n, 40);
}

static void (*const feat_fn[NFEATS])(void) = {
	feat_link, feat_inline, feat_comdat, feat_tail, feat_getshort,
	feat_rec, feat_table, feat_libc, feat_setjmp, feat_signal, feat_fault,
	feat_exc, feat_virt, feat_tmpl
};

/* ---------------------------------------------------------------- main */

/*
 * main's unit: each driver called reps times, then the threads (each
 * calling the threaded drivers a fixed number of times, its result in
 * a slot of its own, summed in order), then the report.
 */
static void
emit_main(void)
{
	struct buf *b = &units[0].body;
	struct fn *thr = NULL;
	int i, nthreaded = 0;

	for (i = 0; i < ndrivers; i++)
		nthreaded += drivers[i].threaded;
	if (nthreaded == 0)
		threads = 0;
	units[0].inc |= INC_STDIO | (threads ? INC_PTHREAD : 0);
	if (threads) {
		bput(b, "static u64 thr_res[%d];\n\n", threads);
		thr = fn_new("thr", 0, LK_STATIC, 1);
		fn_sig(thr, "void *", "void *arg", "Pv");
		b = fn_open(thr);
		bput(b, "\tu64 id = (u64)arg, s = id * 7919;\n\n\t"
		    "for (u64 r = 0; r < %u; r++) {\n", 2 + pick(20));
		for (i = 0; i < ndrivers; i++)
			if (drivers[i].threaded)
				bput(b, "\t\ts = s * 31 + %s(s + r);\n",
				    drivers[i].name);
		bput(b, "\t}\n\tthr_res[id] = s;\n\treturn 0;\n");
		fn_close(b);
	}
	bput(b, "int\nmain(void)\n{\n\tu64 sum = 0;\n\n");
	for (i = 0; i < ndrivers; i++)
		bput(b, "\tfor (u64 i = 0; i < %d; i++)\n\t\tsum = sum * 1000003 "
		    "+ %s(i * %luUL + %luUL);\n", drivers[i].reps,
		    drivers[i].name, konst(), konst());
	if (threads)
		bput(b, "\n\tpthread_t th[%d];\n\n\tfor (int i = 0; i < %d; "
		    "i++)\n\t\tif (pthread_create(&th[i], 0, %s, (void *)"
		    "(u64)i) != 0) {\n\t\t\tfprintf(stderr, "
		    "\"pthread_create failed\\n\");\n\t\t\treturn 1;\n\t\t}\n\t"
		    "for (int i = 0; i < %d; i++) {\n\t\tpthread_join(th[i], 0);"
		    "\n\t\tsum = sum * 131 + thr_res[i];\n\t}\n", threads, threads,
		    thr->name, threads);
	bput(b, "\n");
	for (i = 0; i < ncounted; i++)
		bput(b, "\tprintf(\"count %s %%lu\\n\", (unsigned long)%s);\n",
		    counted[i].sym, counted[i].var);
	bput(b, "\tprintf(\"checksum %%lu\\n\", (unsigned long)sum);\n\t"
	    "return 0;\n}\n");
}

/* Write DIR/NAME (mode "w") or add to it ("a"): the strings a, b, c. */
static void
put_file(const char *mode, const char *dir, const char *name, const char *a,
    const char *b, const char *c)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, mode)) == NULL ||
	    fputs(a, f) < 0 || fputs(b ? b : "", f) < 0 ||
	    fputs(c ? c : "", f) < 0 || fclose(f) != 0) {
		fprintf(stderr, "gencalls: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void
write_file(const char *dir, const char *name, const char *a, const char *b,
    const char *c)
{
	put_file("w", dir, name, a, b, c);
}

static void
append_file(const char *dir, const char *name, const char *a, const char *b)
{
	put_file("a", dir, name, a, b, NULL);
}

static const char hdr_head[] =
    "#ifndef GEN_H\n#define GEN_H\n"
    "/* inline and noinline at once (a counted COMDAT function) is meant. */\n"
    "#pragma GCC diagnostic ignored \"-Wattributes\"\n\n"
    "typedef unsigned long u64;\n\n"
    "#define NOINL __attribute__((noinline))\n"
    "#define NOINLC __attribute__((noinline, noclone))\n"
    "#define AINL __attribute__((always_inline))\n"
    "#define HIDDEN __attribute__((visibility(\"hidden\")))\n"
    "#define WEAK __attribute__((weak))\n"
    "/* A counted function's count: plain, or atomic where threads run it. */\n"
    "#define CNT(c) ((c)++)\n"
    "#define ACNT(c) __atomic_fetch_add(&(c), 1, __ATOMIC_RELAXED)\n\n";

int
main(int argc, char **argv)
{
	const char *ext, *dir;
	unsigned long long seed;
	char *end, name[64], head[128];
	struct buf args = { 0 }, feats = { 0 }, exe = { 0 }, lib = { 0 };
	int i, k, n, nlib = 0;

	if (argc != 3 || (seed = strtoull(argv[1], &end, 10), *end) ||
	    !*argv[1]) {
		fprintf(stderr, "usage: gencalls SEED DIR\n");
		return 2;
	}
	dir = argv[2];
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		fprintf(stderr, "gencalls: %s: %s\n", dir, strerror(errno));
		return 1;
	}
	rng = seed;
	cxx = chance(35);
	level = (enum level)pick(NLEVELS);
	nunits = 2 + (int)pick(MAXUNITS - 2);
	if (level == L_PIC) {
		for (i = 1; i < nunits; i++)
			nlib += units[i].lib = chance(60);
		if (nlib == 0)
			units[1 + pick((unsigned)nunits - 1)].lib = 1;
	}
	threads = chance(35) ? 2 + (int)pick(3) : 0;
	bput(&feats, "%s %s", cxx ? "c++" : "c", level_name[level]);
	if (cxx)
		bput(&hdr, "struct GenErr {\n\tu64 v;\n};\n");
	for (k = 0; k < NFEATS; k++) {
		if (!cxx && k >= F_EXC)
			continue;
		n = chance(55) ? 1 + chance(30) : 0;
		if (k == F_LINK && n == 0)
			n = 1;
		uses[k] = n;
		for (i = 0; i < n; i++)
			feat_fn[k]();
	}
	emit_main();
	for (k = 0; k < NFEATS; k++)
		if (uses[k])
			bput(&feats, " %s", feat_name[k]);
	if (threads)
		bput(&feats, " threads");

	snprintf(head, sizeof(head), "/* Generated by gencalls %llu. */\n",
	    seed);
	ext = cxx ? "cc" : "c";
	for (i = 0; i < nunits; i++) {
		if (i == 0)
			snprintf(name, sizeof(name), "main.%s", ext);
		else
			snprintf(name, sizeof(name), "u%d.%s", i, ext);
		bput(units[i].lib ? &lib : &exe, "%s%s", (units[i].lib ?
		    lib.len : exe.len) ? " " : "", name);
		/* Its static functions' declarations, then the bodies. */
		bput(&units[i].decl, "%s", "");
		bput(&units[i].body, "%s", "");
		write_file(dir, name, head, NULL, NULL);
		for (k = 0; k < NINCS; k++)
			if (units[i].inc & 1U << k)
				put_file("a", dir, name, "#include <",
				    inc_name[k], ">\n");
		append_file(dir, name, "#include \"gen.h\"\n\n", units[i].decl.s);
		append_file(dir, name, "\n", units[i].body.s);
	}
	bput(&hdr, "%s", "");
	write_file(dir, "gen.h", head, hdr_head, hdr.s);
	append_file(dir, "gen.h", "\n#endif\n", NULL);

	/* Extras beside the level, each a little more of GCC's space. */
	bput(&args, "# Generated by gencalls %llu: how to build it.\n", seed);
	bput(&args, "lang=%s\nlevel=%s\nopt='%s", cxx ? "c++" : "c",
	    level_name[level], level_opt[level]);
	if (level == L_NOPIE && chance(50))
		bput(&args, " -fno-PIE");
	if (level == L_PIC && chance(30))
		bput(&args, " -fno-semantic-interposition");
	/* Inlining by IPA (inline clones) rather than early. */
	if (level != L_O0 && chance(15))
		bput(&args, " -fno-early-inlining");
	if (level != L_O0 && chance(10))
		bput(&args, " -fno-inline-small-functions");
	if (chance(30))
		bput(&args, " -g");
	if (chance(10))
		bput(&args, " -fcf-protection=full");
	bput(&args, "'\n");
	bput(&args, "exe_srcs='%s'\nlib_srcs='%s'\nlibs='-pthread'\n"
	    "features='%s'\n", exe.s, lib.s ? lib.s : "", feats.s);
	write_file(dir, "build.args", args.s, NULL, NULL);
	return 0;
}
