# 202-cxx: virtual calls, templates and exceptions in C++, exact counts
# at every -O level and with -flto (listed functions only: at -O0 the
# inline constructors are out of line and counted too, as with -pg).
CXX=$(echo "$CC" | sed 's/gcc/g++/')
cat > expect <<'X'
Add::op(int) const 15
Mul::op(int) const 15
catcher(int) 9
double twice<double>(double) 5
int twice<int>(int) 7
main 1
pick(Base const*, Base const*, int) 30
thrower(int) 9
X
for opt in -O0 -O1 -O2 -O3 -Os -Og "-O2 -flto" "-O2 -no-pie"; do
	"$CXX" -specs="$SPECS" -p -fchecking $opt "$E2E/202-cxx.cc" -o a.out
	./a.out > out || fail "$opt: run"
	expect_eq "$(cat out)" "761" "$opt: output"
	counts ./a.out | c++filt > all
	grep '^?' all && fail "$opt: a cell outside every function"
	while read -r line; do
		grep -Fqx "$line" all || {
			cat all
			fail "$opt: missing '$line'"
		}
	done < expect
done
