#!/bin/sh
# countcheck.sh SEED WORKDIR - hold monprof's call counts to a random
# program's own (issue 35): gencalls writes the program of SEED into
# WORKDIR/src, which is built three times with the build's gcc and
# specs file, -p (WORKDIR/p), -pg (WORKDIR/pg) and the reference, -p
# with -fplugin-arg-monprof-reference (WORKDIR/ref: one count at each
# out-of-line entry, nothing else), each run once with PROFDIR unset,
# and checks that
#   (a) the program prints the same in all three;
#   (b) each "count NAME N" it prints is prof's count of NAME (its
#       clones, NAME.constprop.0 and the like, summed) in the -p build,
#       the -pg build (prof of its mon.out, and gprof's calls from
#       gmon.out where NAME is the executable's), and the reference;
#   (c) every function's count (prof --format=csv --no-demangle) is the
#       same in the -p build and the reference, and the -pg build's
#       (arcs summed, as prof and gprof print them) the reference's.
# A program built at level pic has units in libgen.so, run with
# LD_LIBRARY_PATH; prof names its functions from the object the profile
# records (with object libgen.so), gprof only the executable's, so its
# figures are compared for the executable's functions only.
# Prints nothing and exits 0 when all agree; else one line per
# difference, "seed S (flags): NAME: -p X, -pg Y, reference Z", and
# exits 1.  WORKDIR is emptied first and left for a look: its file
# commands holds the commands that built and ran the three programs.
#
# Environment: O (the build directory; default the tree's build/), CC
# (gcc; g++ is CC with gcc replaced), CXX, REFFLAGS (the reference's
# flags beside -p; default -fplugin-arg-monprof-reference where the
# plugin takes it, else -fplugin-arg-monprof-update=atomic).
# countcheck.sh --refflags prints those flags, for a caller that runs
# it many times to find them once.
set -u
LC_ALL=C
export LC_ALL
unset PROFDIR PROFFLAGS GMON_OUT_PREFIX
[ $# = 2 ] || [ "${1:-}" = --refflags ] ||
    { echo "usage: countcheck.sh SEED WORKDIR" >&2; exit 2; }
seed=$1
w=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
O=$(cd "${O:-$here/../../build}" && pwd) || exit 2
: "${CC:=gcc}"
: "${CXX:=$(printf '%s\n' "$CC" | sed 's/gcc\([^/]*\)$/g++\1/')}"
SPECS=$O/monprof.specs
PROF=$O/prof
GEN=$O/testsuite/tools/gencalls
# prof_csv, prof's CSV by its header's names (check-real's helpers).
. "$here/../real/lib.sh"

if [ -z "${REFFLAGS+set}" ]; then
	if printf 'int f(void) { return 0; }\n' | "$CC" -specs="$SPECS" -p \
	    -fplugin-arg-monprof-reference -x c -c -o /dev/null - \
	    2>/dev/null; then
		REFFLAGS=-fplugin-arg-monprof-reference
	else
		REFFLAGS=-fplugin-arg-monprof-update=atomic
	fi
fi
if [ "$seed" = --refflags ]; then
	printf '%s\n' "$REFFLAGS"
	exit 0
fi

rm -rf "$w" && mkdir -p "$w" || exit 2
w=$(cd "$w" && pwd)
"$GEN" "$seed" "$w/src" || exit 2
# build.args: lang, level, opt, exe_srcs, lib_srcs, libs, features.
lang='' opt='' exe_srcs='' lib_srcs='' libs=''
# shellcheck source=/dev/null
. "$w/src/build.args"
cc=$CC
[ "$lang" = c++ ] && cc=$CXX
what="seed $seed ($lang $opt)"
bad=0

# say TEXT: one line of difference.
say() {
	printf '%s: %s\n' "$what" "$*"
	bad=1
}

# run CMD...: CMD, logged in commands (its cwd and environment too).
run() {
	echo "(cd $PWD && $*)" >> "$w/commands"
	"$@"
}

# build MODE FLAGS...: the program of MODE (p, pg, ref) in WORKDIR/MODE,
# one compiler run each for libgen.so and the executable.
build() {
	m=$1
	shift
	mkdir "$w/$m" && cd "$w/$m" || return 1
	exe='' lib=''
	for s in $exe_srcs; do exe="$exe ../src/$s"; done
	for s in $lib_srcs; do lib="$lib ../src/$s"; done
	if [ -n "$lib" ]; then
		# shellcheck disable=SC2086
		run "$cc" -specs="$SPECS" "$@" $opt -shared -o libgen.so \
		    $lib $libs > build.log 2>&1 &&
		run "$cc" -specs="$SPECS" "$@" $opt -o prog $exe -L. -lgen \
		    $libs >> build.log 2>&1
	else
		# shellcheck disable=SC2086
		run "$cc" -specs="$SPECS" "$@" $opt -o prog $exe $libs \
		    > build.log 2>&1
	fi
}

# execute MODE: run its program in its directory, mon.out (and gmon.out)
# there; stdout in out.
execute() {
	cd "$w/$1" || return 1
	echo "(cd $PWD && LD_LIBRARY_PATH=. ./prog > out 2> err)" >> "$w/commands"
	LD_LIBRARY_PATH=. ./prog > out 2> err
}

# calls MODE: "MODE<TAB>name<TAB>object<TAB>file<TAB>calls" for each row
# of prof's CSV with calls (check-real's prof_csv reads the columns),
# the object by its file name: the three builds' libgen.so lie in
# different directories.
calls() {
	prof_csv "$w/$1/prog" "$w/$1/mon.out" 2> "$w/$1/prof.err" |
	    awk -F '\t' -v m="$1" '$2 != "" && $1 !~ /^</ {
		o = $5; sub(/.*\//, "", o); print m "\t" $1 "\t" o "\t" $6 "\t" $2 }'
}

# gcalls: "gprof<TAB>name<TAB>prog<TAB><TAB>calls" for each function of
# the -pg build's call graph: its primary line's calls, "n+r" (calls
# from others, recursive calls) summed, a cycle's members as they are.
# gprof's exit status goes to gprof.err: two runs under load once
# printed no call graph and no word, and so "gprof 0" for every function
# of a gmon.out that gprof read whole again afterwards.
gcalls() {
	gprof -b -q --no-demangle "$w/pg/prog" "$w/pg/gmon.out" \
	    > "$w/pg/gprof.q" 2> "$w/pg/gprof.err"
	rc=$?
	[ $rc = 0 ] || echo "exit status $rc" >> "$w/pg/gprof.err"
	awk '
	    /^\[[0-9]+\]/ && $6 !~ /^</ && $5 ~ /^[0-9]+(\+[0-9]+)?$/ {
		n = split($5, c, "+"); t = c[1] + (n > 1 ? c[2] : 0)
		print "gprof\t" $6 "\tprog\t\t" t }' "$w/pg/gprof.q"
}

# gskip: "gskip<TAB>name" for each function whose gprof figures say
# nothing of monprof: gprof (binutils 2.40's core_sym_class) drops a
# static function named f.isra.0 or f.part.0, and one named
# f.constprop.0 or f.clone.0 where the symbol string table holds a dot
# past its name (it reads on past the name's end), and gives its calls
# and arcs to the function before it, whose figures are then wrong too.
gskip() {
	gprof -b -p -z --no-demangle "$w/pg/prog" "$w/pg/gmon.out" 	    2> /dev/null | awk '$1 ~ /^[0-9.]+$/ { print $NF }' 	    > "$w/pg/gprof.known"
	nm -n --defined-only "$w/pg/prog" | awk -v known="$w/pg/gprof.known" '
	    BEGIN { while ((getline l < known) > 0) k[l] = 1 }
	    $2 !~ /^[tTwW]$/ { next }
	    !($3 in k) && $3 ~ /\./ { print "gskip\t" $3
		if (prev != "") print "gskip\t" prev; next }
	    $3 in k { prev = $3 }'
}

for m in p pg ref; do
	case $m in
	p)	f=-p ;;
	pg)	f=-pg ;;
	ref)	f="-p $REFFLAGS" ;;
	esac
	# shellcheck disable=SC2086
	if ! (build $m $f); then
		say "$f build failed: $(grep -m 1 -i 'error' "$w/$m/build.log" ||
		    tail -n 1 "$w/$m/build.log")"
		exit 1
	fi
	if ! (execute $m); then
		say "$f run: exit status $?: $(head -n 1 "$w/$m/err")"
		exit 1
	fi
	[ -s "$w/$m/err" ] && say "$f run: stderr: $(head -n 1 "$w/$m/err")"
	[ -f "$w/$m/mon.out" ] || { say "$f run: no mon.out"; exit 1; }
