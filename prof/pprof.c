/* SPDX-License-Identifier: MIT */
/*
 * pprof.c - --pprof=FILE: the profile as a gzipped pprof protobuf
 * (profile.proto, encoded by protobuf-c), for go tool pprof.
 *
 * Two sample types, calls/count and cpu/nanoseconds.  Each sampled call
 * stack is a cpu sample, its frames leaf first at their addresses (a
 * profile without stacks: each line of a function with time is a
 * location, its lowest address, with a cpu sample); each function's
 * calls are a sample at its entry, or with -pg's arcs one per call site,
 * the caller's frame under the callee's, so that pprof's graph and flame
 * graph show who calls whom.  A location in inlined code has a line per
 * function inlined there, innermost first, each at its own file and
 * line, then the symbol's function.  Every function has its name
 * (demangled unless --no-demangle; the symbol as system_name), its file
 * and first line, one per name and file; one mapping per object, with
 * its build-id.
 * Addresses are the table's: link-time, each shared object at its base.
 */
#include <err.h>
#include <math.h>
#include <stdlib.h>

#include <zlib.h>

#include "profile.pb-c.h"
#include "views.h"

/* A table of uint64 keys (strings' hashes, addresses) to indices. */
struct keymap {
	uint64_t	*key;
	size_t		*val;
	size_t		 cap, n;
};

/*
 * KEY's value, 0 where it is new (the caller sets it); SAME, where not
 * NULL, tells keys alike apart.  Values are stored + 1, so that 0 marks
 * a free slot.
 */
static size_t *
slot(struct keymap *m, uint64_t key, int (*same)(void *, size_t),
    void *arg)
{
	size_t i, *val, cap;
	uint64_t *k;

	if (2 * (m->n + 1) > m->cap) {
		cap = m->cap ? 2 * m->cap : 1024;
		if ((k = calloc(cap, sizeof(*k))) == NULL ||
		    (val = calloc(cap, sizeof(*val))) == NULL)
			err(1, NULL);
		for (i = 0; i < m->cap; i++) {
			size_t j = m->key[i] & (cap - 1);

			if (m->val[i] == 0)
				continue;
			while (val[j] != 0)
				j = (j + 1) & (cap - 1);
			k[j] = m->key[i];
			val[j] = m->val[i];
		}
		free(m->key);
		free(m->val);
		m->key = k;
		m->val = val;
		m->cap = cap;
	}
	for (i = key & (m->cap - 1); m->val[i] != 0; i = (i + 1) & (m->cap - 1))
		if (m->key[i] == key && (same == NULL || same(arg, m->val[i] -
		    1)))
			return &m->val[i];
	m->key[i] = key;
	m->n++;
	return &m->val[i];
}

struct pp {
	const struct symtab	*st;
	const struct lines	*ln;
	const struct inlines	*inl;
	Pprof__Profile		*p;
	size_t			 cstr, cloc, cfun, csam, cmap;
	struct keymap		 strs, locs, funs;
	const char		*want;		/* the string being looked up */
	int64_t			 wname, wfile;	/* the function looked up */
	uint64_t		*fid;		/* per row: function id, 0 none */
	int			 demangle;	/* names, unless --no-demangle */
	const regex_t		*filter;	/* -f, or NULL */
};

static int
samestr(void *arg, size_t i)
{
	struct pp *pp = arg;

	return strcmp(pp->p->string_table[i], pp->want) == 0;
}

/* The string table's index of S. */
static int64_t
str(struct pp *pp, const char *s)
{
	uint64_t h = 14695981039346656037ULL;
	const unsigned char *c;
	size_t *v;

	for (c = (const unsigned char *)s; *c != '\0'; c++)
		h = (h ^ *c) * 1099511628211ULL;
	pp->want = s;
	if (*(v = slot(&pp->strs, h, samestr, pp)) != 0)
		return (int64_t)(*v - 1);
	if (prof_grow(&pp->p->string_table, &pp->cstr, pp->p->n_string_table + 1,
	    sizeof(char *)) != 0 || (pp->p->string_table[pp->p->n_string_table] =
	    strdup(s)) == NULL)
		err(1, NULL);
	*v = ++pp->p->n_string_table;
	return (int64_t)(*v - 1);
}

