# 177-readme-demo: the README shows what `make demo` prints.  The demo
# (testsuite/demo/demo.sh) is run as make runs it, and its output is
# compared with the README's block under "`make demo` prints:": command
# lines, the program's output and prof's heading identical, and prof's
# rows, name and calls, the same set (times, percentages and msec/call
# masked, so the order, which follows the times, is too).  A row with
# no calls that the README lacks is allowed under 2 % of the time: a
# few samples in the PLT (<unknown>) or in ld.so come on some runs.
O=$O SRCDIR=$SRCDIR CC=$CC sh "$SRCDIR/testsuite/demo/demo.sh" > got ||
    fail "demo: status $?"
awk '/^`make demo` prints:$/ { on = 1; next }
    on && /^    / { print substr($0, 5); seen = 1; next }
    on && seen { exit }' "$SRCDIR/README.md" > want
[ -s want ] || fail "no demo block in README.md"
# norm FILE: the lines before prof's rows as they are; then each row as
# "calls name" ("- name" without calls) sorted by name, every field
# counted from the right end, as the columns are right-aligned.
norm() {
	awk '!rows { print; if ($1 == "%Time") rows = 1; next }
	    NF == 6 { print $4, $6; next }
	    NF == 4 { print "-", $4; next }
	    { print "bad row:", $0 }' "$1" > "$1.head"
	awk 'p { print } /^ %Time/ { p = 1 }' "$1.head" | sort -k2 > "$1.rows"
	awk '{ print } /^ %Time/ { exit }' "$1.head" > "$1.norm"
	cat "$1.rows" >> "$1.norm"
}
norm want
norm got
# Rows with no calls that only the run has, small ones, go.
extra=$(awk 'NR == FNR { if ($1 == "-") have[$2] = 1; next }
    /^ *[0-9.]+ +[0-9.]+ +[0-9.]+ +<[^ ]*>$/ && !($4 in have) &&
    $1 + 0 < 2.0 { print $4 }' want.rows got)
for name in $extra; do
	grep -v -x -F -e "- $name" got.norm > got.tmp || :
	mv got.tmp got.norm
done
expect_file want.norm got.norm
exit 0
