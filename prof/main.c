/* SPDX-License-Identifier: MIT */
/*
 * main.c - prof(1): options, and the order of work: symbols of prog (and
 * its line tables when an output needs them), then each profile added,
 * then the report asked for.
 */
#include <err.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "prof.h"

/* Long options: values past every char, for getopt_long's switch. */
enum { OPT_FORMAT = 256, OPT_GMON, OPT_PPROF, OPT_CALLGRIND, OPT_FLAME };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "gmon", required_argument, NULL, OPT_GMON },
	{ "pprof", required_argument, NULL, OPT_PPROF },
	{ "callgrind", required_argument, NULL, OPT_CALLGRIND },
	{ "flame", required_argument, NULL, OPT_FLAME },
	{ NULL, 0, NULL, 0 }
};

static void __attribute__((__noreturn__))
usage(void)
{
	fprintf(stderr, "usage: prof [-ChisVz] [-a | c | n | t]  [-o  |  x]"
	    "   [-g  |  l]  [-u ms | us | ns]\n"
	    "\t[-L | -A func | -G]  [--format=csv | json]  [--gmon=file]\n"
	    "\t[--pprof=file]  [--callgrind=file]  [--flame=file]  [-O object]\n"
	    "\t[-m mdata] ... [prog [mdata ...]]\n");
	exit(1);
}

/*
 * The options into O, -m's files into MARGS; returns the index of the
 * first operand.
 */
static int
options(int argc, char **argv, struct prof_opts *o, struct flist *margs,
    struct flist *gmons)
{
	int ch, sortgiven = 0;

