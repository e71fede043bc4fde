/*
 * 365-merge-add: adds each profile named after the first argument into
 * the merged profile the first names, and with -g each one's gmon.out
 * (its name and .gmon) beside it, as PROFFLAGS -merge adds a process's
 * own at its exit (runtime/merge.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int __mon_merge_file(const char *, int, int);

int
main(int argc, char **argv)
{
	char gmon[4096];
	int i = 1, fd, gfd = -1, g = 0;

	if (argc > 1 && strcmp(argv[1], "-g") == 0) {
		g = 1;
		i++;
	}
	for (i++; i < argc; i++) {
		if ((fd = open(argv[i], O_RDONLY)) < 0) {
			perror(argv[i]);
			return 1;
		}
		snprintf(gmon, sizeof(gmon), "%s.gmon", argv[i]);
		if (g && (gfd = open(gmon, O_RDONLY)) < 0) {
			perror(gmon);
			return 1;
		}
		if (__mon_merge_file(argv[1 + g], fd, gfd) != 0)
			return 1;
		close(fd);
		if (gfd >= 0)
			close(gfd);
	}
	return 0;
}
