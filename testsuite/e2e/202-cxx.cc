/*
 * 202-cxx: C++ virtual calls, template instances and exceptions are
 * counted exactly, as out-of-line entries.
 */
#include <cstdio>
#include <stdexcept>

#define N	__attribute__((noinline, noclone))

struct Base {
	virtual int op(int x) const = 0;
	virtual ~Base() {}
};
struct Add : Base {
	int op(int x) const override;
};
struct Mul : Base {
	int op(int x) const override;
};

N int Add::op(int x) const { asm volatile(""); return x + 1; }
N int Mul::op(int x) const { asm volatile(""); return x * 2; }

template<typename T> N T
twice(T x)
{
	asm volatile("");
	return x + x;
}

N int
thrower(int i)
{
	if (i % 3 == 0)
		throw std::runtime_error("three");
	asm volatile("");
	return i;
}

N int
catcher(int i)
{
	try {
		return thrower(i);
	} catch (const std::exception &) {
		return -1;
	}
}

N const Base *
pick(const Base *a, const Base *b, int i)
{
	asm volatile("" : "+r"(a), "+r"(b));	/* no devirtualisation */
	return i % 2 ? b : a;
}

int
main()
{
	Add a;
	Mul m;
	long s = 0;
	int i;

	for (i = 0; i < 30; i++)
		s += pick(&a, &m, i)->op(i);
	for (i = 0; i < 7; i++)
		s += twice<int>(i);
	for (i = 0; i < 5; i++)
		s += (long)twice<double>(i);
	for (i = 0; i < 9; i++)
		s += catcher(i);
	std::printf("%ld\n", s);
	return 0;
}
