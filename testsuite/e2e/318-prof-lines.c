/*
 * 318-prof-lines: a program with one hot line (in spin), for prof -L
 * and -A.
 */
static volatile unsigned long sink;

static void __attribute__((noinline))
spin(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = (x ^ i) / 3 + x / (i | 1) + (x * 7) % 13 + 1;	/* hot */
	sink = x;
}

void __attribute__((noinline))
run(int reps)
{
	int k;

	for (k = 0; k < reps; k++)
		spin(200000);
}

int
main(int argc, char **argv)
{
	(void)argv;
	run(argc * 400);
	return 0;
}
