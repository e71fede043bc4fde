#!/bin/sh
# run.sh [PROJECT...] - the real-program suite: open-source projects,
# fetched as Debian source packages, each built by its own build system
# four times (plain -O2, -p, -pg, and the reference: -p with REF_ARG)
# with the flags its users would give.  For -p and -pg its test suite
# and a workload run with PROFDIR set, and every profile must be
# complete and read by prof (and gprof); the workload must print what
# the plain build prints, put its known hot function at the top and
# count the same calls in two runs.  The reference build counts one
# call at each out-of-line entry of a function and nothing else, which
# is what prof's calls column promises: every function's calls in the
# deterministic workload under -p, and under -pg in prof and in gprof,
# must be the reference's (check_ref).  A project is PASS, FAIL or SKIP
# (sources or tools missing); exit 1 if any FAILs.  Outputs and the
# source cache are under $O/real.
set -u
LC_ALL=C
export LC_ALL
: "${O:?O must name the build directory}" "${SRCDIR:?}" "${CC:=gcc}"
# The C++ compiler of the same GCC: gcc-12 -> g++-12.
: "${CXX:=$(echo "$CC" | sed 's/gcc\([^/]*\)$/g++\1/')}"
: "${JOBS:=2}"
REAL=$SRCDIR/testsuite/real
R=$O/real
CACHE=$R/src
DATA=$R/data
SPECS=$O/monprof.specs
PROF=$O/prof
# The reference build's plugin argument: a counter at each entry,
# nothing else (no groups, no call-site counting).
: "${REF_ARG:=-fplugin-arg-monprof-reference}"
export O SRCDIR CC CXX JOBS REAL DATA SPECS
unset PROFDIR PROFFLAGS GMON_OUT_PREFIX
. "$REAL/lib.sh"

# Known monprof failures, in one place; a check that meets one is XFAIL
# and fails once it passes.  Processes killed by these signals leave no
# profile (none now: SIGPIPE was one, zstd's tests meet it).
XFAIL_KILLED=

