/* SPDX-License-Identifier: MIT */
/*
 * prof.h - declarations shared by prof's modules: opening operands
 * (file.c, mdata.c), the readers (monread.c, monobj.c and monstacks.c
 * for mon.out, gmonread.c for gmon.out, elfread.c for ELF), the symbol
 * table (symgroup.c, symtab.c) and its source lines (srcline.c, inlines.c
 * for inlined calls), the report (report.c, callstacks.c; rows.c and
 * names.c for every output), and the outputs: print.c, lines.c (-L),
 * annotate.c (-A), callgraph.c (-pg's arcs; propagate.c their
 * estimates), graphview.c (-G), export.c (--format), pprof.c,
 * callgrind.c, flame.c (the flame graph) and flamefile.c (--flame).
 */
#ifndef PROF_H
#define PROF_H

#include <sys/stat.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "mon.h"

/* runtime/match.c: how -O and PROFFLAGS -incobj read an object's name. */
int		 __mon_match_object(const char *, const char *);

#define PROF_VERSION	"1.0"

/* Format a problem into ebuf and return it: the modules' error result. */
static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
    __attribute__((__format__(__printf__, 3, 4)));

static inline const char *
prof_errf(char *ebuf, size_t esz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ebuf, esz, fmt, ap);
	va_end(ap);
	return ebuf;
}

/*
 * Room for NEED elements of SIZE bytes at *PP, an array of *CAP that
 * doubles: 0, or -1 out of memory.
 */
static inline int
prof_grow(void *pp, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((p = reallocarray(*(void **)pp, n, size)) == NULL)
		return -1;
	*(void **)pp = p;
	*cap = n;
	return 0;
}

/* ---------------------------------------------------------------- file */

int		 file_open(const char *, struct stat *, const char **);
int		 file_sparse(const struct stat *, uint64_t);
int		 file_read(const char *, size_t, char **, size_t *,
		    const char **);

/* ---------------------------------------------------------------- mdata */

struct monobj;

/* A list of strings (operands, file names), each malloc'd. */
struct flist {
	char	**v;
	size_t	 n, cap;
};

void		 mdata_add(struct flist *, const char *);
void		 progress_begin(size_t);
void		 progress_step(void);
void		 progress_clear(void);
void		 progress_end(void);
void		 mdata_expand(struct flist *, const char *, const char *);
char		*mdata_program(const struct flist *, const struct flist *,
		    const char *);
void		 mdata_objects(struct monobj **, size_t *, const struct flist *);
char		*mdata_gmon(const char *);

/* ---------------------------------------------------------------- monread */

/* Bits of monfile.has: which metadata keys the file carried. */
#define MONREAD_HAS(key)	(1u << (key))

/* A shared object's executable mapping in the run (MON_META_OBJECT). */
struct monobj {
	uint64_t	 start, end;	/* run-time addresses */
	uint64_t	 offset;	/* file offset mapped at start */
	long		 buildid;	/* first 8 bytes, 0: not recorded */
	long		 samples;	/* in the mapping (version 2) */
	int		 named;		/* has cells or samples by pc */
	const char	*path;
};

/* Samples outside [lpc, hpc) at one place (MON_META_*_SAMPLE). */
struct monsample {
	uint64_t	 pc;		/* link-time, or offset in obj's mapping */
	long		 n;
	long		 obj;		/* index into monfile.obj, -1: executable */
};

/*
 * A sampled stack's frame: a node of the tree of a file's stacks, whose
 * parent (an index + 1 into monfile.frame, 0: none) is the frame that
 * called it; depth 1 is a root.
 */
struct monframe {
	uint64_t	 pc;		/* as the cells' addresses */
	uint32_t	 parent;
	uint32_t	 depth;
};

/* A sampled stack: its innermost frame (index + 1), its samples. */
struct monstack {
	uint32_t	 node;
	uint32_t	 depth;
	long		 samples;
};

/* The deepest stack prof reads (the runtime keeps MON_STACK_DEPTH). */
#define MONSTACKS_DEPTH	255

/* A record's mapping, for the search by address. */
struct monrange {
	uint64_t	 start, end;
	size_t		 obj;		/* index into monfile.obj */
};

