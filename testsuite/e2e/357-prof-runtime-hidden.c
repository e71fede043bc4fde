/* 357-prof-runtime-hidden: a program with the runtime linked in. */
static volatile int sink;

__attribute__((noinline)) static void
work(int n)
{
	int i;

	for (i = 0; i < n; i++)
		sink += i;
}

int
main(void)
{
	work(1000);
	return 0;
}
