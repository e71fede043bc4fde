/* SPDX-License-Identifier: MIT */
/*
 * so_main.c - the executable of bench's "-so" variants: the workload is
 * a shared object whose main is bench_main, so its calls are a module's.
 */
int bench_main(int argc, char **argv);

int
main(int argc, char **argv)
{
	return bench_main(argc, argv);
}
