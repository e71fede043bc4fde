/*
 * 132-setuid: f is called 3 times; with "ask" as argv[1] the program
 * asks to be profiled itself, with monstartup(0, 0) first.  With "wait"
 * it reads a line from stdin before it returns.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../tools/hooks.h"

static volatile int sink;

COUNTED static void
f(void)
{
	MON_COUNT();
	sink++;
}

int
main(int argc, char **argv)
{
	char line[8];
	int i;

	if (argc > 1 && strcmp(argv[1], "ask") == 0 &&
	    monstartup(NULL, NULL) != 0)
		return 2;
	for (i = 0; i < 3; i++)
		f();
	if (argc > 1 && strcmp(argv[1], "wait") == 0 &&
	    read(STDIN_FILENO, line, sizeof(line)) < 0)
		return 3;
	printf("done\n");
	return 0;
}
