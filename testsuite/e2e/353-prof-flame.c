/* SPDX-License-Identifier: MIT */
/*
 * 353-prof-flame.c - flame_svg() (prof/flame.c) from the command line,
 * until prof writes flame graphs itself: reads stacks folded as
 * flamegraph.pl reads them, "root;callee;...;leaf SECONDS" a line, and
 * writes the SVG, titled argv[1], to standard output.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "views.h"

int
main(int argc, char **argv)
{
	struct flamestack *s = NULL;
	size_t n = 0, cap = 0, ncap = 0, len = 0, i;
	char *line = NULL, *p, *sp, **name;

	while (getline(&line, &len, stdin) > 0) {
		line[strcspn(line, "\n")] = '\0';
		if ((sp = strrchr(line, ' ')) == NULL)
			errx(1, "no value: %s", line);
		*sp++ = '\0';
		if (prof_grow(&s, &cap, n + 1, sizeof(*s)) != 0)
			err(1, NULL);
		name = NULL;
		s[n].depth = 0;
		ncap = 0;
		for (p = line; p != NULL && *line != '\0'; ) {
			if (prof_grow(&name, &ncap, s[n].depth + 1,
			    sizeof(*name)) != 0 || (name[s[n].depth++] =
			    strdup(strsep(&p, ";"))) == NULL)
				err(1, NULL);
		}
		s[n].name = (const char *const *)name;
		s[n++].value = strtod(sp, NULL);
	}
	if (flame_svg(stdout, argc > 1 ? argv[1] : NULL, s, n) != 0)
		err(1, "stdout");
	for (i = 0; i < n; i++) {
		while (s[i].depth-- > 0)
			free((char *)s[i].name[s[i].depth]);
		free((void *)s[i].name);
	}
	free(s);
	free(line);
	return 0;
}