/* A new message of SIZE bytes appended to the array *VP (*NV, room *CAP). */
static void *
append(void *vp, size_t *nv, size_t *cap, size_t size)
{
	void *m;

	if ((m = malloc(size)) == NULL || prof_grow(vp, cap, *nv + 1,
	    sizeof(m)) != 0)
		err(1, NULL);
	(*(void ***)vp)[(*nv)++] = m;
	return m;
}

/* The file and line of the address A, or "" and 0. */
static void
lineof(const struct pp *pp, uint64_t a, const char **file, int *line)
{
	long i = srclines_at(&pp->ln->sl, a);

	*file = i >= 0 && pp->ln->sl.r[i].file ? pp->ln->sl.r[i].file : "";
	*line = i >= 0 ? pp->ln->sl.r[i].line : 0;
}

static int
samefun(void *arg, size_t i)
{
	const struct pp *pp = arg;

	return pp->p->function[i]->name == pp->wname &&
	    pp->p->function[i]->filename == pp->wfile;
}

/*
 * The id of the function NAME (the symbol SYS) in FILE, from line START
 * (0: unknown), added on first use: one function per name and file.
 */
static uint64_t
funid(struct pp *pp, const char *name, const char *sys, const char *file,
    int start)
{
	Pprof__Function *f;
	size_t *v;

	pp->wname = str(pp, name);
	pp->wfile = str(pp, file);
	if (*(v = slot(&pp->funs, (uint64_t)pp->wname * 0x9e3779b97f4a7c15ULL ^
	    (uint64_t)pp->wfile, samefun, pp)) != 0)
		return *v;
	f = append(&pp->p->function, &pp->p->n_function, &pp->cfun,
	    sizeof(*f));
	pprof__function__init(f);
	f->id = *v = pp->p->n_function;
	f->name = pp->wname;
	f->system_name = str(pp, sys);
	f->filename = pp->wfile;
	f->start_line = start;
	return f->id;
}

/*
 * Row K's function in FILE (NULL: the file of its entry, where it
 * starts), added on first use.
 */
static uint64_t
function(struct pp *pp, long k, const char *file)
{
	const struct symtab *st = pp->st;
	const char *raw, *entry = "";
	char *name;
	uint64_t id;
	int line = 0, own;

	if (k != REPORT_UNKNOWN(st))
		lineof(pp, st->ent[k].addr, &entry, &line);
	if ((own = file == NULL || strcmp(file, entry) == 0)) {
		if (pp->fid[k] != 0)
			return pp->fid[k];
		file = entry;
	} else
		line = 0;
	raw = rows_symbol(st, k);
	name = rows_label(st, k);
	/*
	 * pprof strips <...> from a name equal to its system name, as
	 * C++ template arguments: <external> and <unknown> have none.
	 */
	id = funid(pp, name, *raw == '<' ? "" : raw, file, line);
	free(name);
	if (own)
		pp->fid[k] = id;
	return id;
}

/* The function inlined in frame F, added on first use. */
static uint64_t
inlined(struct pp *pp, const struct inlframe *f)
{
	const char *sys = f->linkage != NULL ? f->linkage : f->name;
	char *dm = pp->demangle ? names_demangle(sys) : NULL;
	uint64_t id;

	id = funid(pp, dm != NULL ? dm : f->name, sys, f->file, f->decl);
	free(dm);
	return id;
}

/* A location's line: the function FID at LINE. */
static Pprof__Line *
line(uint64_t fid, int64_t n)
{
	Pprof__Line *l;

	if ((l = malloc(sizeof(*l))) == NULL)
		err(1, NULL);
	pprof__line__init(l);
	l->function_id = fid;
	l->line = n;
	return l;
}

