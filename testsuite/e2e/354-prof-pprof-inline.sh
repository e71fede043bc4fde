# 354-prof-pprof-inline: --pprof=FILE with code inlined from another
# file.  A location in hot(), a header's function inlined into step(),
# itself inlined into outer(), has three lines, innermost first, each
# function at its own file and line (the line table's for hot, the
# calls' for step and outer); pprof -list shows hot's lines in the
# header and outer's call in its file, -traces shows the chain; the
# same with -flto; with -pg a call from inlined code has the chain of
# its call site; without -g each location has its function alone.
# Skipped without go.
. "$E2E/300-prof.subr"
command -v go > /dev/null 2>&1 ||
    skip "go not found (golang-go): go tool pprof not run"
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"
export HOME="$T" GOCACHE="$T/gocache" PPROF_TMPDIR="$T"

src=354-prof-pprof-inline
cp "$E2E/$src.c" "$E2E/$src.h" .

# at FILE MARK: the number of the line of FILE that has MARK.
at() {
	grep -n -F "$2" "$1" | cut -d: -f1
}
HOT=$src.h:$(at $src.h '/* hot */')
STEP=$src.c:$(at $src.c '/* step calls hot */')
TICK=$src.c:$(at $src.c '/* step calls tick */')
OUTER=$src.c:$(at $src.c '/* outer calls step */')

# chains FILE: each location of FILE, "address: function file:line, ..."
# (innermost first, this directory's files by their names).
chains() {
	go tool pprof -raw "$1" 2>/dev/null | awk '
	    /^Locations/ { on = 1; next }
	    /^Mappings/ { on = 0 }
	    !on { next }
	    $1 ~ /^[0-9]+:$/ { if (c != "") print c; c = $2 ": " $4 " " $5
		next }
	    { c = c ", " $1 " " $2 }
	    END { if (c != "") print c }' | sed "s|$PWD/||g"
}

mp_cc -p -O2 -g -o inl $src.c
./inl
"$PROF" --pprof=p.pb.gz inl > /dev/null
chains p.pb.gz > all

# The hot line's locations (one per address sampled there): hot, step
# and outer, each at its own line.
grep " hot $HOT," all | sed 's/^[^ ]* //' | sort -u > got
echo "hot $HOT, step $STEP, outer $OUTER" > want
expect_file want got
# Every location in hot has the same callers.
grep ': hot ' all | sed 's/^[^ ]* hot [^ ]*, //' | sort -u > got
echo "step $STEP, outer $OUTER" > want
expect_file want got

# -list hot: the header's lines, time on the hot line; -list outer: the
# time inlined at its call of step.
go tool pprof -list '^hot$' p.pb.gz 2>/dev/null > list
expect_eq "$(awk '/^ROUTINE/ { print $NF }' list)" "$PWD/$src.h" \
    "-list hot: its file"
awk -v l="${HOT##*:}:" '$3 == l { print $1 }' list > got
[ -s got ] || fail "-list hot: no line ${HOT##*:}"
[ "$(cat got)" != "." ] || fail "-list hot: no time on the hot line"
go tool pprof -list '^outer$' p.pb.gz 2>/dev/null > list
expect_eq "$(awk '/^ROUTINE/ { print $NF }' list)" "$PWD/$src.c" \
    "-list outer: its file"
awk -v l="${OUTER##*:}:" '$3 == l { print $1, $2 }' list > got
[ -s got ] || fail "-list outer: no line ${OUTER##*:}"
[ "$(awk '{ print $2 }' got)" != "." ] ||
    fail "-list outer: no time under the call of step"

# -traces: the stacks of the hot line, inlined frames marked, to outer
# (its callers are the stacks' case).  Each frame from the 14th column,
# after the value.
go tool pprof -traces p.pb.gz 2>/dev/null | awk '
    /^-/ { if (t != "") print t; t = ""; next }
    t != "" { t = t " / " substr($0, 14) }
    t == "" && /^ +[0-9]/ { t = substr($0, 14) }
    END { if (t != "") print t }' | grep '^hot' |
    sed 's|\(/ outer\) / .*|\1|' | sort -u > got
echo "hot (inline) / step (inline) / outer" > want
expect_file want got

# -flto: the inlined functions' definitions are in another unit of the
# DWARF (the compile-time one) than their inlined calls: the same chain.
mp_cc -p -O2 -g -flto -o inllto $src.c
./inllto
"$PROF" --pprof=l.pb.gz inllto > /dev/null
chains l.pb.gz | grep ': hot ' | sed 's/^[^ ]* hot [^ ]*, //' | sort -u > got
echo "step $STEP, outer $OUTER" > want
expect_file want got

# -pg: tick's call, from step's code in outer, is a location with step
# at the call and outer at its call of step.
mp_cc -pg -O2 -g -o inlpg $src.c
./inlpg
"$PROF" --pprof=g.pb.gz inlpg > /dev/null
chains g.pb.gz > all
grep -q " hot $HOT, step $STEP, outer $OUTER\$" all ||
    fail "-pg: no location of the hot line with its chain"
# (One location or more: the arc's return address, and a sample on the
# call's line, such as in the announcement before it, if one fell there.)
grep ": step " all | sed 's/^[^ ]* //' | sort -u > got
echo "step $TICK, outer $OUTER" > want
expect_file want got
go tool pprof -sample_index=calls -peek '^tick$' g.pb.gz 2>/dev/null |
    awk 'NF == 4 && $3 == "|" { print $NF, $1 }' > got
expect_eq "$(cat got)" "step 400" "-peek tick: its caller"

# Without -g: each location is its function's alone, as before.
rm gmon.out
mp_cc -p -O2 -o inl $src.c
./inl
"$PROF" --pprof=n.pb.gz inl > /dev/null
go tool pprof -raw n.pb.gz 2>/dev/null | awk '/^Locations/ { on = 1; next }
    /^Mappings/ { on = 0 } on' > locs
[ -s locs ] || fail "no -g: no locations"
awk '$1 !~ /^[0-9]+:$/' locs > got
[ ! -s got ] || fail "no -g: inlined lines: $(cat got)"
awk '$4 == "outer"' locs | grep -q . || fail "no -g: outer has no location"