	while ((ch = getopt_long(argc, argv, ":canthsglzoxT:m:VCu:LA:GO:i", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			if (strcmp(optarg, "csv") == 0 ||
			    strcmp(optarg, "json") == 0)
				o->format = optarg[0];
			else if (strcmp(optarg, "table") == 0)
				o->format = 0;
			else {
				warnx("--format=%s: the format is table, csv or "
				    "json", optarg);
				usage();
			}
			break;
		case 'a':
		case 'c':
		case 'n':
		case 't':
			if (sortgiven && o->sort != ch)
				warnx("Warning: %c overrides previous "
				    "specification", ch);
			o->sort = ch;
			sortgiven = 1;
			break;
		case 'o':
		case 'x':
			o->addr = ch;
			break;
		case 'g':
			o->locals = 1;
			break;
		case 'l':
			o->locals = 0;
			break;
		case 'z':
			o->zero = 1;
			break;
		case 'h':
			o->noheader = 1;
			break;
		case 's':
			o->summary = 1;
			break;
		case 'C':
			o->demangle = 1;
			break;
		case 'L':
			o->lines = 1;
			break;
		case 'A':
			o->annotate = optarg;
			break;
		case 'i':
			o->inclusive = 1;
			break;
		case 'G':
			o->graph = 1;
			break;
		case OPT_GMON:
			mdata_add(gmons, optarg);
			break;
		case OPT_PPROF:
			o->pprof = optarg;
			break;
		case OPT_CALLGRIND:
			o->callgrind = optarg;
			break;
		case OPT_FLAME:
			o->flame = optarg;
			break;
		case 'u':
			if (strcmp(optarg, "ms") == 0)
				o->unit = 0;
			else if (strcmp(optarg, "us") == 0 ||
			    strcmp(optarg, "ns") == 0)
				o->unit = optarg[0];
			else {
				warnx("-u %s: the unit is ms, us or ns", optarg);
				usage();
			}
			break;
		case 'm':
			mdata_add(margs, optarg);
			break;
		case 'O':
			o->object = optarg;
			break;
		case 'T':		/* classic debug flags: accepted */
			break;
		case 'V':
			fprintf(stderr, "prof: monprof %s\n", PROF_VERSION);
			if (argc == 2)
				exit(0);
			break;
		case ':':
			if (optopt < OPT_FORMAT)
				warnx("option -%c needs an argument", optopt);
			else
				warnx("option %s needs an argument",
				    argv[optind - 1]);
			usage();
			/* NOTREACHED */
		default:
			if (optopt == 0)
				warnx("unknown option %s", argv[optind - 1]);
			else
				warnx("unknown option -%c", optopt);
			usage();
		}
	}
	if ((o->lines != 0) + (o->annotate != NULL) + (o->graph != 0) > 1) {
		warnx("-L, -A and -G each choose the report: give one");
		usage();
	}
	if (o->format != 0 && o->annotate != NULL) {
		warnx("--format is for the flat report, -L and -G");
		usage();
	}
	/* -i alone: the functions under which the time goes, first. */
	if (o->inclusive && !sortgiven)
		o->sort = 'i';
	return optind;
}

/*
 * Why the sampler stayed in per-task events, as the runtime recorded it
 * (MON_META_STAYED), in words: the privilege only where the kernel
 * refused for want of it.
 */
static const char *
stayed(long why, char *buf, size_t len)
{
	switch (why) {
	case MON_STAYED_ASKED:
		return "PROFFLAGS=-nocpuwide kept per-task events";
	case MON_STAYED_NOFILE:
		return "per-CPU events need 16 descriptors a CPU, more than "
		    "its RLIMIT_NOFILE allowed";
	case MON_STAYED_PRIVILEGE:
		return "per-CPU sampling needs CAP_PERFMON or "
		    "perf_event_paranoid <= 0";
	case MON_STAYED_CLOSED:
		return "it closed the sampler's descriptors, which per-CPU "
		    "sampling needs";
	case 0:
		return "per-CPU sampling needs CAP_PERFMON or "
		    "perf_event_paranoid <= 0, or more descriptors";
	}
	if (why > MON_STAYED_ERRNO && why < MON_STAYED_ERRNO + 4096) {
		snprintf(buf, len, "the kernel refused per-CPU events: %s",
		    strerror((int)(why - MON_STAYED_ERRNO)));
		return buf;
	}
	return "per-CPU events could not be had";
}

/*
 * What one kind of warning found in the profiles: the first file, how
 * many files, and the sum (the largest for a rate), so that a directory
 * of hundreds of profiles gives one line of each kind, not one a file.
 */
struct seen {
	const char	*first;
	size_t		 files;
	long		 v, stayed;
};

static void
see(struct seen *s, const char *file, long v, int rate, long stayed)
{
	if (v <= 0)
		return;
	if (s->files++ == 0) {
		s->first = file;
		s->stayed = stayed;
	}
	s->v = rate ? (v > s->v ? v : s->v) : s->v + v;
}

/* "FILE" or "FILE and N other profiles", escaped, in buf. */
static const char *
where(const struct seen *s, char *buf, size_t len)
{
	char *t = names_text(s->first);

	if (s->files == 1)
		snprintf(buf, len, "%s", t);
	else
		snprintf(buf, len, "%s and %zu other profile%s", t,
		    s->files - 1, s->files > 2 ? "s" : "");
	free(t);
	return buf;
}

/* Add each of FILES to R, or exit naming the file and the problem. */
static void
addall(struct report *r, const struct flist *files)
{
	struct seen sat = { 0 }, lost = { 0 }, sw = { 0 };
	struct monfile mf;
	const char *e;
	char ebuf[256], wbuf[PATH_MAX + 64];
	size_t i;

	for (i = 0; i < files->n; i++) {
		monread_open(&mf, files->v[i]);
		progress_step();
		if ((e = report_add(r, &mf, ebuf, sizeof(ebuf))) != NULL) {
			progress_clear();
			errx(1, "%s: %s", names_text(files->v[i]), e);
		}
		see(&sat, files->v[i], mf.meta[MON_META_SATURATED], 0, 0);
		see(&lost, files->v[i], mf.meta[MON_META_LOST], 0, 0);
		see(&sw, files->v[i], mf.meta[MON_META_SWITCHES], 1,
		    mf.meta[MON_META_STAYED]);
		monread_close(&mf);
	}
	progress_end();
	if (sat.files > 0)
		warnx("%s: %ld samples dropped at full bins: times are low",
		    where(&sat, wbuf, sizeof(wbuf)), sat.v);
	if (lost.files > 0)
		warnx("%s: %ld samples lost by the kernel",
		    where(&lost, wbuf, sizeof(wbuf)), lost.v);
	if (sw.files > 0)
		warnx("%s: its threads blocked up to %ld times a second, and "
		    "the sampler worked at each switch (not in the times "
		    "shown): %s; PROFFLAGS=-itimer costs less",
		    where(&sw, wbuf, sizeof(wbuf)), sw.v,
		    stayed(sw.stayed, ebuf, sizeof(ebuf)));
	if (r->nfns == 0 && r->total == 0)
		warnx("%s: no call counts and no samples captured",
		    files->n == 1 ? files->v[0] : "profiles");
}

/* A directory is never the program: prof DIR sums the profiles in it. */
static int
isdir(const char *path)
{
	struct stat sb;

	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

int
main(int argc, char **argv)
{
	struct prof_opts o = { .sort = 't', .locals = 1 };
	struct flist margs = { NULL, 0, 0 }, files = { NULL, 0, 0 };
	struct flist gmons = { NULL, 0, 0 };
	struct callgraph cg;
	struct monobj *objs;
	struct symtab st;
	struct report r;
	struct lines ln;
	char *prog = NULL;
	size_t i, nobjs;
	int first, uselines, witharcs;

	first = options(argc, argv, &o, &margs, &gmons);
	if (first < argc && !isdir(argv[first]) &&
	    (prog = strdup(argv[first++])) == NULL)
		err(1, NULL);
	for (i = first; i < (size_t)argc; i++)
		mdata_add(&margs, argv[i]);
	if (margs.n == 0)
		mdata_add(&margs, MON_OUT);
	/* No program named: a directory's profiles of any program. */
	for (i = 0; i < margs.n; i++)
		mdata_expand(&files, margs.v[i], prog);
	progress_begin(files.n * (prog == NULL ? 3 : 2));
	if (prog == NULL)
		prog = mdata_program(&files, &margs, "a.out");

	mdata_objects(&objs, &nobjs, &files);
	symtab_open(&st, prog, objs, nobjs, o.locals);
	for (i = 0; i < nobjs; i++)
		free((char *)objs[i].path);
	free(objs);
	report_init(&r, &st);
	if ((uselines = o.lines || o.annotate != NULL || o.pprof != NULL ||
	    o.callgrind != NULL) != 0) {
		lines_open(&ln, &st);
		lines_attach(&ln, &r);
	}
	addall(&r, &files);
	report_done(&r);
	if (o.inclusive && !r.stacks.has)
		warnx("%s: no call stacks in the profile (run with PROFFLAGS "
		    "-nostacks, or by an older runtime): no inclusive times",
		    files.n == 1 ? names_text(files.v[0]) : "profiles");
	/* gcc -flto makes local every function not needed outside prog. */
	if (!o.locals && r.cells_dropped > 0 &&
	    r.cells_dropped >= r.cells_used)
		warnx("%s: %zu of %zu call counts are in local functions, "
		    "not shown with -l", prog, r.cells_dropped,
		    r.cells_dropped + r.cells_used);
	if (uselines)
		lines_collect(&ln, &r);
	if (o.lines || o.annotate != NULL)
		lines_check(&ln);

	if (o.graph) {
		/*
		 * The stacks give a graph, -pg's arcs its counts: without
		 * stacks, or with --gmon named, the arcs must be there.
		 */
		witharcs = callgraph_load(&cg, &r, &gmons, &files,
		    !r.stacks.has || gmons.n > 0);
		if (o.format != 0)
			graphview_export(witharcs ? &cg : NULL, &r, &o, stdout);
		else
			graphview_print(witharcs ? &cg : NULL, &r, &o, stdout);
		if (witharcs)
			callgraph_free(&cg);
	} else if (o.annotate != NULL)
		annotate_print(&ln, &r, &o, stdout);
	else if (o.lines && o.format != 0)
		export_lines(&ln, &r, &o, stdout);
	else if (o.lines)
		lines_print(&ln, &r, &o, stdout);
	else if (o.format != 0)
		export_flat(&r, &o, stdout);
	else
		print_report(&r, &o, stdout);
	/* The files: arcs when the run left them, quietly none otherwise. */
	if (o.pprof != NULL || o.callgrind != NULL) {
		witharcs = callgraph_load(&cg, &r, &gmons, &files, 0);
		if (o.pprof != NULL)
			pprof_write(o.pprof, &r, &ln, witharcs ? &cg : NULL);
		if (o.callgrind != NULL)
			callgrind_write(o.callgrind, &r, &ln, witharcs ? &cg :
			    NULL);
		if (witharcs)
			callgraph_free(&cg);
	}
	if (o.flame != NULL)
		flame_write(o.flame, &r, lines_base(prog));
	if (o.summary) {
		fflush(stdout);
		print_summary(&r, &o, stderr);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	if (uselines)
		lines_close(&ln);
	report_free(&r);
	symtab_close(&st);
	free(prog);
	return 0;
}
