/* 418-profdir-moves: leaf's 321 calls after the program leaves the
 * directory it started in: by chdir("/"), or by daemon(0, 0), which
 * changes to / in a child that goes on alone. */
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) static int
leaf(int x)
{
	return x * 3 + 1;
}

int
main(int argc, char **argv)
{
	int s = 0;

	if (argc > 1 && strcmp(argv[1], "daemon") == 0) {
		if (daemon(0, 0) != 0)
			return 1;
	} else if (chdir("/") != 0)
		return 1;
	for (int i = 0; i < 321; i++)
		s += leaf(i);
	return s == 0;
}
