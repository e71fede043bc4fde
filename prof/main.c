/* SPDX-License-Identifier: MIT */
/*
 * main.c - prof(1): options, the list of profiles to sum, and the order
 * of work: symbols of prog, then each profile added, then the report.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <getopt.h>
#include <glob.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mon.h"
#include "prof.h"

/* Long options: values past every char, for getopt_long's switch. */
enum { OPT_FORMAT = 256 };

static const struct option longopts[] = {
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ NULL, 0, NULL, 0 }
};

struct flist {
	char	**v;
	size_t	 n, cap;
};

static void __attribute__((__noreturn__))
usage(void)
{
	fprintf(stderr, "usage: prof [-ChsVz] [-a | c | n | t]  [-o  |  x]"
	    "   [-g  |  l]  [-u ms | us | ns]\n"
	    "\t[--format=csv | json]  [-m mdata] ... [prog [mdata ...]]\n");
	exit(1);
}

static void
flist_add(struct flist *fl, const char *s)
{
	if (fl->n == fl->cap) {
		fl->cap = fl->cap ? 2 * fl->cap : 8;
		if ((fl->v = reallocarray(fl->v, fl->cap,
		    sizeof(*fl->v))) == NULL)
			err(1, NULL);
	}
	if ((fl->v[fl->n++] = strdup(s)) == NULL)
		err(1, NULL);
}

static int
strpcmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "1234.prog": the per-process files a PROFDIR run leaves. */
static int
pidfile(const char *name, const char *prog)
{
	const char *p = name;

	while (isdigit((unsigned char)*p))
		p++;
	return p > name && *p == '.' && strcmp(p + 1, prog) == 0;
}

/*
 * One mdata operand: a file; a directory, meaning every <pid>.<prog> in
 * it (what PROFDIR=dir leaves after a forking run); or, if no such file
 * exists, a glob(3) pattern, for patterns quoted past the shell.
 */
static void
expand(struct flist *out, const char *arg, const char *prog)
{
	struct stat sb;
	struct dirent *d;
	struct flist dir = { NULL, 0, 0 };
	char *pc, *base, *path;
	glob_t g;
	size_t i, before = out->n;
	DIR *dp;

	if (stat(arg, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		if ((pc = strdup(prog)) == NULL)
			err(1, NULL);
		base = basename(pc);
		if ((dp = opendir(arg)) == NULL)
			err(1, "%s", arg);
		while ((d = readdir(dp)) != NULL) {
			if (!pidfile(d->d_name, base))
				continue;
			if (asprintf(&path, "%s/%s", arg, d->d_name) == -1)
				err(1, NULL);
			/* Anyone may plant a FIFO in a shared PROFDIR. */
			if (fstatat(dirfd(dp), d->d_name, &sb, 0) == -1)
				warn("%s: skipped", path);
			else if (!S_ISREG(sb.st_mode))
				warnx("%s: not a regular file: skipped", path);
			else
				flist_add(&dir, path);
			free(path);
		}
		closedir(dp);
		if (dir.n == 0)
			errx(1, "%s: no <pid>.%s profiles in this directory",
			    arg, base);
		qsort(dir.v, dir.n, sizeof(*dir.v), strpcmp);
		for (i = 0; i < dir.n; i++) {
			flist_add(out, dir.v[i]);
			free(dir.v[i]);
		}
		free(dir.v);
		free(pc);
		return;
	}
	if (access(arg, F_OK) != 0 && strpbrk(arg, "*?[") != NULL &&
	    glob(arg, 0, NULL, &g) == 0) {
		for (i = 0; i < g.gl_pathc; i++)
			flist_add(out, g.gl_pathv[i]);
		globfree(&g);
	}
	if (out->n == before)
		flist_add(out, arg);
}

/*
 * The shared-object records of the profiles FILES, their paths copied,
 * into *OUT (*N of them); symtab_load() reads each object once.
 */
static void
objects(struct monobj **out, size_t *n, const struct flist *files)
{
	struct monfile mf;
	size_t i, k, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < files->n; i++) {
		monread_open(&mf, files->v[i]);
		for (k = 0; k < mf.nobj; k++) {
			if (*n == cap) {
				cap = cap ? 2 * cap : 16;
				if ((*out = reallocarray(*out, cap,
				    sizeof(**out))) == NULL)
					err(1, NULL);
			}
			(*out)[*n] = mf.obj[k];
			if (((*out)[(*n)++].path = strdup(mf.obj[k].path)) ==
			    NULL)
				err(1, NULL);
		}
		monread_close(&mf);
	}
}