/* A stretch of the file in memory, whole cells and whole bins. */
struct monpart {
	uint64_t		 off;
	size_t			 len;
	const unsigned char	*p;
};

/*
 * One mon.out, validated.  What it holds on disk is read (parts, in
 * file order); a hole of a sparse file is zeros, which count nothing,
 * so it is never read, and monread_compact() lets go of the zeros that
 * were.  Cells and bins may be unaligned (the fuzzer hands us any
 * buffer): visit them with monread_cells() and monread_bins().
 */
struct monfile {
	const char		*path;
	uint64_t		 size;		/* bytes, holes too */
	uint64_t		 lpc, hpc;
	size_t			 nfns;		/* cells in the file, metadata too */
	size_t			 nmeta;		/* of which metadata */
	size_t			 nunused;	/* of those, fnpc 0: reserved */
	size_t			 nbins;
	long			 meta[MON_META_NKEYS];	/* value by key */
	uint32_t		 has;		/* MONREAD_HAS(key) bits */
	char			*exepath;	/* the executable, NUL-ended */
	size_t			 exelen;
	struct monsample	*sample;	/* file order */
	size_t			 nsample;
	struct monobj		*obj;		/* shared objects, file order */
	struct monrange		*byaddr;	/* obj's mappings, by start */
	size_t			 nobj;
	struct monstack		*stack;		/* file order */
	size_t			 nstack;
	struct monframe		*frame;
	size_t			 nframe;
	struct monpart		*part;
	size_t			 npart;
	unsigned char		*data;		/* the parts' bytes, or NULL */
	char			*paths;		/* the objects' paths */
};

/* Cells (16 bytes each) or bins (2) first to first + n - 1, at p. */
struct monrun {
	size_t			 first, n;
	const unsigned char	*p;
};

const char	*monread_parse(struct monfile *, const void *, size_t, char *,
		    size_t);
const char	*monread_load(struct monfile *, const char *, char *, size_t);
void		 monread_open(struct monfile *, const char *);
void		 monread_close(struct monfile *);
int		 monread_compact(struct monfile *);
int		 monread_cells(const struct monfile *, size_t *,
		    struct monrun *);
int		 monread_bins(const struct monfile *, size_t *, struct monrun *);

static inline void
monrun_cell(const struct monrun *r, size_t i, uint64_t *pc, long *count)
{
	struct cnt c;

	memcpy(&c, r->p + i * sizeof(c), sizeof(c));
	*pc = (uint64_t)(uintptr_t)c.fnpc;
	*count = c.mcnt;
}

static inline unsigned
monrun_bin(const struct monrun *r, size_t i)
{
	WORD w;

	memcpy(&w, r->p + i * sizeof(w), sizeof(w));
	return w;
}

/* ---------------------------------------------------------------- monobj */

/* Shared-object records being read, a metadata cell at a time: zeroed. */
struct monobjread {
	int		 state;
	size_t		 objcap;	/* of monfile.obj */
	size_t		*pathoff;	/* each path's offset in monfile.paths */
	size_t		 offcap;
	size_t		 pathlen, pathcap;
	size_t		 path0;		/* where this record's path begins */
	size_t		 samplecap;	/* of monfile.sample */
	int		 isbad;
	size_t		 bad;		/* the cell that made it bad */
};

int		 monobj_cell(struct monfile *, struct monobjread *, size_t,
		    uint64_t, long);
void		 monobj_gap(struct monobjread *, size_t);
const char	*monobj_done(struct monfile *, struct monobjread *,
		    const char *, char *, size_t);
long		 monobj_at(const struct monfile *, uint64_t);

/* ---------------------------------------------------------------- monstacks */

/* Stacks being read, a metadata cell at a time: zeroed. */
struct monstacksread {
	size_t		 stackcap, framecap;
	uint32_t	 last;		/* the last stack's innermost node */
	uint32_t	 depth;		/* and its depth */
};

const char	*monstacks_cell(struct monfile *, struct monstacksread *,
		    size_t, uint64_t, long, char *, size_t);