if [ $# -gt 0 ]; then
	projects=$*
else
	projects=$(cd "$REAL" && ls *.sh | sed -e 's/\.sh$//' \
	    -e '/^lib$/d' -e '/^run$/d' -e '/^step$/d')
fi
for p in $projects; do
	[ -f "$REAL/$p.sh" ] || { echo "real: no project $p" >&2; exit 2; }
done
mkdir -p "$R" "$CACHE" "$DATA"
rm -f "$R"/*.skip

# A variable of a project script.
pvar() {
	(. "$REAL/$1.sh" && eval "echo \"\${$2:-}\"")
}

# ---------------------------------------------------------------- tools
# What the projects' build systems need; installed when root, as `make
# deps` does, otherwise the command is printed and those projects skip.
have() { command -v "$1" > /dev/null 2>&1; }
havepkg() { dpkg -s "$1" 2>/dev/null | grep -q '^Status: install ok'; }
# missing PROJECT: the Debian packages of its TOOLS that are not there,
# and of its PKGS (the libraries its build uses, where its plain build
# would otherwise leave parts out), one a line.
missing() {
	for t in $(pvar "$1" TOOLS); do
		have "$t" || tool_pkg "$t"
	done
	for k in $(pvar "$1" PKGS); do
		havepkg "$k" || echo "$k"
	done
}
need=$(for p in $projects; do missing "$p"; done)
# strace proves that every process left a profile; optional.
have strace || need="$need strace"
pkgs=$(printf '%s\n' $need | sort -u | tr '\n' ' ')
if [ -n "$need" ]; then
	if [ "$(id -u)" = 0 ] && have apt-get; then
		echo "real: installing: apt-get install -y $pkgs"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs \
		    > "$R/apt.log" 2>&1 || {
			DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			    $pkgs; } >> "$R/apt.log" 2>&1
	fi
fi
for p in $projects; do
	miss=$(missing "$p" | tr '\n' ' ' | sed 's/^/ /; s/ $//')
	[ -z "$miss" ] ||
	    echo "needs$miss: run: sudo apt-get install -y$miss" > "$R/$p.skip"
done
STRACE=0
have strace &&
    strace -f -qq --seccomp-bpf -e trace=execve -o /dev/null true \
    > /dev/null 2>&1 && STRACE=1
[ $STRACE = 1 ] || echo "real: strace unusable: not checking that every" \
    "process left a profile (apt-get install strace)"

# ---------------------------------------------------------------- fetch
# Sources come once into $CACHE; a failure skips, never passes.
fetch_all() {
	failed=
	for p in $projects; do
		[ -f "$R/$p.skip" ] && continue
		fetch "$(pvar "$p" PKG)" || failed="$failed $p"
	done
}
fetch_all
if [ -n "$failed" ] && [ "$(id -u)" = 0 ]; then
	# Sources lists may predate the deb-src line.
	DEBIAN_FRONTEND=noninteractive apt-get update -qq > /dev/null 2>&1
	fetch_all
fi
if [ -n "$failed" ]; then
	why=$(fetch_reason)
	echo "SKIP fetch: cannot fetch the Debian sources (${why:-see" \
	    "$CACHE/dl/*.log}); skipped:$failed"
	for p in $failed; do
		echo "sources not fetched" > "$R/$p.skip"
	done
fi

# Workload inputs, in files: a pipe's partial reads would vary the calls.
if [ ! -s "$DATA/text.2M" ]; then
	gen_text "$DATA/text" 16000000
	head -c 8000000 "$DATA/text" > "$DATA/text.8M"
	head -c 4000000 "$DATA/text" > "$DATA/text.4M"
	head -c 2000000 "$DATA/text" > "$DATA/text.2M"
fi
[ -s "$DATA/json" ] || gen_json "$DATA/json" 60000

# ---------------------------------------------------------------- one mode
# run_mode: build, test and run the workload of $NAME in $MODE.
run_mode() {
	case $MODE in
	plain)	PF= ;;
	p)	PF="-specs=$SPECS -p" ;;
	pg)	PF="-specs=$SPECS -pg" ;;
	ref)	PF="-specs=$SPECS -p $REF_ARG" ;;
	esac
	M=$R/$NAME/$MODE
	SRC=$M/src
	B=$M/build
	[ "${INTREE:-0}" = 1 ] && B=$SRC
	export SRC B
	mkdir -p "$M" "$B"
	cp -Rp "$CACHE/$PKG/." "$SRC"
	echo "  $NAME $MODE: building"
	t=$(now)
	(cd "$B" && build "$PF") > "$M/build.log" 2>&1
	rc=$?
	result build_time "$(elapsed "$t")"
	if [ $rc != 0 ]; then
		result build FAIL
		problem "build failed, exit $rc (log: $M/build.log)"
		tail -n 20 "$M/build.log" | sed 's/^/      /'
		return
	fi
	result build ok
	np=0
	# The reference is for the workload's counts alone.
	if [ "$MODE" = p ] || [ "$MODE" = pg ]; then
		echo "  $NAME $MODE: test suite"
		mkdir "$M/prof.check"
		(cd "$B" && PROFDIR=$M/prof.check &&
		    export PROFDIR && traced "$M/exec.check" check) \
		    > "$M/check.log" 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			result tests ok
		else
			result tests FAIL
			problem "test suite failed, exit $rc" \
			    "(log: $M/check.log)"
			tail -n 20 "$M/check.log" | sed 's/^/      /'
		fi
		scan_exes "$B" > "$M/exes"
		check_profiles "$M/prof.check" "$M/exec.check"
		np=$(cat "$M/nprof")
		[ "$np" -gt 0 ] || problem "the test suite left no profile"
	fi

	echo "  $NAME $MODE: workload"
	wok=ok
	if [ "$MODE" = ref ]; then
		# Only the run whose counts check_ref compares.
		run_work "$(ref_work)" "$(ref_tag)"
		result work $wok
		result profiles "$np"
		check_stray
		return 0
	fi
	run_work workload run1
	result time "$(cat "$M/wall.run1")"
	# A one-thread variant, where there is one, gives the exact counts.
	one=
	command -v workload_1t > /dev/null && one=one
	[ -z "$one" ] || run_work workload_1t one1
	[ "$MODE" = plain ] && { result work $wok; perf_incl; return 0; }
	run_work workload run2
	[ -z "$one" ] || run_work workload_1t one2
	result work $wok
	result profiles "$np"
	check_top "${one:-run}"
	check_merge
	check_incl
	check_stray
	return 0
}

# check_merge: the deterministic workload (ref_work) run twice with
# PROFFLAGS=-merge leaves one merged.<prog>, whose calls are those of two
# runs apart summed, in prof and, under -pg, in gprof from
# merged.<prog>.gmon (PROFFLAGS -merge, issue 37).  The runs apart have
# an environment and directories of the same lengths (PROFFLAGS="-pids "
# for -merge): CPython counts a call for each word of its environment.
check_merge() {
	w=$(ref_work)
	for t in A B; do
		flags="-pids "
		[ $t = B ] && flags=-merge
		mkdir -p "$M/work.mrg$t" "$M/prof.mrg$t"
		for i in 1 2; do
			(cd "$M/work.mrg$t" && PROFDIR=$M/prof.mrg$t &&
			    PROFFLAGS=$flags && export PROFDIR PROFFLAGS &&
			    "$w") > "$M/out.mrg$t" 2> "$M/err.mrg$t" ||
			    { problem "$w with PROFFLAGS='$flags' failed," \
			    "exit $?: $(head -n 3 "$M/err.mrg$t")"; return 0; }
		done
	done
	mf=$M/prof.mrgB/merged.$WORK_PROG
	if [ ! -f "$mf" ] || ls "$M/prof.mrgB" | grep -q '^[0-9]'; then
		problem "PROFFLAGS=-merge left $(ls "$M/prof.mrgB" |
		    tr '\n' ' '): $(head -n 3 "$M/err.mrgB")"
		return 0
	fi
	exe=$(exe_for "$mf")
	prof_rows "$exe" "$mf" | awk -F '\t' '$2 != "" { print $1 "\t" $2 }' |
	    sort > "$M/counts.merge"
	prof_rows "$exe" "$M/prof.mrgA"/*."$WORK_PROG" |
	    awk -F '\t' '$2 != "" { print $1 "\t" $2 }' | sort > "$M/counts.sum"
	cmp -s "$M/counts.merge" "$M/counts.sum" ||
	    problem "-merge's calls are not the two runs' summed:" \
	    "$(diff "$M/counts.sum" "$M/counts.merge" | grep '^[<>]' |
	    head -n 4 | tr '\n' ' ')"
	echo "  $NAME $MODE: -merge: $(wc -l < "$M/counts.merge") functions'" \
	    "calls, the two runs' summed"
	[ "$MODE" = pg ] || return 0
	gprof_rows "$exe" "$mf.gmon" | awk -F '\t' '$2 != "" {
	    print $1 "\t" $2 }' | sort > "$M/gcounts.merge"
	gprof_rows "$exe" "$M/prof.mrgA"/*."$WORK_PROG".gmon |
	    awk -F '\t' '$2 != "" { print $1 "\t" $2 }' | sort \
	    > "$M/gcounts.sum"
	cmp -s "$M/gcounts.merge" "$M/gcounts.sum" ||
	    problem "-merge's gmon.out calls are not the two runs' summed"
	return 0
}

# check_stray: configure's and the build's own programs must leave no
# profile in the tree.
check_stray() {
	find "$SRC" "$B" -name mon.out -o -name gmon.out -o -name '*.tmp' \
	    > "$M/stray"
	[ -s "$M/stray" ] && problem "profiles left in the tree:" \
	    "$(head -n 3 "$M/stray" | tr '\n' ' ')"
	return 0
}

# ref_work, ref_tag: the workload whose counts check_ref compares, and
# its run's tag: the one-thread variant where there is one, as only it
# makes the same calls in every run (zstd's and xz's workers take work
# as timing gives it; CPython's full workload imports every module, and
# some hash by address), else the workload, which is deterministic
# (check_top compares its two runs' counts).
ref_work() {
	if command -v workload_1t > /dev/null; then
		echo workload_1t
	else
		echo workload
	fi
}
ref_tag() {
	if command -v workload_1t > /dev/null; then
		echo one1
	else
		echo run1
	fi
}

# check_ref: every function's calls in the compared run, -p's in prof,
# -pg's in prof (its arcs summed) and in gprof, are the reference
# build's; a function one side lacks has 0 calls there.  Each build is
# read with its own executable and the shared objects its profile
# names, and a function of an object is compared with the same object's
# (prof_counts).  gprof's gmon.out holds the executable only, whose
# functions gprof_names gathers into gprof's rows, as gprof drops some
# symbols' names and counts their calls under the function below.  The
# first 20 differences, the largest first, are problems each; the rest
# are counted, and all are in ref/diff.{p,pg,gprof}.
check_ref() {
	MODE=ref
	D=$R/$NAME/ref
	tag=$(ref_tag)
	for m in ref p pg; do
		M=$R/$NAME/$m
		set -- "$M/prof.$tag"/*."$WORK_PROG"
		if [ ! -f "$1" ]; then
			problem "no $m profile of $WORK_PROG to compare the" \
			    "calls with"
			return
		fi
		exe=$(exe_for "$1")
		prof_counts "$exe" "$@" > "$D/calls.$m"
		eval "exe_$m=\$exe"
	done
	if [ ! -s "$D/calls.ref" ]; then
		problem "the reference build counted no calls"
		return
	fi
	set -- "$M/prof.$tag"/*."$WORK_PROG".gmon
	gprof_names "$exe_pg" "$@" > "$D/gprof.names"
	gprof_counts "$D/gprof.names" "$exe_pg" "$@" > "$D/calls.gprof"
	set -- "$D/prof.$tag"/*."$WORK_PROG"
	gprof_ref_counts "$D/gprof.names" "$exe_ref" "$@" > "$D/calls.gref"
	ref_diff p "-p" calls.ref
	ref_diff pg "-pg" calls.ref
	ref_diff gprof "gprof (-pg)" calls.gref
	[ -n "${XFAIL_REF:-}" ] && [ "$(cat "$R/$NAME/ref.cmp_p" \
	    "$R/$NAME/ref.cmp_pg" "$R/$NAME/ref.cmp_gprof")" = "ok
ok
ok" ] && problem "every count is the reference's: remove XFAIL_REF"
	echo "    calls of $(wc -l < "$D/calls.ref") functions against the" \
	    "reference: -p $(cell "$NAME" ref cmp_p), -pg $(cell "$NAME" \
	    ref cmp_pg), gprof $(cell "$NAME" ref cmp_gprof) (ok, or the" \
	    "number that differ)"
}

# ref_diff KEY WHAT REFLIST: compare calls.KEY with the reference's
# REFLIST; the summary's cell is ok or the number of functions that
# differ.
ref_diff() {
	count_diff "$D/$3" "$D/calls.$1" > "$D/diff.$1"
	n=$(wc -l < "$D/diff.$1")
	if [ "$n" = 0 ]; then
		result "cmp_$1" ok
		return
	fi
	result "cmp_$1" "$n"
	# A project whose work itself differs from build to build says why
	# in XFAIL_REF: its differences are listed all the same, and those
	# that a few calls more or less of work cannot explain (a count of 0
	# against a reference that has calls, or one off by more than 2 %
	# and 200 calls) still fail: a lost count is never excused.  Only
	# the functions that REF_BY_LAYOUT names (by symbol, without a
	# suffix such as .isra.0; in gprof, the rows that hold them), whose
	# calls follow the addresses of the data, may differ by more.
	say=problem
	[ -z "${XFAIL_REF:-}" ] || say=xfail
	head -n 20 "$D/diff.$1" | while IFS='	' read -r f a b; do
		$say "$2 counts $b calls of $f, the reference $a"
	done
	[ "$n" -le 20 ] ||
	    $say "$2: $((n - 20)) more functions differ (all: $D/diff.$1)"
	[ -z "${XFAIL_REF:-}" ] && return
	xfail "$2 differs: $XFAIL_REF"
	awk -F '\t' -v layout="${REF_BY_LAYOUT:-}" -v gprof="$1" '
	    function base(s) { sub(/ \(.*/, "", s); sub(/\..*/, "", s)
		return s }
	    BEGIN { n = split(layout, l, " "); for (i = 1; i <= n; i++)
		free[l[i]] = 1 }
	    FILENAME ~ /gprof\.names$/ { if (gprof == "gprof" &&
		(base($1) in free)) free[base($3)] = 1; next }
	    { d = $3 - $2; if (d < 0) d = -d
	    if (($3 == 0 && $2 > 0) || (d > 200 && d * 50 > $2 &&
		!(base($1) in free))) print }' \
	    "$D/gprof.names" "$D/diff.$1" | head -n 20 |
	    while IFS='	' read -r f a b; do
		problem "$2 counts $b calls of $f, the reference $a: more" \
		    "than its work can differ by"
	done
}

