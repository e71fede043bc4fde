__attribute__((noinline, noclone)) int
lib_f(int x)
{
	__asm__ volatile("");
	return x * 2;
}

__attribute__((noinline, noclone)) int
lib_g(int x)
{
	__asm__ volatile("");
	return lib_f(x) + 1;
}