size_t		 monstacks_frames(const struct monfile *, size_t, uint64_t *);

/* ---------------------------------------------------------------- gmonread */

/* A call-graph arc of a gmon.out: a return address in the caller. */
struct gmonarc {
	uint64_t	 from, self;	/* link-time pcs */
	uint64_t	 count;
};

struct gmonfile {
	const char	*path;
	struct gmonarc	*arc;		/* file order, repeats too */
	size_t		 narc;
	size_t		 nhist;		/* histogram records */
	uint64_t	 lpc, hpc;	/* the first one's range */
	size_t		 nbins;		/* and bins */
};

const char	*gmonread_parse(struct gmonfile *, const void *, size_t,
		    char *, size_t);
const char	*gmonread_load(struct gmonfile *, const char *, char *,
		    size_t);
void		 gmonread_close(struct gmonfile *);

/* ---------------------------------------------------------------- elfread */

#define ELFREAD_EXEC	0
#define ELFREAD_OBJECT	1

/* A function symbol as read; symgroup.c makes entries of them. */
struct rawsym {
	uint64_t	 addr, size;
	uint64_t	 secend;	/* end of its section */
	const char	*name;
	int		 bind;
};

/* A PT_LOAD segment: file bytes [offset, offset + filesz) at vaddr. */
struct elfload {
	uint64_t	 offset, filesz, vaddr;
	size_t		 idx;		/* in the program headers */
};

const char	*elfread_begin(int, int, Elf **, char *, size_t);
const char	*elfread_syms(Elf *, uint64_t, struct rawsym **, size_t *,
		    size_t *, char *, size_t);
const char	*elfread_loads(Elf *, struct elfload **, size_t *);
int		 elfread_buildid(Elf *, unsigned char[8]);
int		 elfread_note_buildid(Elf *, const unsigned char **, size_t *);

/* ---------------------------------------------------------------- symtab */

/* One name of an entry; bind is STB_GLOBAL, STB_WEAK or STB_LOCAL. */
struct symname {
	const char	*name;
	long		 ent;		/* the entry it names */
	int		 bind;
	int		 print;		/* shown on the entry's line */
};

/*
 * One address of the executable's text: every function symbol at that
 * address, with the range of text whose time it collects.  row is the
 * entry whose report line receives this entry's time (itself, the
 * preceding shown entry for a hidden local, the parent of a .cold part,
 * or -1); calls is the same for call counts (-1: dropped).
 */
struct symentry {
	uint64_t	 addr;
	uint64_t	 size;		/* for cells: sym < pc <= sym + size */
	uint64_t	 end;		/* time region: [addr, end) */
	size_t		 name0, nnames;	/* into symtab.names */
	long		 row, calls;
	int		 shown;		/* names a report line */
};

/*
 * A shared object whose functions joined the table, at base + their
 * link-time addresses; object k is at SYMTAB_OBJECT_BASE * (k + 1), so
 * there is room for SYMTAB_OBJECT_MAX of them.
 */
#define SYMTAB_OBJECT_BASE	((uint64_t)1 << 48)
#define SYMTAB_OBJECT_MAX	((size_t)0xfffe)

/*
 * Above every object: one entry per object, <name>, that collects the
 * time of its code in no named function (or all of it, for an object
 * whose functions are not profiled by name); the first is the
 * executable's.
 */
#define SYMTAB_ROW_BASE		(SYMTAB_OBJECT_BASE * 0xffff)

struct symobj {
	char		*path;
	int		 fd;
	Elf		*elf;
	long		 buildid;	/* as recorded, 0: none */
	uint64_t	 base;
	struct elfload	*load;		/* its PT_LOADs, by file offset */
	size_t		 nload;
};

struct symtab {
	const char	*path;
	int		 fd;
	Elf		*elf;
	struct symentry	*ent;
	size_t		 nent;
	struct symname	*names;
	size_t		 nnames;
	size_t		 nsyms;		/* symbols in the table read */
	size_t		 nshown;	/* entries that name a report line */
	int		 has_buildid;
	unsigned char	 buildid[8];
	struct symobj	*obj;		/* by path, build-id */
	size_t		 nobj;
	size_t		*objat;		/* obj's index by base */
	char		**rowpath;	/* each object row's object, by name */
	char		**rowname;	/* and its entry's name */
	size_t		 nrow;
	uint32_t	*bucket;	/* lookup index, see symtab.c */
	size_t		 nbucket;
	unsigned	 bshift;
};

