# 416-gen-counts: random programs that count their own calls
# (testsuite/tools/gencalls.c), each built with -p, -pg and the
# reference and run: countcheck.sh checks that the three print the
# same, that prof (and gprof) give every counted function the program's
# own count, and every function the reference's.  A difference fails the
# case with countcheck's lines, "seed S (flags): NAME: -p X, -pg Y,
# reference Z"; `sh testsuite/tools/countcheck.sh S DIR` checks one
# again (make fuzz-counts runs many more).
#
# The seeds: the cheapest set that has every level in C and in C++,
# every feature in each language and each extra flag (a greedy cover of
# seeds 1-3000, by the size of their sources, C++ and -flto weighed
# more), and those that found issue 35's bugs in 8ee68c9: 1288, 1417
# and 23 (-p and -pg lost calls of a global function that its unit
# inlines), 65 (a virtual one's, through the vtable), 82 (a hidden one
# of an executable built -fPIC, under -pg), 1288 and 1580 (a group
# counted the calls after a callee that faults), 20 (after one that
# longjmps).  Checked first: gencalls still writes programs that cover
# all of it, or the list must be chosen again.
SEEDS="2024 2316 2011 2617 1288 2894 1174 2532 1417 916 702 1459 1833 1433
    2857 1329 1932 105 1580 810 20 23 65 82"
CHECK=$SRCDIR/testsuite/tools/countcheck.sh
GEN=$O/testsuite/tools/gencalls

mkdir gen run
for s in $SEEDS; do
	"$GEN" "$s" "gen/$s" || fail "gencalls $s"
	sed -n "s/^features='\(.*\)'$/\1/p" "gen/$s/build.args" >> features
done
awk '{ for (i = 2; i <= NF; i++) print $1 "/" $i }' features | sort -u > covered
for l in c c++; do
	for x in O0 O1 O2 O3 Os lto pic pie nopie static link inline comdat \
	    tail getshort rec table libc setjmp signal fault threads; do
		echo "$l/$x"
	done
done > want
printf '%s\n' c++/exc c++/virt c++/tmpl >> want
sort -o want want
missing=$(comm -23 want covered | tr '\n' ' ')
[ -z "$missing" ] || fail "the seeds no longer cover $missing(gencalls" \
    "changed: choose them again)"

REFFLAGS=$(sh "$CHECK" --refflags) || fail "countcheck --refflags"
export REFFLAGS
for s in $SEEDS; do
	sh "$CHECK" "$s" "run/$s" >> differences 2>&1 || echo "$s" >> failed
done
if [ -s differences ] || [ -s failed ]; then
	fail "$(cat differences)
seeds that differ: $(tr '\n' ' ' < failed)"
fi
exit 0
