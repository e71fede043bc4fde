/* SPDX-License-Identifier: MIT */
/*
 * main.c - prof(1): the options, the one model they ask for, built once
 * from every input (model.c), then the views they ask for, which read
 * it: the report on stdout, the files (--pprof, --callgrind, --flame),
 * -s's summary.
 */
#include <err.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "views.h"

/* Long options: values past every char, for getopt_long's switch. */
enum {
	OPT_FORMAT = 256, OPT_GMON, OPT_PPROF, OPT_CALLGRIND, OPT_FLAME,
	OPT_HELP, OPT_VERSION, OPT_DEMANGLE, OPT_NO_DEMANGLE
};

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "gmon", required_argument, NULL, OPT_GMON },
	{ "pprof", required_argument, NULL, OPT_PPROF },
	{ "callgrind", required_argument, NULL, OPT_CALLGRIND },
	{ "flame", required_argument, NULL, OPT_FLAME },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ NULL, 0, NULL, 0 }
};

/*
 * The usage on FP, then exit with STATUS: 1 and stderr for a bad
 * command line, 0 and stdout for --help (GNU's convention).
 */
static void __attribute__((__noreturn__))
usage_to(FILE *fp, int status)
{
	fprintf(fp, "usage: prof [-ChisVz] [-a | c | n | t]  [-o  |  x]"
	    "   [-g  |  l]  [-u ms | us | ns]\n"
	    "\t[-L | -A func | -G]  [--format=csv | json]  [--gmon=file]\n"
	    "\t[--pprof=file]  [--callgrind=file]  [--flame=file]  [-O object]\n"
	    "\t[--demangle | --no-demangle]  [-f regex]\n"
	    "\t[-m mdata] ... [prog [mdata ...]]\n");
	/* --help lists every option, the classic -T and its own too. */
	if (status == 0)
		fprintf(fp, "\t[-T flags]  [--help]  [--version]\n");
	if (status == 0)
		fprintf(fp, "Reads the profile (mon.out) of prog and prints "
		    "its time and calls per function; see prof(1).\n");
	if (fflush(fp) != 0 || ferror(fp))
		err(1, "%s", fp == stdout ? "stdout" : "stderr");
	exit(status);
}

static void __attribute__((__noreturn__))
usage(void)
{
	usage_to(stderr, 1);
}

/* -f REGEX: the functions named so, into O, or one line and exit 1. */
static void
filter(struct prof_opts *o, const char *re)
{
	static regex_t rx;
	char why[256];
	int e;

	if (o->filter != NULL)
		regfree(&rx);
	if ((e = regcomp(&rx, re, REG_EXTENDED | REG_NOSUB)) != 0) {
		regerror(e, &rx, why, sizeof(why));
		errx(1, "-f %s: %s: give a POSIX extended regular expression, "
		    "as grep -E takes", names_text(re), why);
	}
	o->filter = &rx;
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

	while ((ch = getopt_long(argc, argv, ":canthsglzoxT:m:VCu:LA:GO:if:", longopts,
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
		case 'C':		/* the default now: accepted */
		case OPT_DEMANGLE:
			o->demangle = 1;
			break;
		case OPT_NO_DEMANGLE:
			o->demangle = 0;
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
		case OPT_HELP:
			usage_to(stdout, 0);
		case OPT_VERSION:
			printf("prof (monprof) %s\n", PROF_VERSION);
			if (fflush(stdout) != 0 || ferror(stdout))
				err(1, "stdout");
			exit(0);
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
		case 'f':
			filter(o, optarg);
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
	struct prof_opts o = { .sort = 't', .locals = 1, .demangle = 1 };
	struct flist margs = { NULL, 0, 0 }, gmons = { NULL, 0, 0 };
	struct model m;
	char *prog = NULL;
	size_t i;
	int first;

	first = options(argc, argv, &o, &margs, &gmons);
	if (first < argc && !isdir(argv[first]))
		prog = argv[first++];
	for (i = first; i < (size_t)argc; i++)
		mdata_add(&margs, argv[i]);
	if (margs.n == 0)
		mdata_add(&margs, MON_OUT);
	model_build(&m, &o, prog, &margs, &gmons);

	if (o.graph && o.format != 0)
		graphview_export(&m, &o, stdout);
	else if (o.graph)
		graphview_print(&m, &o, stdout);
	else if (o.annotate != NULL)
		annotate_print(&m, &o, stdout);
	else if (o.lines && o.format != 0)
		export_lines(&m, &o, stdout);
	else if (o.lines)
		lineview_print(&m, &o, stdout);
	else if (o.format != 0)
		export_flat(&m, &o, stdout);
	else
		print_report(&m, &o, stdout);
	if (o.pprof != NULL)
		pprof_write(o.pprof, &m);
	if (o.callgrind != NULL)
		callgrind_write(o.callgrind, &m);
	if (o.flame != NULL)
		flame_write(o.flame, &m, lineview_base(m.prog));
	if (o.summary) {
		fflush(stdout);
		print_summary(&m, &o, stderr);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	model_free(&m);
	return 0;
}