/* symgroup.c: symbols at one address into one entry, and the rules. */
const char	*symgroup_build(struct symtab *, struct rawsym *, size_t, int,
		    char *, size_t);

const char	*symtab_load(struct symtab *, const char *,
		    const struct monobj *, size_t, int, char *, size_t);
void		 symtab_open(struct symtab *, const char *,
		    const struct monobj *, size_t, int);
const struct symobj *symtab_object(const struct symtab *, const char *,
		    long);
uint64_t	 symtab_object_addr(const struct symobj *, uint64_t);
const struct symobj *symtab_object_at(const struct symtab *, uint64_t);
void		 symtab_close(struct symtab *);
long		 symtab_lookup(const struct symtab *, uint64_t);
long		 symtab_region(const struct symtab *, uint64_t);
long		 symtab_object_row(const struct symtab *, const char *);
const char	*symtab_entry_object(const struct symtab *, long);
long		 symtab_function(const struct symtab *, uint64_t);

/* ---------------------------------------------------------------- callstacks */

/* A frame of a sampled stack: the table's address and its row. */
struct csframe {
	uint64_t	 addr;		/* 0: in an object not loaded */
	long		 row;		/* entry, or REPORT_UNKNOWN */
};

/* A distinct stack: frame[off .. off + depth), root first. */
struct csstack {
	size_t		 off, depth;
	uint64_t	 hash;
	long		 samples;
	double		 secs;
};

struct callstacks {
	const struct symtab	*st;
	struct csframe		*frame;
	size_t			 nframe, framecap;
	struct csstack		*stack;
	size_t			 nstack, stackcap;
	size_t			*slot;		/* stack index + 1 by hash */
	size_t			 nslot;
	double			*incl;		/* per row: inclusive seconds */
	char			*hidden;	/* per row: the runtime's? */
	size_t			*stamp;		/* per row: last stack + 1 */
	long			 samples;	/* in stacks */
	double			 secs;
	long			 lost;		/* samples whose stack the
						   runtime had no room for */
	int			 has;		/* a profile had stacks */
};

void		 callstacks_init(struct callstacks *, const struct symtab *);
const char	*callstacks_add(struct callstacks *, const struct monfile *,
		    double, char *, size_t);
void		 callstacks_done(struct callstacks *, const double *);
void		 callstacks_free(struct callstacks *);

/* ---------------------------------------------------------------- report */

struct prof_opts {
	int		 sort;		/* 't', 'c', 'a' or 'n' */
	int		 addr;		/* 0, 'o' or 'x' */
	int		 locals;	/* -g, the default; 0: -l */
	int		 zero;		/* -z */
	int		 noheader;	/* -h */
	int		 summary;	/* -s */
	int		 demangle;	/* -C */
	int		 unit;		/* -u: per call in 0 (ms), 'u' or 'n' */
	int		 format;	/* --format: 0 (table), 'c' CSV, 'j' JSON */
	int		 lines;		/* -L */
	const char	*annotate;	/* -A FUNC */
	int		 graph;		/* -G */
	int		 inclusive;	/* -i: the inclusive column */
	const char	*gmon;		/* --gmon=FILE */
	const char	*pprof;		/* --pprof=FILE */
	const char	*callgrind;	/* --callgrind=FILE */
	const char	*flame;		/* --flame=FILE */
	const char	*object;	/* -O NAME: only its functions */
};

/* report.secs[] and ncalls[] past the entries: what no function covers. */
#define REPORT_UNKNOWN(st)	((long)(st)->nent)
#define REPORT_UNKNOWN_NAME	"<unknown>"

/*
 * Told of each share of a bin given to a function: [LO, HI) of entry
 * K's time region (K's row gets SECS), so that the lines can be split
 * the same way (lines.c).
 */