/*
 * L's lines, those of the address A in row K: in inlined code, the
 * functions inlined there, innermost first, each at its own file and
 * line, and last row K's function, at the outermost call; elsewhere
 * row K's function alone, in A's file where A has one.
 */
static void
lines(struct pp *pp, Pprof__Location *l, long k, uint64_t a)
{
	struct inlframe *fr = NULL;
	const char *file;
	long i, n = 0;
	int at;

	if (k != REPORT_UNKNOWN(pp->st) && (n = inlines_at(pp->inl, a,
	    &fr)) < 0)
		err(1, NULL);
	if ((l->line = calloc(n > 0 ? (size_t)n : 1, sizeof(*l->line))) ==
	    NULL)
		err(1, NULL);
	for (i = 0; i + 1 < n; i++)
		l->line[i] = line(inlined(pp, &fr[i]), fr[i].line);
	if (n > 0)
		l->line[i] = line(function(pp, k, fr[i].file), fr[i].line);
	else {
		lineof(pp, a, &file, &at);
		l->line[0] = line(function(pp, k, *file != '\0' ? file :
		    NULL), at);
	}
	l->n_line = n > 0 ? (size_t)n : 1;
	free(fr);
}

/* The mapping of the table address A: 1 the executable, then objects. */
static uint64_t
mappingof(const struct pp *pp, uint64_t a)
{
	const struct symobj *o = symtab_object_at(pp->st, a);

	return o == NULL ? 1 : (uint64_t)(o - pp->st->obj) + 2;
}

/*
 * The location at the address A in row K (a caller's in its call),
 * added on first use; <unknown> has no address and no mapping.
 */
static uint64_t
location(struct pp *pp, long k, uint64_t a)
{
	Pprof__Location *l;
	size_t *v;

	if (k == REPORT_UNKNOWN(pp->st))
		a = 0;
	if (*(v = slot(&pp->locs, a, NULL, NULL)) != 0)
		return *v;
	l = append(&pp->p->location, &pp->p->n_location, &pp->cloc,
	    sizeof(*l));
	pprof__location__init(l);
	lines(pp, l, k, a);
	l->id = *v = pp->p->n_location;
	l->address = a;
	l->mapping_id = a != 0 ? mappingof(pp, a) : 0;
	return l->id;
}

/* A sample of the stack LOC[0..N-1] (leaf first): CALLS, SECS. */
static void
sample(struct pp *pp, const uint64_t *loc, size_t n, long calls, double secs)
{
	Pprof__Sample *s;

	s = append(&pp->p->sample, &pp->p->n_sample, &pp->csam,
	    sizeof(*s));
	pprof__sample__init(s);
	if ((s->location_id = calloc(n, sizeof(*loc))) == NULL ||
	    (s->value = calloc(2, sizeof(*s->value))) == NULL)
		err(1, NULL);
	memcpy(s->location_id, loc, n * sizeof(*loc));
	s->n_location_id = n;
	s->value[0] = calls;
	s->value[1] = llround(secs * 1e9);
	s->n_value = 2;
}

static Pprof__ValueType *
valuetype(struct pp *pp, const char *type, const char *unit)
{
	Pprof__ValueType *v;

	if ((v = malloc(sizeof(*v))) == NULL)
		err(1, NULL);
	pprof__value_type__init(v);
	v->type = str(pp, type);
	v->unit = str(pp, unit);
	return v;
}

/*
 * A mapping for the file PATH (at BASE, its PT_LOADs LOAD[0..N-1], its
 * build-id note ID[0..LEN-1]).
 */