# run_work FUNCTION TAG: run the workload FUNCTION with PROFDIR=prof.TAG
# and its output in out.TAG, which must be the plain build's; the run's
# wall time goes to wall.TAG; run2 and one2 are traced.
run_work() {
	mkdir -p "$M/work.$2" "$M/prof.$2"
	log=-
	case $2 in *2) log=$M/exec.$2 ;; esac
	t=$(now)
	(cd "$M/work.$2" && PROFDIR=$M/prof.$2 && export PROFDIR &&
	    traced "$log" "$1") > "$M/out.$2" 2> "$M/err.$2"
	rc=$?
	elapsed "$t" > "$M/wall.$2"
	if [ $rc != 0 ]; then
		wok=FAIL
		problem "$1 failed, exit $rc: $(head -n 3 "$M/err.$2")"
	elif ! cmp -s "$R/$NAME/plain/out.${2%[12]}1" "$M/out.$2"; then
		wok=FAIL
		problem "$1 output differs from the plain build's:" \
		    "cmp $R/$NAME/plain/out.${2%[12]}1 $M/out.$2"
	fi
	[ "$MODE" = plain ] && return
	scan_exes "$B" > "$M/exes"
	check_profiles "$M/prof.$2" "$log"
	np=$((np + $(cat "$M/nprof")))
}

