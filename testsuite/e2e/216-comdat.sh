# 216-comdat: C++ inline functions and templates are emitted in every
# unit that uses them, in COMDAT groups of which the linker keeps one.
# -p's record of such a function (hook ABI 3, section __mon_pcells) is
# in the function's group, so it goes with the copy the linker drops
# (it named the dropped section: "defined in discarded section", the
# link of jsoncpp's tests failed); -pg does not count at the call sites
# a static function that GCC moved into a group.  Exact counts, -p and
# -pg, -O2 and -O0.
CXX=$(echo "$CC" | sed 's/gcc/g++/')
cat > h.h <<'X'
#include <sstream>
#include <string>
inline __attribute__((noinline)) int shared(int x) { return x * 3 + 1; }
template <class T> __attribute__((noinline)) T twice(T x) { return x + x; }
static __attribute__((noinline)) int helper(int x) { return x ^ 5; }
inline __attribute__((noinline)) int uses(int x) { return helper(x) + helper(x + 1); }
int a(int);
int b(int);
X
for u in a b; do
	cat > $u.cc <<X
#include "h.h"
int $u(int x) { std::ostringstream s; s << x;
	return shared(x) + twice(x) + uses(x) + (int)s.str().size(); }
X
done
cat > m.cc <<'X'
#include <cstdio>
#include "h.h"
int main() { int s = 0; for (int i = 0; i < 10; i++) s += a(i) + b(i);
	std::printf("%d\n", s); }
X
"$CXX" -O2 a.cc b.cc m.cc -o plain
./plain > want.out
for m in -p -pg; do
	for opt in -O2 -O0; do
		for u in a b m; do
			"$CXX" -specs="$SPECS" $m $opt -c $u.cc -o $u.o ||
			    fail "$m $opt: compile $u"
		done
		"$CXX" -specs="$SPECS" $m $opt a.o b.o m.o -o prog 2> err ||
		    fail "$m $opt: link: $(cat err)"
		./prog > got.out || fail "$m $opt: status $?"
		expect_file want.out got.out
		counts ./prog | c++filt | grep -E '^(shared|int twice<int>|helper|uses|a|b)\(' > got
		printf '%s\n' "a(int) 10" "b(int) 10" "helper(int) 40" \
		    "int twice<int>(int) 20" "shared(int) 20" "uses(int) 20" |
		    sort > want
		sort got > got2
		expect_file want got2
	done
done
exit 0
