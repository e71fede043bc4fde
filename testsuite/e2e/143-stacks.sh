# 143-stacks: each sample keeps its call stack (unwound by the SFrame rows
# the specs file has the assembler write, 145, or by frame pointers where
# there are none), written in mon.out as STACK records:
# hot's time is two thirds under middle and a third under outer alone,
# and every stack goes up to main.  hot, a leaf that needs no stack, has
# no frame: its caller is the word at the stack pointer, which the perf
# records and the itimer handler take (without it, no sample was under
# middle).  So too in a thread that blocks every signal (perf), and
# under -pg; not with PROFFLAGS -nostacks.  prof -i, --format=csv, -G,
# --callgrind and --flame give the inclusive times that follow, right
# in a cycle of calls.
mp_cc -p -O2 -g -o a.out "$E2E/143-stacks.c" -pthread
mp_cc -pg -O2 -g -o pg.out "$E2E/143-stacks.c" -pthread

# check WHAT EXE: the stacks of mon.out, hot's under worker.
check() {
	stacks "$2" > folded
	expect_eq "$(meta 27)" 0 "$1: samples whose stack was lost"
	awk -v root=worker -v what="$1" '
	    { n = $NF; all += n; s = $1 }
	    s ~ ("(^|;)" root ";outer;middle;hot$") { mid += n }
	    s ~ ("(^|;)" root ";outer;hot$") { out += n }
	    END { hot = mid + out
		printf "%s: %d samples, %d under middle, %d under outer\n",
		    what, all, mid, out
		# Nearly all in hot, two thirds of that under middle.
		exit !(all >= 50 && hot >= all * 0.9 &&
		    mid >= hot * 0.5 && mid <= hot * 0.8) }' folded ||
	    { cat folded; fail "$1: stacks"; }
}

./a.out > out
check perf a.out
# prof: inclusive times, main's nearly all of it, middle's two thirds.
"$PROF" -i a.out > report 2> err
expect_file /dev/null err
cat report
head -1 report | grep -q ' %Incl Inclsec ' || fail "-i: no inclusive column"
"$PROF" --format=csv a.out > csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { incl[$1] = $col["inclusive"]; self[$1] = $col["seconds"]; t += $col["seconds"] }
    END { exit !(t > 0 && incl["main"] >= t * 0.9 && incl["outer"] >= t * 0.9 &&
	incl["middle"] >= t * 0.5 && incl["middle"] <= t * 0.8 &&
	incl["hot"] >= self["hot"]) }' csv || { cat csv; fail "csv inclusive"; }

# The timer gives fewer samples a second (the kernel's tick): more rounds.
# -G: outer's callees with the time under them, middle's two thirds.
"$PROF" -G a.out > graph
sed -n '/^outer: 200 calls, /,/^$/p' graph > outer
cat outer
grep -q '^outer: 200 calls, .* s inclusive (' outer || fail "-G: outer"
# (-p: no counts, the time before the name.)
awk '$NF == "middle" { m = $(NF - 2) } $NF == "hot" { h = $(NF - 2) }
    END { exit !(m + h > 0 && m >= (m + h) * 0.5 && m <= (m + h) * 0.8) }' \
    outer || fail "-G: the time under outer's calls"
"$PROF" -G --format=csv a.out > graph.csv
grep -q '^outer,,callee,middle,,,0\.[0-9]*$' graph.csv ||
    fail "-G csv: $(cat graph.csv)"

# --flame: the same chains in the flame graph, middle's two thirds.
"$PROF" --flame=app.svg a.out > /dev/null
grep -o '<title>[^<]*</title>' app.svg > titles
for f in main worker outer middle hot; do
	grep -q "<title>$f (" titles || { cat titles; fail "flame: no $f"; }
done
awk -F'[(,%]' '/<title>middle \(/ { p = $3 + 0 }
    END { exit !(p >= 50 && p <= 80) }' titles ||
    { cat titles; fail "flame: middle's share"; }

PROFFLAGS=-itimer ./a.out one 600 > out
expect_eq "$(meta 4)" 2 "-itimer: the sampler"
check itimer a.out

# Code built with frame pointers and without SFrame rows (by an
# assembler older than binutils 2.40, or by hand as here): the kernel's
# frame-pointer walk, and the itimer handler's.
"$CC" -fplugin="$O/monprof.so" -fplugin-arg-monprof-p -O2 -g \
    -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer -c -o fp.o \
    "$E2E/143-stacks.c"
mp_cc -p -o fp.out fp.o -pthread
readelf -lW fp.out | grep -q GNU_SFRAME && fail "fp.out has SFrame rows"
./fp.out > out
check perf-fp fp.out
PROFFLAGS=-itimer ./fp.out one 600 > out
check itimer-fp fp.out

./pg.out > out
check -pg pg.out

./a.out thread > out
if [ "$(meta 4)" = 2 ]; then
	echo "no perf_event here: a thread that blocks signals is not sampled"
else
	check thread a.out
fi

# A cycle: even and odd named as one in -G, each with all the time
# under it, once per sample however deep the recursion.  300 rounds: some
# 60 samples, so that one taken in the dynamic linker at start does not
# weigh.
./a.out cycle 300 > out
"$PROF" -G a.out > graph
grep -q '^even: 1200 calls, <cycle 1>, ' graph || { cat graph; fail "-G: even's cycle"; }
grep -q '^odd: 900 calls, <cycle 1>, ' graph || { cat graph; fail "-G: odd's cycle"; }
"$PROF" --format=csv a.out > csv
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { incl[$1] = $col["inclusive"]; t += $col["seconds"] }
    END { exit !(t > 0 && incl["odd"] >= t * 0.9 && incl["odd"] <= t * 1.01 &&
	incl["even"] >= t * 0.9 && incl["even"] <= t * 1.01) }' csv ||
    { cat csv; fail "cycle: inclusive"; }
# callgrind_annotate reads the same from the calls into each function.
if command -v callgrind_annotate > /dev/null 2>&1; then
	"$PROF" --callgrind=cg.out a.out > /dev/null
	mkdir elsewhere
	(cd elsewhere && callgrind_annotate --inclusive=yes ../cg.out) |
	    awk '/PROGRAM TOTALS/ { gsub(/,/, "", $1); t = $1 + 0 }
		/:odd / { gsub(/,/, "", $1); o = $1 + 0 }
		/:even / { gsub(/,/, "", $1); e = $1 + 0 }
		END { exit !(t > 0 && o >= t * 0.9 && o <= t && e >= t * 0.9 && e <= t) }' ||
	    fail "callgrind_annotate: the cycle's inclusive times"
fi

PROFFLAGS=-nostacks ./a.out > out
[ -z "$(meta 27)" ] || fail "-nostacks: stacks written"
[ -z "$(stacks a.out)" ] || fail "-nostacks: stacks written"
"$PROF" -i a.out > /dev/null 2> err
grep -q "no call stacks in the profile" err || fail "-nostacks: prof -i: $(cat err)"
true
