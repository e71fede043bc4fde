/*
 * 421-stacks-libs: main -> sorting -> lib_sort (libl.so) -> qsort (the C
 * library) -> lib_cmp (libl.so); main -> viamod -> lib_viamod (libl.so),
 * which dlopen()s argv[1] and calls its mod_fill -> memset (the C
 * library).  argv[2]: the seconds of each (default 0.5).
 */
#include <stdlib.h>

void lib_sort(double);
void lib_viamod(const char *, double);

static volatile int sink;

__attribute__((noinline)) void
sorting(double secs)
{
	lib_sort(secs);
	sink++;
}

__attribute__((noinline)) void
viamod(const char *path, double secs)
{
	lib_viamod(path, secs);
	sink++;
}

int
main(int argc, char **argv)
{
	double secs = argc > 2 ? atof(argv[2]) : 0.5;

	sorting(secs);
	viamod(argc > 1 ? argv[1] : "./mod.so", secs);
	return 0;
}
