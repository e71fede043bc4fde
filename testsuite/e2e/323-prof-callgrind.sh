# 323-prof-callgrind: --callgrind=FILE as callgrind_annotate reads it:
# each function's time (ns) and calls are prof's report's, each line's
# time is on its source line, and -pg's arcs are calls= lines with the
# exact counts (their inclusive costs gprof's estimate).  Skipped
# without callgrind_annotate (valgrind).
. "$E2E/300-prof.subr"
command -v callgrind_annotate > /dev/null 2>&1 ||
    skip "callgrind_annotate not found (valgrind): not run"
mkdir elsewhere

# cga FILE [ARGS]: "name ns calls" per function of callgrind_annotate's
# listing (run elsewhere: it shortens the paths below its directory), by
# name.
cga() {
	_f=$1
	shift
	(cd elsewhere && callgrind_annotate --threshold=100 "$@" "../$_f") |
	    awk '/file:function/ { f = 1; getline; next }
		f && NF == 0 { exit }
		f { l = $0; gsub(/\( *[0-9.]*%\)/, "", l); n = split(l, v, " ")
		    name = v[3]; for (i = 4; i <= n; i++) name = name " " v[i]
		    sub(/ \[[^]]*\]$/, "", name); sub(/^[^:]*:/, "", name)
		    gsub(/,/, "", v[1]); gsub(/,/, "", v[2])
		    print name, v[1] == "." ? 0 : v[1], v[2] == "." ? 0 : v[2] }' |
	    sort
}

# The reference profile, exact: the functions, ns and calls of prof -C.
sample
standard | "$MKMON" mon.out
"$PROF" --callgrind=cg.out sample > /dev/null
"$PROF" -C -h sample | cut -c9-15,24-31,45- |
    awk '{ n = $3; for (i = 4; i <= NF; i++) n = n " " $i; sub(/,.*/, "", n)
	printf "%s %.0f %d\n", n, $1 * 1e9, ($2 == "" ? 0 : $2) }' |
    sort > want
cga cg.out > got
expect_file want got

# A -pg run: the calls of each function, and the arcs as calls= lines.
mp_cc -pg -O1 -g -o cg "$E2E/320-prof-callgraph.c"
./cg
"$PROF" --callgrind=c.out cg > /dev/null
"$PROF" -h cg | awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' | sort > want
cga c.out | awk '$3 != 0 { print $1, $3 }' > got
expect_file want got
(cd elsewhere && callgrind_annotate --threshold=100 ../c.out) |
    grep '=>' | sed 's/.*=> [^ ]*:\([^ ]*\) (\([0-9,]*\)x)/\1 \2/' |
    sort > got
printf '%s\n' "fib 1" "fib 176" "leaf 1" "leaf 1,000" "work 10" > want
expect_file want got
# Inclusive calls: main's own, work's 10 and their 1,000 leaf calls,
# leaf's 1, fib's 177.
cga c.out --inclusive=yes | awk '$1 == "main" { print $3 }' > got
expect_eq "$(head -n 1 got)" 1189 "main's inclusive calls"

# The hot line's time is on its line; main's inclusive time is its
# own, run's and spin's (nearly all spin's; a sample may land in run's
# loop between two calls).
cp "$E2E/318-prof-lines.c" hot.c
mp_cc -pg -O1 -g -o hot hot.c
./hot
"$PROF" --callgrind=h.out hot > /dev/null
(cd elsewhere && callgrind_annotate --threshold=100 ../h.out "$T/hot.c") |
    awk '/\/\* hot \*\/$/ { print $1 }' > got
[ "$(tr -d , < got)" -gt 0 ] || fail "no time on the hot line: $(cat got)"
selfs=$(cga h.out | awk '$1 ~ /^(main|run|spin)$/ { n += $2 } END { print n }')
main=$(cga h.out --inclusive=yes | awk '$1 == "main" { print $2; exit }')
expect_eq "$main" "$selfs" "main's inclusive time"