typedef void	 report_piece_fn(void *, long, uint64_t, uint64_t, double);

struct report {
	const struct symtab	*st;
	double			*secs;		/* per entry, rows only */
	long			*ncalls;
	double			*objsamples;	/* per object row: its samples */
	double			 total;		/* seconds in all bins */
	double			 inside, outside;	/* ticks */
	size_t			 nfiles, nfns, nmeta, cells_used;
	size_t			 nunused;	/* cells reserved, never used */
	size_t			 cells_dropped, cells_unmapped;
	long			 saturated, lost, outrange;
	double			 rate;		/* of the first file */
	int			 rate_recorded;
	uint64_t		 scale;		/* classic sf, first file */
	uint64_t		 lpc, hpc;
	size_t			 nbins;
	report_piece_fn		*piece;		/* NULL, or told of shares */
	void			*piece_arg;
	struct callstacks	 stacks;	/* the sampled stacks */
};

void		 report_init(struct report *, const struct symtab *);
const char	*report_add(struct report *, const struct monfile *, char *,
		    size_t);
void		 report_done(struct report *);
void		 report_free(struct report *);

/* ---------------------------------------------------------------- srcline */

/* Bytes [lo, hi) of entry ent, compiled from file:line (file NULL: none). */
struct srcrange {
	uint64_t	 lo, hi;
	long		 ent;
	const char	*file;
	int		 line;
};

/* Every entry's time region, cut by source line, in address order. */
struct srclines {
	struct srcrange	*r;
	size_t		 n;
	int		 has;		/* any line table at all */
	/* Per object, 0 the executable (NULL: no DWARF); names live there. */
	struct Dwarf	**dw;
	size_t		 ndw;
};

/* A line table's row: [lo, hi) compiled from file:line. */
struct srcraw {
	uint64_t	 lo, hi;
	const char	*file;
	int		 line;
};

const char	*srclines_load(struct srclines *, const struct symtab *,
		    char *, size_t);
const char	*srclines_build(struct srclines *, const struct symtab *,
		    struct srcraw *, size_t, char *, size_t);
void		 srclines_close(struct srclines *);
long		 srclines_at(const struct srclines *, uint64_t);

/* ---------------------------------------------------------------- inlines */

/* A function inlined at an address, and the address's place in it. */
struct inlframe {
	const char	*name;		/* NULL: the symbol's function */
	const char	*linkage;	/* its symbol's name, or NULL */
	const char	*file;
	int		 line;
	int		 decl;		/* its first line in file, or 0 */
};

/* The functions with code in the DWARF of srclines, by address. */
struct inlines {
	const struct srclines	*sl;
	struct inlfunc		*fn;
	size_t			 n;
};

int		 inlines_open(struct inlines *, const struct srclines *,
		    const struct symtab *);
long		 inlines_at(const struct inlines *, uint64_t,
		    struct inlframe **);
void		 inlines_close(struct inlines *);

/* ---------------------------------------------------------------- lines */

/* A row of -L: a report row's time and calls at one source line. */
struct linerow {
	long		 row;		/* entry, or REPORT_UNKNOWN */
	const char	*file;		/* NULL: no line information */
	int		 line;
	uint64_t	 addr;		/* its lowest address */
	double		 secs;
	long		 calls;		/* at the function's entry line */
};

struct lines {
	const struct symtab	*st;
	struct srclines		 sl;
	double			*secs;		/* per range of sl */
	struct linerow		*rows;		/* after lines_collect() */
	size_t			 n;
};

void		 lines_open(struct lines *, const struct symtab *);
void		 lines_attach(struct lines *, struct report *);
void		 lines_collect(struct lines *, const struct report *);
void		 lines_check(const struct lines *);
void		 lines_close(struct lines *);
char		**lines_names(const struct symtab *, const struct prof_opts *);
void		 lines_names_free(const struct symtab *, char **);
struct linerow	*lines_selected(const struct lines *, const struct prof_opts *,
		    char **, size_t *);
void		 lines_print(const struct lines *, const struct report *,
		    const struct prof_opts *, FILE *);
const char	*lines_base(const char *);
int		 lines_where(char *, size_t, const char *, int);

