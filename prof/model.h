/* SPDX-License-Identifier: MIT */
/*
 * model.h - prof's model layer: one profile model, built once from the
 * inputs (input.h) by model.c in the order main.c asks, then read by
 * every view (views.h), which never reads a file.  The symbol table
 * (symgroup.c, symtab.c), its source lines (srcline.c; inlines.c for
 * inlined calls), the rows and their names (rows.c), the sampled stacks
 * (callstacks.c), the report (report.c), its lines (lines.c), -pg's arcs
 * (callgraph.c; propagate.c their estimates), and where the inputs come
 * from: the profiles (profiles.c), their gmon.out (gmons.c), -A's
 * source files (sources.c).
 */
#ifndef PROF_MODEL_H
#define PROF_MODEL_H

#include "input.h"

/* ---------------------------------------------------------------- options */

/* What the command line asks for: what the model holds, what is shown. */
struct prof_opts {
	int		 sort;		/* 't', 'c', 'a' or 'n' */
	int		 addr;		/* 0, 'o' or 'x' */
	int		 locals;	/* -g, the default; 0: -l */
	int		 zero;		/* -z */
	int		 noheader;	/* -h */
	int		 summary;	/* -s */
	int		 demangle;	/* 1 (-C, the default), 0: --no-demangle */
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
	time_t		 mtime;		/* when the file was written */
	long		 buildid;	/* as recorded, 0: none */
	const unsigned char *note;	/* its build-id note, in elf */
	size_t		 notelen;	/* 0: none */
	uint64_t	 base;
	struct elfload	*load;		/* its PT_LOADs, by file offset */
	size_t		 nload;
};

struct symtab {
	const char	*path;
	int		 fd;
	Elf		*elf;
	time_t		 mtime;		/* when the executable was written */
	struct elfload	*load;		/* its PT_LOADs, by file offset */
	size_t		 nload;
	const unsigned char *note;	/* its build-id note, in elf */
	size_t		 notelen;	/* 0: none */
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
	char		**label;	/* per entry and <unknown>: rows.c's */
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
const struct symobj **symtab_records(const struct symtab *,
		    const struct monfile *);
uint64_t	 symtab_profile_addr(const struct monfile *,
		    const struct symobj *const *, uint64_t);
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
const char	*rows_symbol(const struct symtab *, long);
char		*rows_name(const struct symtab *, long, int);
void		 rows_labels(struct symtab *, int);
char		*rows_label(const struct symtab *, long);

/* runtime/match.c: how -O and PROFFLAGS -incobj read an object's name. */
int		 __mon_match_object(const char *, const char *);

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
int		 lines_filecmp(const char *, const char *);
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
void		 callgraph_free(struct callgraph *);

/* ---------------------------------------------------------------- propagate */

double		*propagate(const struct callgraph *, const double *);

/* ---------------------------------------------------------------- profiles */

/* The profiles to sum, each read once, held until added to a report. */
struct profiles {
	const struct flist	*files;
	struct monfile		*mf;		/* files->n of them */
	struct monobj		*obj;		/* every file's records */
	size_t			 nobj;
};

char		*profiles_read(struct profiles *, const struct flist *,
		    const struct flist *, const char *, const char *);
void		 profiles_add(struct profiles *, struct report *);
void		 profiles_free(struct profiles *);

/* ---------------------------------------------------------------- gmons */

int		 gmons_load(struct callgraph *, const struct report *,
		    const struct flist *, const struct flist *, int);

/* ---------------------------------------------------------------- sources */

/* A source file -A lists, read or not (why). */
struct source {
	const char	*path;
	struct srcfile	 sf;
	char		*why;		/* NULL: read */
};

/* -A FUNC: the rows it names, and their source files, each read once. */
struct sources {
	long		*row;		/* rows named FUNC, in table order */
	size_t		 nrow;
	struct source	*file;		/* by path */
	size_t		 nfile;
};

void		 sources_load(struct sources *, const struct lines *,
		    const char *);
const struct source *sources_find(const struct sources *, const char *);
void		 sources_free(struct sources *);

/* ---------------------------------------------------------------- model */

/*
 * Everything the views read, built once (model_build) from every input:
 * the profiles, their gmon.out files, the program and its objects, and
 * the source files, each read once.  What no view asked for is not built
 * (has* say).
 */
struct model {
	char			*prog;		/* the program reported */
	struct flist		 files;		/* the profiles summed */
	struct symtab		 st;
	struct report		 r;		/* with the sampled stacks */
	struct lines		 ln;		/* -L, -A, --pprof, --callgrind */
	int			 haslines;
	struct callgraph	 cg;		/* -pg's arcs: -G and the exports */
	int			 hasarcs;
	struct inlines		 inl;		/* --pprof */
	int			 hasinl;
	struct sources		 src;		/* -A */
	int			 demangle;	/* prof_opts.demangle */
};

void		 model_build(struct model *, const struct prof_opts *,
		    const char *, const struct flist *, const struct flist *);
void		 model_free(struct model *);

#endif /* PROF_MODEL_H */
