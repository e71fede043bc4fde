/* SPDX-License-Identifier: MIT */
/*
 * progress.c - one line on stderr while prof reads many profiles (the
 * PROFDIR of a server's hundreds of processes, each read once:
 * profiles.c): shown on a terminal only, once reading has taken a
 * second, redrawn at most ten times a second, and erased before any
 * warning and when reading ends, so that a quick run, a report piped
 * or redirected, and the warnings are never touched.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static struct {
	size_t	 done, total;
	double	 start, last;
	int	 tty, shown;
} pg;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* total files are about to be read. */
void
progress_begin(size_t total)
{
	pg.done = 0;
	pg.total = total;
	pg.tty = total > 1 && isatty(STDERR_FILENO);
	pg.start = pg.last = now();
	pg.shown = 0;
}

/* One more file read. */
void
progress_step(void)
{
	double t;

	if (pg.done < pg.total)
		pg.done++;
	if (!pg.tty)
		return;
	t = now();
	if (t - pg.start < 1.0 || (pg.shown && t - pg.last < 0.1))
		return;
	/* The cursor left at the start: a message that exits writes over. */
	fprintf(stderr, "prof: reading profiles: %zu%% (%zu of %zu reads)\r",
	    100 * pg.done / pg.total, pg.done, pg.total);
	pg.shown = 1;
	pg.last = t;
}

/* Erase the line. */
static void
clear(void)
{
	if (pg.shown)
		fputs("\033[K", stderr);
	pg.shown = 0;
}

void
progress_end(void)
{
	clear();
	pg.tty = 0;
}