/* ---------------------------------------------------------------- annotate */

void		 annotate_print(const struct lines *, const struct report *,
		    const struct prof_opts *, FILE *);

/* ---------------------------------------------------------------- callgraph */

/* A call site's arc, as the report names its ends. */
struct cgarc {
	long		 caller;	/* row, or REPORT_UNKNOWN */
	long		 callee;	/* calls row, or REPORT_UNKNOWN */
	uint64_t	 from;		/* the return address */
	long		 count;
};

struct callgraph {
	const struct symtab	*st;
	struct cgarc		*arc;	/* by callee, call site */
	size_t			 n, cap;
	size_t			 nfiles;
};

void		 callgraph_init(struct callgraph *, const struct symtab *);
int		 callgraph_add(struct callgraph *, const struct gmonfile *);
const char	*callgraph_done(struct callgraph *, const struct report *,
		    char *, size_t);
size_t		 callgraph_first(const struct callgraph *, long);
int		 callgraph_load(struct callgraph *, const struct report *,
		    const struct flist *, const struct flist *, int);
void		 callgraph_free(struct callgraph *);

/* ---------------------------------------------------------------- graphview */

void		 graphview_print(const struct callgraph *,
		    const struct report *, const struct prof_opts *, FILE *);
void		 graphview_export(const struct callgraph *,
		    const struct report *, const struct prof_opts *, FILE *);

/* ---------------------------------------------------------------- propagate */

double		*propagate(const struct callgraph *, const double *);

/* ---------------------------------------------------------------- callgrind */

void		 callgrind_write(const char *, const struct report *,
		    const struct lines *, const struct callgraph *);

/* ---------------------------------------------------------------- pprof */

void		 pprof_write(const char *, const struct report *,
		    const struct lines *, const struct callgraph *);

/* ---------------------------------------------------------------- flame */

/* One sampled stack for the flame graph: names root first. */
struct flamestack {
	const char *const	*name;	/* name[0]: main or its caller */
	size_t			 depth;
	double			 value;	/* seconds */
};

int		 flame_svg(FILE *, const char *, const struct flamestack *,
		    size_t);
void		 flame_write(const char *, const struct report *,
		    const char *);

/* ---------------------------------------------------------------- names */

char		*names_demangle(const char *);
const char	*names_first(const struct symtab *, long);
char		*names_row(const struct symtab *, long, int);
void		 names_put(FILE *, const char *);
char		*names_text(const char *);

/* ---------------------------------------------------------------- rows */

/* A report line and its sort keys. */
struct row {
	long		 k;		/* entry, or REPORT_UNKNOWN */
	double		 secs;
	double		 incl;		/* inclusive seconds, 0: no stacks */
	long		 calls;
	const char	*name;
};

int		(*rows_cmp(int))(const void *, const void *);
struct row	*rows_get(const struct report *, const struct prof_opts *,
		    size_t *);

/* ---------------------------------------------------------------- export */

enum { XVAL_NULL, XVAL_STR, XVAL_NUM, XVAL_INT };

/* One value of an exported row. */
struct xval {
	int		 kind;		/* XVAL_* */
	const char	*s;
	double		 d;
	long		 l;
};

struct export {
	FILE			*fp;
	int			 format;	/* 'c' or 'j' */
	const char *const	*cols;
	size_t			 ncols, nrows;
};

void		 export_begin(struct export *, FILE *, int,
		    const struct report *, const char *const *, size_t);
void		 export_row(struct export *, const struct xval *);
void		 export_end(struct export *);
void		 export_flat(const struct report *, const struct prof_opts *,
		    FILE *);
void		 export_lines(const struct lines *, const struct report *,
		    const struct prof_opts *, FILE *);

/* ---------------------------------------------------------------- print */

/* -o/-x: a shared object's function shows its address in the object. */
#define PRINT_ADDR(a)	((a) % SYMTAB_OBJECT_BASE)

void		 print_report(const struct report *, const struct prof_opts *,
		    FILE *);
void		 print_summary(const struct report *, const struct prof_opts *,
		    FILE *);

#endif /* PROF_H */