static void
mapping(struct pp *pp, const char *path, uint64_t base,
    const struct elfload *load, size_t n, const unsigned char *id,
    size_t len)
{
	Pprof__Mapping *m;
	char hex[2 * 64 + 1];
	size_t i;

	m = append(&pp->p->mapping, &pp->p->n_mapping, &pp->cmap,
	    sizeof(*m));
	pprof__mapping__init(m);
	m->id = pp->p->n_mapping;
	m->memory_start = UINT64_MAX;
	for (i = 0; i < n; i++) {
		if (base + load[i].vaddr < m->memory_start) {
			m->memory_start = base + load[i].vaddr;
			m->file_offset = load[i].offset;
		}
		if (base + load[i].vaddr + load[i].filesz > m->memory_limit)
			m->memory_limit = base + load[i].vaddr + load[i].filesz;
	}
	if (n == 0)
		m->memory_start = 0;
	m->filename = str(pp, path);
	hex[0] = '\0';
	for (i = 0; i < len && i < 64; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	m->build_id = str(pp, hex);
	m->has_functions = 1;
	m->has_filenames = m->has_line_numbers = m->has_inline_frames =
	    pp->ln->sl.has;
}

/* The executable's mapping, then each shared object's. */
static void
mappings(struct pp *pp)
{
	const struct symtab *st = pp->st;
	size_t i;

	mapping(pp, st->path, 0, st->load, st->nload, st->note, st->notelen);
	for (i = 0; i < st->nobj; i++)
		mapping(pp, st->obj[i].path, st->obj[i].base, st->obj[i].load,
		    st->obj[i].nload, st->obj[i].note, st->obj[i].notelen);
}

/*
 * Row K's calls: one sample per call site of its arcs (the callee's
 * entry, then the caller's call site), and what no arc explains at its
 * entry alone.
 */
static void
calls(struct pp *pp, const struct report *r, const struct callgraph *cg,
    long k)
{
	const struct symtab *st = pp->st;
	uint64_t loc[2], a;
	long left = r->ncalls[k];
	size_t i;

	a = k == REPORT_UNKNOWN(st) ? 0 : st->ent[k].addr;
	/* Made once a sample needs it: -f leaves out the others' names. */
	loc[0] = 0;
	for (i = cg != NULL ? callgraph_first(cg, k) : 0; cg != NULL &&
	    i < cg->n && cg->arc[i].callee == k; i++) {
		left -= cg->arc[i].count;
		/* -f, as pprof -focus: a call through a function it names. */
		if (!rows_wanted(st, k, pp->filter) &&
		    !rows_wanted(st, cg->arc[i].caller, pp->filter))
			continue;
		if (loc[0] == 0)
			loc[0] = location(pp, k, a);
		/* In the call, as stacks; <external>'s pc is its own. */
		loc[1] = location(pp, cg->arc[i].caller, cg->arc[i].from -
		    (cg->arc[i].caller != REPORT_UNKNOWN(st) &&
		    st->ent[cg->arc[i].caller].addr == cg->arc[i].from ? 0 :
		    1));
		sample(pp, loc, 2, cg->arc[i].count, 0);
	}
	if (left > 0 && rows_wanted(st, k, pp->filter)) {
		if (loc[0] == 0)
			loc[0] = location(pp, k, a);
		sample(pp, loc, 1, left, 0);
	}
}

/*
 * The sampled stacks: a cpu sample each, its frames leaf first, each at
 * its address and line (a caller's at its call).  Under -f, as pprof's
 * -focus does, only the stacks through a function it names, whole.
 */
static void
stacks(struct pp *pp, const struct callstacks *cs)
{
	const struct csstack *s;
	const struct csframe *f;
	uint64_t loc[MONSTACKS_DEPTH];
	size_t i, j;
	int any;

	for (i = 0; i < cs->nstack; i++) {
		s = &cs->stack[i];
		for (j = any = 0; j < s->depth && !any; j++)
			any = rows_wanted(pp->st, cs->frame[s->off + j].row,
			    pp->filter);
		if (!any)
			continue;
		for (j = 0; j < s->depth; j++) {
			f = &cs->frame[s->off + s->depth - 1 - j];
			loc[j] = location(pp, f->row, f->addr);
		}
		sample(pp, loc, s->depth, 0, s->secs);
	}
}

/*
 * Write the model M (its report, its lines and inlined calls, -pg's
 * arcs where it has them) to PATH, gzipped; exit on failure.
 */
void
pprof_write(const char *path, const struct model *m)
{
	const struct report *r = &m->r;
	const struct lines *ln = &m->ln;
	const struct callgraph *cg = m->hasarcs ? &m->cg : NULL;
	const struct symtab *st = r->st;
	const struct linerow *lr;
	struct pp pp;
	uint8_t *buf;
	size_t i, n, len;
	uint64_t loc;
	gzFile gz;
	char *sampler;

	memset(&pp, 0, sizeof(pp));
	pp.st = st;
	pp.ln = ln;
	pp.inl = &m->inl;
	pp.demangle = m->demangle;
	pp.filter = m->filter;
	if ((pp.p = malloc(sizeof(*pp.p))) == NULL ||
	    (pp.fid = calloc(st->nent + 1, sizeof(*pp.fid))) == NULL)
		err(1, NULL);
	pprof__profile__init(pp.p);
	str(&pp, "");
	if ((pp.p->sample_type = calloc(2, sizeof(*pp.p->sample_type))) ==
	    NULL)
		err(1, NULL);
	pp.p->sample_type[0] = valuetype(&pp, "calls", "count");
	pp.p->sample_type[1] = valuetype(&pp, "cpu", "nanoseconds");
	pp.p->n_sample_type = 2;
	pp.p->period_type = valuetype(&pp, "cpu", "nanoseconds");
	pp.p->period = r->rate > 0 ? llround(1e9 / r->rate) : 0;
	/* What the time is, as pprof -comments shows it. */
	if (report_sampler(r, 1) != NULL) {
		if ((pp.p->comment = malloc(sizeof(*pp.p->comment))) == NULL ||
		    asprintf(&sampler, "sampled by the %s, %g per second",
		    report_sampler(r, 1), r->rate) == -1)
			err(1, NULL);
		pp.p->comment[0] = str(&pp, sampler);
		pp.p->n_comment = 1;
		free(sampler);
	}
	pp.p->default_sample_type = str(&pp, "cpu");
	mappings(&pp);
	/* With stacks, the time is theirs; without, each line's alone. */
	if (r->stacks.has)
		stacks(&pp, &r->stacks);
	for (i = 0; i < ln->n && !r->stacks.has; i++) {
		lr = &ln->rows[i];
		if (lr->secs <= 0 || !rows_wanted(st, lr->row, m->filter))
			continue;
		loc = location(&pp, lr->row, lr->addr);
		sample(&pp, &loc, 1, 0, lr->secs);
	}
	for (i = 0; i <= st->nent; i++)
		if (r->ncalls[i] > 0)
			calls(&pp, r, cg, i);

	len = pprof__profile__get_packed_size(pp.p);
	if ((buf = malloc(len + 1)) == NULL)
		err(1, NULL);
	pprof__profile__pack(pp.p, buf);
	if ((gz = gzopen(path, "wb")) == NULL)
		err(1, "%s", path);
	for (i = 0; i < len; i += n)
		if ((n = len - i > (1u << 30) ? 1u << 30 : len - i) > 0 &&
		    gzwrite(gz, buf + i, (unsigned)n) != (int)n)
			break;
	if (i < len || gzclose(gz) != Z_OK)
		errx(1, "%s: cannot write", path);
	free(buf);
	pprof__profile__free_unpacked(pp.p, NULL);
	free(pp.strs.key);
	free(pp.strs.val);
	free(pp.locs.key);
	free(pp.locs.val);
	free(pp.funs.key);
	free(pp.funs.val);
	free(pp.fid);
}