int
main(int argc, char **argv)
{
	struct prof_opts o = { .sort = 't', .locals = 1 };
	struct flist margs = { NULL, 0, 0 }, files = { NULL, 0, 0 };
	struct monobj *objs;
	size_t nobjs;
	struct symtab st;
	struct report r;
	struct monfile mf;
	const char *prog = "a.out", *e;
	char ebuf[256];
	size_t i;
	int ch, sortgiven = 0;

	while ((ch = getopt_long(argc, argv, ":canthsglzoxT:m:VCu:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case OPT_FORMAT:
			if (strcmp(optarg, "csv") == 0 ||
			    strcmp(optarg, "json") == 0)
				o.format = optarg[0];
			else if (strcmp(optarg, "table") == 0)
				o.format = 0;
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
			if (sortgiven && o.sort != ch)
				warnx("Warning: %c overrides previous "
				    "specification", ch);
			o.sort = ch;
			sortgiven = 1;
			break;
		case 'o':
		case 'x':
			o.addr = ch;
			break;
		case 'g':
			o.locals = 1;
			break;
		case 'l':
			o.locals = 0;
			break;
		case 'z':
			o.zero = 1;
			break;
		case 'h':
			o.noheader = 1;
			break;
		case 's':
			o.summary = 1;
			break;
		case 'C':
			o.demangle = 1;
			break;
		case 'u':
			if (strcmp(optarg, "ms") == 0)
				o.unit = 0;
			else if (strcmp(optarg, "us") == 0 ||
			    strcmp(optarg, "ns") == 0)
				o.unit = optarg[0];
			else {
				warnx("-u %s: the unit is ms, us or ns", optarg);
				usage();
			}
			break;
		case 'm':
			flist_add(&margs, optarg);
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
	argc -= optind;
	argv += optind;
	if (argc > 0) {
		prog = argv[0];
		for (i = 1; i < (size_t)argc; i++)
			flist_add(&margs, argv[i]);
	}
	if (margs.n == 0)
		flist_add(&margs, MON_OUT);
	for (i = 0; i < margs.n; i++)
		expand(&files, margs.v[i], prog);

	objects(&objs, &nobjs, &files);
	symtab_open(&st, prog, objs, nobjs, o.locals);
	for (i = 0; i < nobjs; i++)
		free((char *)objs[i].path);
	free(objs);
	report_init(&r, &st);
	for (i = 0; i < files.n; i++) {
		monread_open(&mf, files.v[i]);
		if ((e = report_add(&r, &mf, ebuf, sizeof(ebuf))) != NULL)
			errx(1, "%s: %s", files.v[i], e);
		if (mf.meta[MON_META_SATURATED] > 0)
			warnx("%s: %ld samples dropped at full bins: "
			    "times are low", files.v[i],
			    mf.meta[MON_META_SATURATED]);
		if (mf.meta[MON_META_LOST] > 0)
			warnx("%s: %ld samples lost by the kernel",
			    files.v[i], mf.meta[MON_META_LOST]);
		monread_close(&mf);
	}
	if (r.nfns == 0 && r.total == 0)
		warnx("%s: no call counts and no samples captured",
		    files.n == 1 ? files.v[0] : "profiles");
	/* gcc -flto makes local every function not needed outside prog. */
	if (!o.locals && r.cells_dropped > 0 &&
	    r.cells_dropped >= r.cells_used)
		warnx("%s: %zu of %zu call counts are in local functions, "
		    "not shown with -l", prog, r.cells_dropped,
		    r.cells_dropped + r.cells_used);
	if (o.format != 0)
		export_flat(&r, &o, stdout);
	else
		print_report(&r, &o, stdout);
	if (o.summary) {
		fflush(stdout);
		print_summary(&r, &o, stderr);
	}
	if (fflush(stdout) == EOF || ferror(stdout))
		err(1, "stdout");
	report_free(&r);
	symtab_close(&st);
	return 0;
}
