/* 356-prof-demangle-default: a C++ and a Rust v0 symbol, called 5 and 3 times. */
int rs(int) __asm__("_RNvCs15kBYyAo9fc_7mycrate4spin");
int cx(int) __asm__("_ZN2ns3fooEi");

__attribute__((noinline)) int
rs(int x)
{
	return x * 3;
}

__attribute__((noinline)) int
cx(int x)
{
	return x + 1;
}

int
main(void)
{
	int i, s = 0;

	for (i = 0; i < 3; i++)
		s += rs(i);
	for (i = 0; i < 5; i++)
		s += cx(i);
	return s == 0;
}