done
[ -f "$w/pg/gmon.out" ] || { say "-pg run: no gmon.out"; exit 1; }

# (a) The same output, so the same calls made.
for m in p pg; do
	if ! cmp -s "$w/$m/out" "$w/ref/out"; then
		say "stdout of -$m differs from the reference's:" \
		    "$(diff "$w/ref/out" "$w/$m/out" | grep -m 1 '^[<>]')"
	fi
done

# (b) and (c): every figure into one stream, compared in one place.
hasgprof=0
command -v gprof > /dev/null 2>&1 && hasgprof=1
{
	calls p
	calls pg
	calls ref
	[ $hasgprof = 1 ] && gcalls && gskip
	awk '$1 == "count" { print "prog\t" $2 "\t\t\t" $3 }' "$w/ref/out"
} > "$w/figures"
for m in p pg ref; do
	[ -s "$w/$m/prof.err" ] &&
	    say "prof of the ${m#ref} build: $(head -n 1 "$w/$m/prof.err")"
done
[ -s "$w/pg/gprof.err" ] && say "gprof: $(head -n 1 "$w/pg/gprof.err")"

awk -F '\t' -v what="$what" -v hasgprof=$hasgprof '
	# base: a function without its clone suffixes (f.constprop.0 -> f).
	function base(s) { sub(/\..*/, "", s); return s }
	$1 == "prog" { want[$2] = $5; order[++nwant] = $2; next }
	$1 == "gprof" { g[$2] += $5; next }
	$1 == "gskip" { gskip[$2] = 1; next }
	{ k = $2 SUBSEP $3 SUBSEP $4; v[$1, k] += $5; key[k] = 1
	  nm[k] = $2; obj[k] = $3; file[k] = $4 }
	END {
		for (k in key) {
			nrows[nm[k]]++	# more than one: statics told apart
			if (obj[k] != "prog") { inlib[base(nm[k])] = 1; continue }
			exe[nm[k]] += v["ref", k]
			# One address of several names is one row of prof,
			# "a, b", and of gprof under one of the names.
			na = split(nm[k], al, ", ")
			for (i = 1; i <= na; i++) row[al[i]] = nm[k]
		}
		for (n in g) G[(n in row) ? row[n] : n] += g[n]
		for (n in gskip) if (n in row) gskip[row[n]] = 1
		for (k in key) {
			x = v["p", k] + 0; y = v["pg", k] + 0; z = v["ref", k] + 0
			n = nm[k]
			gd = hasgprof && obj[k] == "prog" && !(n in gskip) &&
			    G[n] + 0 != exe[n]
			if (x == z && y == z && !gd) continue
			d = n
			if (obj[k] != "prog") d = d " <" obj[k] ">"
			if (nrows[n] > 1 && file[k] != "") d = d " (" file[k] ")"
			line = d ": -p " x ", -pg " y ", reference " z
			if (gd) line = line ", gprof " G[n] + 0
			if (n in want) { line = line ", program " want[n]
				said[n] = 1 }
			print what ": " line
		}
		for (n in G)
			if (!(n in exe) && !(n in gskip))
				print what ": " n ": -p 0, -pg 0, reference 0, gprof " G[n]
		for (i = 1; i <= nwant; i++) {
			n = order[i]
			if (n in said) continue
			sx = sy = sz = sg = 0
			for (k in key) if (base(nm[k]) == n) {
				sx += v["p", k]; sy += v["pg", k]; sz += v["ref", k] }
			gs = 0
			for (f in G) if (base(f) == n) sg += G[f]
			for (f in gskip) if (base(f) == n) gs = 1
			gd = hasgprof && !(n in inlib) && !gs && sg != want[n]
			if (sx == want[n] && sy == want[n] && sz == want[n] && !gd)
				continue
			line = n ": -p " sx ", -pg " sy ", reference " sz
			if (gd) line = line ", gprof " sg
			print what ": " line ", program " want[n]
		}
	}' "$w/figures" | sort > "$w/differences"
if [ -s "$w/differences" ]; then
	cat "$w/differences"
	bad=1
fi
exit $bad