# check_top TAG: the workload's hot function tops prof's report (and
# gprof's), and the runs TAG1 and TAG2 count the same calls.
check_top() {
	tag=$1
	set -- "$M/prof.run1"/*."$WORK_PROG"
	if [ ! -f "$1" ]; then
		problem "the workload left no profile of $WORK_PROG"
		return
	fi
	exe=$(exe_for "$1")
	# The top function: an object's row (<libc.so.6>) sums every function
	# of an object not profiled by name, so it is no function's rank.
	prof_rows "$exe" "$@" | awk -F '\t' '$1 !~ /^<.*>$/ ||
	    $1 == "<unknown>"' > "$M/rows"
	result top "$(head -n 1 "$M/rows" | cut -f 1)"
	xf=${XFAIL_P:-}
	want=$HOT
	[ "$MODE" = pg ] && xf=${XFAIL_PG:-} want=${HOT_PG:-$HOT}
	top_is "$M/rows" "$want" "prof" "$xf"
	for i in 1 2; do
		prof_rows "$exe" "$M/prof.$tag$i"/*."$WORK_PROG" |
		    awk -F '\t' '$2 != "" { print $1 "\t" $2 }' |
		    sort > "$M/counts.$i"
	done
	cmp -s "$M/counts.1" "$M/counts.2" ||
	    problem "prof's call counts differ between two runs:" \
	    "$(diff "$M/counts.1" "$M/counts.2" | grep '^[<>]' | head -n 4 |
	    tr '\n' ' ')"
	[ "$MODE" = pg ] || return 0
	gprof_rows "$exe" "$M/prof.run1"/*."$WORK_PROG".gmon > "$M/grows"
	result gtop "$(head -n 1 "$M/grows" | cut -f 1)"
	top_is "$M/grows" "$want" "gprof" "${XFAIL_GPROF:-$xf}"
	for i in 1 2; do
		gprof_rows "$exe" "$M/prof.$tag$i"/*."$WORK_PROG".gmon |
		    awk -F '\t' '$2 != "" { print $1 "\t" $2 }' |
		    sort > "$M/gcounts.$i"
	done
	cmp -s "$M/gcounts.1" "$M/gcounts.2" ||
	    problem "gprof's call counts differ between two runs"
}

# hot_tied ROWS PATTERN: whether the first row matching PATTERN is
# within sampling noise of the top row: the two counts of samples (at
# the default 1000 Hz) differ by at most three standard deviations of
# their difference, sqrt(a + h), which two functions of equal time
# exceed once in 370 runs.  A single run cannot rank them closer.
hot_tied() {
	t=$(head -n 1 "$1" | cut -f 3)
	h=$(while IFS='	' read -r n c s; do
		case $n in $2) echo "$s"; break ;; esac
	    done < "$1")
	[ -n "$t" ] && [ -n "$h" ] && awk -v t="$t" -v h="$h" 'BEGIN {
	    a = t * 1000; b = h * 1000; exit !(a - b <= 3 * sqrt(a + b)) }'
}

# top_is ROWS PATTERN TOOL XFAIL-REASON: the top row is PATTERN's, or
# tied with it (hot_tied).
top_is() {
	top=$(head -n 1 "$1" | cut -f 1)
	hot=no
	case $top in
	$2)	hot=yes ;;
	*)	if hot_tied "$1" "$2"; then
			hot=yes
			echo "    note: $3 names '$top' at the top, $2 is" \
			    "within sampling noise of it"
		fi ;;
	esac
	if [ $hot = yes ]; then
		[ -z "$4" ] ||
		    problem "$3 now names $2 at the top or tied with it:" \
		    "remove the XFAIL ($4)"
	elif [ -n "$4" ]; then
		xfail "$3 names '$top' at the top, not $2: $4"
	else
		problem "$3 names '$top' at the top, not $2"
	fi
}

# perf_incl: the plain build's workload under perf record --call-graph
# dwarf (a copy of the user stack unwound by libdw: no frame pointers
# needed; user time only, as prof's), and with their callees'
# ("Children"), copying STACKCOPY bytes of stack where the project says
# (as its workload asks of the runtime): INCL's share of its samples,
# and the five largest shares of the executable's own functions (_start
# and inlined frames left out), for check_incl.  PERF_RUNS runs (3):
# perf's own shares vary from run to run on a shared machine (gzip's
# longest_match, a memory-bound leaf, from 90.6 % to 93.7 % over nine
# CI runs, as other jobs share the caches), so prof is held to the
# range they span, widened by the margin, not to one draw.  The first
# run names the five; its shares are the ones shown.  A machine without
# perf, or one that refuses it, notes that and compares nothing.
perf_incl() {
	[ -n "${INCL:-}" ] || return 0
	if ! have perf; then
		echo "    note: no perf: $INCL's inclusive share not compared"
		return 0
	fi
	mkdir -p "$M/work.perf"
	: > "$M/shares.perf"
	run=1
	while [ "$run" -le "${PERF_RUNS:-3}" ]; do
		(cd "$M/work.perf" && perf record -q -F 999 --all-user \
		    --call-graph dwarf,"${STACKCOPY:-8192}" \
		    -o "$M/perf.data" -- \
		    sh "$REAL/step.sh" "$NAME" workload) > /dev/null \
		    2> "$M/perf.err"
		perf report -i "$M/perf.data" --children --stdio \
		    --comm "$WORK_PROG" --percentage relative 2> /dev/null \
		    > "$M/perf.children" || :
		# run, name, share: INCL's (any object's) as "incl", then
		# the executable's own functions, largest first.  Children,
		# Self, object, [.], symbol: --comm drops the command.
		awk -v f="$INCL" -v p="$WORK_PROG" -v r="$run" '
		    $1 !~ /%$/ { next }
		    { s = $1; sub(/%/, "", s) }
		    $NF == f && !incl++ { print r "\tincl\t" s }
		    $3 == p && $4 == "[.]" && NF == 5 && $5 != "_start" &&
		    !seen[$5]++ { print r "\t" $5 "\t" s }' \
		    "$M/perf.children" >> "$M/shares.perf"
		if ! grep -q "^$run	incl	" "$M/shares.perf"; then
			echo "    note: perf record failed or found no $INCL" \
			    "($(head -n 1 "$M/perf.err")): not compared"
			return 0
		fi
		run=$((run + 1))
	done
	# name, the first run's share, the least and the most of all runs
	# (0 where a run has no row of it): INCL's, then the five largest.
	awk -F '\t' -v n="${PERF_RUNS:-3}" '
	    { v[$2, $1] = $3 }
	    $1 == 1 && $2 != "incl" && top < 5 { name[++top] = $2 }
	    function span(f,   r, x, lo, hi) {
		lo = hi = v[f, 1] + 0
		for (r = 2; r <= n; r++) {
			x = v[f, r] + 0
			if (x < lo) lo = x
			if (x > hi) hi = x
		}
		return f "\t" v[f, 1] "\t" lo "\t" hi
	    }
	    END { print span("incl")
		for (i = 1; i <= top; i++) print span(name[i]) }' \
	    "$M/shares.perf" > "$M/span.perf"
	result incl "$(awk -F '\t' 'NR == 1 { print $2 }' "$M/span.perf")"
	sed 1d "$M/span.perf" > "$R/$NAME/plain.top"
	head -n 1 "$M/span.perf" > "$R/$NAME/plain.inclspan"
}

# within A LO HI D: whether A lies in [LO - D, HI + D].
within() {
	awk -v a="$1" -v lo="$2" -v hi="$3" -v d="$4" \
	    'BEGIN { exit !(a >= lo - d && a <= hi + d) }'
}

# check_incl: inclusive shares of the samples in prof (from the sampled
# stacks of the workload's first run) against the plain build's in
# perf's runs: INCL's within 5 points of their range (sampling noise at
# a few hundred samples, and the instrumentation's own time, which lies
# mostly under the callers); main's at least 95 %; and each of perf's
# five largest within 3 points of theirs.
check_incl() {
	[ -n "${INCL:-}" ] && [ -f "$R/$NAME/plain.inclspan" ] || return 0
	set -- "$M/prof.run1"/*."$WORK_PROG"
	[ -f "$1" ] || return 0
	prof_csv "$(exe_for "$1")" "$@" > "$M/incl.csv" 2> /dev/null || :
	awk -F '\t' -v f="$INCL" '{ t += $3; if ($1 == f) i = $4 }
	    END { if (t > 0 && i != "") printf "%.1f\n", 100 * i / t }' \
	    "$M/incl.csv" > "$M/incl.prof"
	IFS="$(printf '\t')" read -r f perf lo hi < "$R/$NAME/plain.inclspan"
	prof=$(cat "$M/incl.prof")
	result incl "$prof"
	if [ -z "$prof" ]; then
		problem "prof shows no inclusive time for $INCL"
	elif ! within "$prof" "$lo" "$hi" 5; then
		problem "$INCL's inclusive share: prof $prof%, perf $perf%" \
		    "($lo to $hi% in ${PERF_RUNS:-3} runs; plain build," \
		    "--call-graph dwarf)"
	else
		echo "    $INCL's inclusive share: prof $prof%, perf $perf%" \
		    "($lo to $hi%)"
	fi
	[ -s "$R/$NAME/plain.top" ] || return 0
	# name<TAB>perf<TAB>least<TAB>most<TAB>prof, for perf's five.
	awk -F '\t' 'NR == FNR { t += $3; incl[$1] = $4; next }
	    { printf "%s\t%s\t%s\t%s\t%.1f\n", $1, $2, $3, $4,
		(t > 0 ? 100 * incl[$1] / t : 0) }' \
	    "$M/incl.csv" "$R/$NAME/plain.top" > "$M/top.cmp"
	while IFS="$(printf '\t')" read -r f perf lo hi prof; do
		within "$prof" "$lo" "$hi" 3 || problem "$f's inclusive" \
		    "share: prof $prof%, perf $perf% ($lo to $hi% in" \
		    "${PERF_RUNS:-3} runs; perf's five largest: 3 points)"
	done < "$M/top.cmp"
	main=$(awk -F '\t' '{ t += $3; if ($1 == "main") i = $4 }
	    END { printf "%.1f", (t > 0 ? 100 * i / t : 0) }' "$M/incl.csv")
	awk -v a="$main" 'BEGIN { exit !(a >= 95) }' ||
	    problem "main's inclusive share: prof $main%, below 95%"
	echo "    inclusive shares, perf/prof: $(awk -F '\t' '
	    { printf "%s%s %s/%s", (NR > 1 ? ", " : ""), $1, $2, $5 }' \
	    "$M/top.cmp"); main in prof $main%"
}

# cell NAME MODE KEY: one cell of the summary table, - if none.
cell() {
	cat "$R/$1/$2.$3" 2>/dev/null || echo -
}

# ---------------------------------------------------------------- projects
pass=0
fail=0
skip=0
start=$(now)
for NAME in $projects; do
	if [ -f "$R/$NAME.skip" ]; then
		echo "SKIP $NAME: $(cat "$R/$NAME.skip")"
		skip=$((skip + 1))
		continue
	fi
	rm -rf "${R:?}/$NAME"
	mkdir -p "$R/$NAME"
	: > "$R/$NAME/problems"
	: > "$R/$NAME/xfail"
	(
		. "$REAL/$NAME.sh"
		for MODE in plain p pg ref; do
			tm=$(now)
			run_mode
			result wall "$(elapsed "$tm")"
		done
		check_ref
	)
	if [ -s "$R/$NAME/problems" ]; then
		echo "FAIL $NAME (files: $R/$NAME)"
		fail=$((fail + 1))
	else
		echo "PASS $NAME"
		pass=$((pass + 1))
	fi
done

# ---------------------------------------------------------------- summary
echo
printf '%-9s %-18s %-8s %-8s %-8s %-8s %-9s %-17s %-14s %s\n' project \
    "build system" plain -p -pg ref profiles "wall s: plain/-p/-pg" \
    "=ref -p/-pg/gp" "top: prof -p / gprof -pg"
for NAME in $projects; do
	if [ -f "$R/$NAME.skip" ]; then
		printf '%-9s %-18s SKIPPED: %s\n' "$NAME" "$(pvar "$NAME" \
		    SYSTEM)" "$(cat "$R/$NAME.skip")"
		continue
	fi
	st() {
		echo "$(cell "$NAME" "$1" build)/$(cell "$NAME" "$1" \
		    tests)/$(cell "$NAME" "$1" work)"
	}
	printf '%-9s %-18s %-8s %-8s %-8s %-8s %-9s %-17s %-14s %s\n' \
	    "$NAME" "$(pvar "$NAME" SYSTEM)" "$(st plain)" "$(st p)" \
	    "$(st pg)" "$(st ref)" \
	    "$(cell "$NAME" p profiles)/$(cell "$NAME" pg profiles)" \
	    "$(cell "$NAME" plain time)/$(cell "$NAME" p time)/$(cell \
	    "$NAME" pg time)" \
	    "$(cell "$NAME" ref cmp_p)/$(cell "$NAME" ref cmp_pg)/$(cell \
	    "$NAME" ref cmp_gprof)" \
	    "$(cell "$NAME" p top) / $(cell "$NAME" pg gtop)"
done
echo "(per mode: build/tests/workload, the reference running no tests;"
echo "profiles: -p/-pg, of the tests and the workload; wall: the workload's"
echo "first run; =ref: whether every function's calls in -p, -pg and gprof"
echo "are the reference build's, ok or the number of functions that differ)"
# The reference's share of the suite's time, for CI's budget.
tref=0
tall=0
for NAME in $projects; do
	for MODE in plain p pg ref; do
		w=$(cell "$NAME" "$MODE" wall)
		[ "$w" = - ] && continue
		tall=$(awk -v a="$tall" -v b="$w" 'BEGIN { print a + b }')
		[ "$MODE" = ref ] &&
		    tref=$(awk -v a="$tref" -v b="$w" 'BEGIN { print a + b }')
	done
done
echo "reference builds: $tref s of the projects' $tall s"
for NAME in $projects; do
	f=$(pvar "$NAME" INCL)
	[ -n "$f" ] && [ ! -f "$R/$NAME.skip" ] || continue
	echo "$NAME: $f's inclusive share: prof -p $(cell "$NAME" p incl)%," \
	    "-pg $(cell "$NAME" pg incl)%; perf on plain $(cell "$NAME" plain \
	    incl)%"
done
for NAME in $projects; do
	[ -s "$R/$NAME/xfail" ] && sed "s/^/XFAIL $NAME /" "$R/$NAME/xfail"
	[ -s "$R/$NAME/problems" ] && sed "s/^/FAIL $NAME /" "$R/$NAME/problems"
done
xf=$(for NAME in $projects; do cat "$R/$NAME/xfail" 2>/dev/null; done |
    wc -l)
echo "real: $pass passed ($xf known failures), $skip skipped, $fail failed" \
    "in $(elapsed "$start") s"
[ $fail = 0 ]
