#!/bin/sh
# bench.sh - overhead of monprof against plain -O2, glibc -pg and empty
# -finstrument-functions hooks, and gcov's arc counters (the floor: one
# increment per arc, -fprofile-update=single), on a call-heavy, a
# 4-thread (static functions), a 4-thread (global functions, each called
# from two places), a mixed workload and a real program's: zstd, from
# the Debian source that `make check-real` fetches (compiled here file by
# file, not by its build system: each variant is the same command with
# other flags), compressing 8 MB of text at level 12 in one thread.
# "sampler" is the plain code linked with the runtime, which
# samples at 1000 Hz: the sampler's own cost.  The "-off" variants run
# the instrumented program with PROFDIR= (profiling switched off), and
# "monprof-nodefault" with PROFFLAGS=-disable_default (counting, but no
# monitor() call, so no sampler): both must cost at most what "monprof"
# costs.  "-nofp" is -p (-pg) run with PROFFLAGS=-nostacks (and built
# with -fomit-frame-pointer, which matters only where the specs file
# builds with frame pointers, without SFrame rows): "monprof" over it is
# what the stacks cost.
# "-guard" builds the executable with
# -fplugin-arg-monprof-guard=yes (threads the C library did not start
# are skipped); "-so" builds the workload as an -fPIC shared object
# (main renamed) that a -p executable of one call links: what a module
# costs, with its default guard, "-so-noguard" without, "-so-host" in
# a plain executable (libmonprof-null.so: nothing counted).  Run by
# `make bench` (CC, O, SRCDIR set).
#
#   wall x   median over BENCH_PAIRS (default 5) paired, alternating runs
#            of plain and variant, of the per-pair ratio variant / plain;
#            (min): the variant's fastest run over plain's fastest, the
#            estimate that noise inflates least (README, Overhead)
#   insn x   instructions (valgrind --tool=callgrind) at BENCH_INSN_PCT
#            (default 10) percent of the work, variant / plain
#   insn/call  the instructions a variant adds to plain, per call of an
#            instrumented function (the calls the -p build counts in that
#            run): the distance to the floor, one increment
#   exact    threads and globals: every function's count equals the count
#            the program prints (monprof -p from mon.out, the -pg
#            variants from gprof on gmon.out)
#   RSS      peak resident set, KiB
#
#   server   the sampler on a threaded cache server (server.c: many short
#            blocking calls, context switches from and to idle at each
#            request, its clients in a plain process): the server's CPU
#            time (user + sys) x of plain, median over BENCH_SERVER_PAIRS
#            (default 5) paired runs, for each sampler scope: "sampler"
#            (the default: task scope, moving to cpu scope when the
#            process switches often), "-task" (PROFFLAGS=-nocpuwide),
#            "-cpu" (-cpuwide), "-itimer"; and the scope the run ended
#            in (BENCH_SERVER=0 skips it)
#   fork     fork, _exit and waitpid of a small program (fork.c): per
#            fork, wall and CPU time (the process's and its children's)
#            in microseconds, and the variant's ratios to plain, medians
#            over BENCH_FORK_PAIRS (default 7) paired runs, as the user
#            the bench runs as and, for root, as nobody (BENCH_FORK=0
#            skips it)
#   scale    20,000 instrumented functions (testsuite/tools/genprog.sh),
#            4,800 short threads, 8 at a time, each calling 2 of them 100
#            times: CPU time (user + sys) and its ratio to plain, median
#            over BENCH_SCALE_PAIRS (default 5) paired runs, peak RSS,
#            the executable's TLS and whether every count is exact
#            (BENCH_SCALE=0 skips it)
#   prof     prof's own time on a 100 MB mon.out of a program with 50,000
#            functions, and its time and peak memory on 10,000 profiles
#            of one program against 1,000 (BENCH_PROF=0 skips both)
#
# BENCH_ONLY="calls threads" restricts the workloads; BENCH_VARIANTS the
# variants (names as printed), which are otherwise the workload's own
# list (variants).
set -eu
LC_ALL=C
export LC_ALL
: "${O:?}" "${SRCDIR:?}" "${CC:=gcc}"
B=$SRCDIR/testsuite/bench
PAIRS=${BENCH_PAIRS:-5}
INSN_PCT=${BENCH_INSN_PCT:-10}
WORKLOADS=${BENCH_ONLY-calls threads globals mixed zstd}
BASE="sampler gcov-single monprof monprof-nofp monprof-off monprof-nodefault monprof-single monprof-atomic monprof-pg monprof-pg-nofp monprof-pg-off glibc-pg cyg-empty"
# variants WORKLOAD: what it is run in.
variants() {
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		echo "$BENCH_VARIANTS"
		return
	fi
	case $1 in
	calls|threads)	echo "$BASE monprof-guard monprof-pg-guard monprof-so" \
			    "monprof-so-noguard monprof-so-host monprof-pg-so" ;;
	globals)	echo "$BASE monprof-pg-guard" ;;
	zstd)		echo "sampler gcov-single monprof monprof-nofp" \
			    "monprof-off monprof-pg monprof-pg-nofp" \
			    "monprof-pg-off glibc-pg" ;;
	*)		echo "$BASE" ;;
	esac
}
W=$(mktemp -d "${TMPDIR:-/tmp}/monprof-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
T=$W
. "$SRCDIR/testsuite/e2e/lib.sh"
set +e

CFLAGS="-O2 -pthread"
"$CC" -O2 -c -o "$W/hooks_empty.o" "$B/hooks_empty.c" || exit 1

# compiler VARIANT: the command that compiles and links it.
compiler() {
	case $1 in
	plain|*-host)	echo "$CC" ;;
	sampler*)	echo "$CC -Wl,-u,__mon_init $O/libmonprof.a" ;;
	monprof-single)	echo "mp_cc -p -fplugin-arg-monprof-update=single" ;;
	monprof-atomic)	echo "mp_cc -p -fplugin-arg-monprof-update=atomic" ;;
	monprof-pg-guard)
			echo "mp_cc -pg -fplugin-arg-monprof-guard=yes" ;;
	monprof-guard)	echo "mp_cc -p -fplugin-arg-monprof-guard=yes" ;;
	monprof-pg-nofp) echo "mp_cc -pg -fomit-frame-pointer" ;;
	monprof-nofp)	echo "mp_cc -p -fomit-frame-pointer" ;;
	monprof-pg*)	echo "mp_cc -pg" ;;
	monprof*)	echo "mp_cc -p" ;;
	glibc-pg)	echo "$CC -pg" ;;
	gcov-single)	echo "$CC -fprofile-arcs -fprofile-update=single" \
			    "-fprofile-dir=$W/gcda" ;;
	cyg-empty)	echo "$CC -finstrument-functions $W/hooks_empty.o" ;;
	esac
}

# The real program's sources (zstd, from `make check-real`'s cache, or
# fetched the same way), its flags, and its input at each percentage.
ZSTD=$O/real/src/libzstd
zstd_src() {
	CACHE=$O/real/src
	. "$SRCDIR/testsuite/real/lib.sh"
	[ -f "$ZSTD/.unpacked" ] || fetch libzstd || return 1
	[ -s "$W/text" ] || {
		gen_text "$W/text" 8000000
		for p in 100 50 "$INSN_PCT"; do
			head -c $((80000 * p)) "$W/text" > "$W/zin.$p"
		done
	}
}
zstd_files() {
	echo "$ZSTD"/lib/common/*.c "$ZSTD"/lib/compress/*.c \
	    "$ZSTD"/lib/decompress/*.c "$ZSTD"/lib/decompress/*.S \
	    "$ZSTD"/lib/dictBuilder/*.c "$ZSTD"/programs/*.c
}

# build WORKLOAD VARIANT -> $W/WORKLOAD.VARIANT
build() {
	src=$B/$1.c out=$W/$1.$2 cc=$(compiler "$2")
	[ -n "$cc" ] || { echo "no variant $2" >&2; return 1; }
	if [ "$1" = zstd ]; then
		zstd_src || { echo "zstd sources not fetched" >&2; return 1; }
		$cc $CFLAGS -DZSTD_MULTITHREAD -DZSTD_LEGACY_SUPPORT=0 \
		    -I"$ZSTD/lib" -I"$ZSTD/lib/common" -o "$out" \
		    $(zstd_files) 2>"$W/zstd.log" ||
		    { tail -n 3 "$W/zstd.log" >&2; return 1; }
		return 0
	fi
	case $2 in
	*-so*)
		so=$W/lib$1.$2.so
		case $2 in
		*-noguard)	mp_cc -p -fplugin-arg-monprof-guard=no $CFLAGS \
				    -fPIC -shared -Dmain=bench_main -o "$so" \
				    "$src" ;;
		monprof-pg-so)	mp_cc -pg $CFLAGS -fPIC -shared \
				    -Dmain=bench_main -o "$so" "$src" ;;
		*)		mp_cc -p $CFLAGS -fPIC -shared \
				    -Dmain=bench_main -o "$so" "$src" ;;
		esac || return 1
		$cc $CFLAGS -o "$out" "$B/so_main.c" "$so" -Wl,-rpath,"$W" ;;
	*)	$cc $CFLAGS -o "$out" "$src" ;;
	esac
}

# run WORKLOAD VARIANT PERCENT: the command line of a run.
run() {
	case $1 in
	zstd)	echo "$W/zstd.$2 --single-thread -12 -c $W/zin.$3" ;;
	*)	echo "$W/$1.$2 $3" ;;
	esac
}

# venv VARIANT: the environment the variant runs in (for env(1)).
venv() {
	case $1 in
	*-off)		echo PROFDIR= ;;
	*-nodefault)	echo PROFFLAGS=-disable_default ;;
	*-task)		echo PROFFLAGS=-nocpuwide ;;
	*-cpu)		echo PROFFLAGS=-cpuwide ;;
	*-itimer)	echo PROFFLAGS=-itimer ;;
	*-nofp)		echo PROFFLAGS=-nostacks ;;
	*)		echo MONPROF_BENCH=1 ;;
	esac
}
VENV=$(venv plain)

# wall PROG ARGS: run in its own directory ($VENV set), print wall seconds.
wall() {
	d=$W/run.$$
	mkdir -p "$d"
	s=$(date +%s%N)
	(cd "$d" && env $VENV "$@" >/dev/null 2>&1)
	e=$(date +%s%N)
	rm -rf "$d"
	echo "$s $e" | awk '{ printf "%.4f\n", ($2 - $1) / 1e9 }'
}

# srvcpu PROG: run the server workload as wall does; print the server's
# CPU seconds (user + sys), as it prints them.
srvcpu() {
	d=$W/cpu.$$
	mkdir -p "$d"
	(cd "$d" && env $VENV "$@" 2>/dev/null) |
	    awk '{ print $NF }'
	rm -rf "$d"
}

median() {
	sort -g | awk '{ v[NR] = $1 } END {
	    if (NR == 0) { print "n/a"; exit }
	    if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# insns PROG ARGS: callgrind instruction total.
insns() {
	d=$W/cg.$$
	mkdir -p "$d"
	# SIGPROF ignored: a -pg program's last tick can outlive its handler.
	(cd "$d" && trap '' PROF && env $VENV valgrind --tool=callgrind \
	    --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null) |
	    awk '/Collected/ { print $NF }'
	rm -rf "$d"
}

rss() {
	d=$W/rss.$$
	mkdir -p "$d"
	(cd "$d" && /usr/bin/time -f %M env $VENV "$@" 2>&1 >/dev/null) |
	    tail -n 1
	rm -rf "$d"
}

# exact WORKLOAD VARIANT: for threads, compare each function's count with
# the program's own expectation.
exact() {
	case $1 in threads|globals) ;; *) echo "-"; return ;; esac
	case $2 in *-off|*-nodefault|*-so*) echo "-"; return ;; esac
	d=$W/ex.$$
	mkdir -p "$d"
	(cd "$d" && "$W/$1.$2" 50 >/dev/null 2>expect)
	case $2 in
	monprof-pg*|glibc-pg)
			gprof -b -p "$W/$1.$2" "$d/gmon.out" 2>/dev/null |
			    awk 'NF == 7 && $4 ~ /^[0-9]+$/ { print $7, $4 }
				 NF == 5 && $4 ~ /^[0-9]+$/ { print $5, $4 }' \
			    > "$d/got" ;;
	monprof*)	counts "$W/$1.$2" "$d/mon.out" > "$d/got" ;;
	*)		echo "-"; rm -rf "$d"; return ;;
	esac
	awk 'NR == FNR { got[$1] = $2; next }
	    $1 == "expect" { n++; if (got[$2] + 0 == $3) ok++
		else lost += $3 - got[$2]; tot += $3 }
	    END { if (n == 0) print "n/a (no expectations)"
		  else if (ok == n) print "yes"
		  else printf "no (%.1f%% lost)\n", 100 * lost / tot }' \
	    "$d/got" "$d/expect"
	rm -rf "$d"
}

printf '%s, %s pairs, instructions at %s%% work\n\n' "$("$CC" --version | head -n 1)" \
    "$PAIRS" "$INSN_PCT"
# ncalls WORKLOAD: the calls of instrumented functions at INSN_PCT work,
# as the -p build counts them.
ncalls() {
	build "$1" monprof || return
	d=$W/nc.$$
	mkdir -p "$d"
	(cd "$d" && $(run "$1" monprof "$INSN_PCT") >/dev/null 2>&1)
	"$MONDUMP" "$d/mon.out" | awk '$1 == "cell" { n += $3 } END { print n + 0 }'
	rm -rf "$d"
}

printf '| workload | variant | wall x (median) | wall x (min) | insn x | insn/call | exact | RSS KiB |\n'
printf '|---|---|---:|---:|---:|---:|---|---:|\n'
for w in $WORKLOADS; do
	if ! build "$w" plain 2>"$W/err"; then
		printf '| %s | plain | build failed: %s | | | | | |\n' "$w" \
		    "$(head -n 1 "$W/err")"
		continue
	fi
	for i in 1 2 3; do wall $(run "$w" plain 100); done > "$W/plain"
	pw=$(median < "$W/plain")
	pl=$(sort -g "$W/plain" | head -n 1)
	pi=$(insns $(run "$w" plain "$INSN_PCT"))
	nc=$(ncalls "$w")
	printf '| %s | plain | %s s | %s s | %s | %s calls | - | %s |\n' "$w" "$pw" \
	    "$(echo "$pl" | awk '{ printf "%.4f", $1 }')" \
	    "$(echo "$pi" | awk '{ printf "%.0fM", $1 / 1e6 }')" \
	    "$(echo "$nc" | awk '{ printf "%.1fM", $1 / 1e6 }')" \
	    "$(rss $(run "$w" plain 100))"
	for v in $(variants "$w"); do
		if ! build "$w" "$v" 2>"$W/err"; then
			printf '| %s | %s | build failed: %s | | | | | |\n' "$w" "$v" \
			    "$(head -n 1 "$W/err")"
			continue
		fi
		i=0
		while [ $i -lt "$PAIRS" ]; do
			if [ $((i % 2)) = 0 ]; then
				a=$(wall $(run "$w" plain 100))
				b=$(VENV=$(venv $v) wall $(run "$w" "$v" 100))
			else
				b=$(VENV=$(venv $v) wall $(run "$w" "$v" 100))
				a=$(wall $(run "$w" plain 100))
			fi
			echo "$a $b"
			i=$((i + 1))
		done > "$W/pairs"
		ratios=$(awk '$1 > 0 { printf "%.3f\n", $2 / $1 }' "$W/pairs" |
		    median)
		least=$(awk 'NR == 1 || $1 < a { a = $1 } NR == 1 || $2 < b { b = $2 }
		    END { if (a > 0) printf "%.3f", b / a; else print "n/a" }' \
		    "$W/pairs")
		vi=$(VENV=$(venv $v) insns $(run "$w" "$v" "$INSN_PCT"))
		ix=$(echo "$vi $pi" | awk '$1 > 0 && $2 > 0 { printf "%.2f", $1 / $2; exit }
		    { print "n/a" }')
		ic=$(echo "$vi $pi $nc" | awk '$1 > 0 && $2 > 0 && $3 > 0 {
		    printf "%.2f", ($1 - $2) / $3; exit } { print "n/a" }')
		printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$w" "$v" \
		    "$ratios" "$least" "$ix" "$ic" "$(exact "$w" "$v")" \
		    "$(VENV=$(venv $v) rss $(run "$w" "$v" 100))"
	done
done

if [ "${BENCH_SERVER:-1}" = 1 ]; then
	SPAIRS=${BENCH_SERVER_PAIRS:-5}
	printf '\n| server | variant | cpu x (median) | wall x (median) | scope |\n'
	printf '|---|---|---:|---:|---|\n'
	build server plain || exit 1
	# The clients run in a plain process of their own.
	SERVER_CLIENT=$W/server.plain
	export SERVER_CLIENT
	printf '| server | plain | %s s | %s s | - |\n' \
	    "$(for i in 1 2 3; do srvcpu "$W/server.plain"; done | median)" \
	    "$(for i in 1 2 3; do wall "$W/server.plain"; done | median)"
	for v in sampler sampler-task sampler-cpu sampler-itimer monprof; do
		build server "$v" || continue
		i=0
		: > "$W/sr"
		while [ $i -lt "$SPAIRS" ]; do
			a=$(srvcpu "$W/server.plain")
			b=$(VENV=$(venv $v) srvcpu "$W/server.$v")
			c=$(wall "$W/server.plain")
			e=$(VENV=$(venv $v) wall "$W/server.$v")
			echo "$a $b $c $e" >> "$W/sr"
			i=$((i + 1))
		done
		d=$W/sc.$$
		mkdir -p "$d"
		(cd "$d" && env $(venv $v) "$W/server.$v" >/dev/null 2>&1)
		sc=$("$MONDUMP" "$d/mon.out" 2>/dev/null | awk '
		    BEGIN { n[1] = "task"; n[2] = "itimer"; n[3] = "cpu" }
		    $1 == "meta" && $2 == 4 { print n[$3] }')
		rm -rf "$d"
		printf '| server | %s | %s | %s | %s |\n' "$v" \
		    "$(awk '$1 > 0 { printf "%.3f\n", $2 / $1 }' "$W/sr" | median)" \
		    "$(awk '$3 > 0 { printf "%.3f\n", $4 / $3 }' "$W/sr" | median)" \
		    "${sc:-?}"
	done
	unset SERVER_CLIENT
fi

if [ "${BENCH_FORK:-1}" = 1 ]; then
	# fork.c: 2,000 times fork, _exit and waitpid of a small program;
	# per fork, the loop's wall time and the CPU time of the process
	# and its children, median over FORK_PAIRS paired runs of plain and
	# the variant, and the medians of the ratios.  As the user the
	# bench runs as, and as nobody where that is root: a process that
	# holds no privilege has a perf helper that glibc does not count
	# (runtime/rawthread.c), root's is a pthread.
	FPAIRS=${BENCH_FORK_PAIRS:-7}
	printf '\n| fork | user | variant | wall us | cpu us | wall x | cpu x |\n'
	printf '|---|---|---|---:|---:|---:|---:|\n'
	users=$(id -un)
	if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
		users="$users nobody"
		chmod 755 "$W"
	fi
	build fork plain || exit 1
	for v in monprof monprof-off monprof-pg glibc-pg; do
		build fork "$v" || continue
		for u in $users; do
			case $u in
			nobody)	as="setpriv --reuid=65534 --regid=65534 --clear-groups" ;;
			*)	as= ;;
			esac
			d=$W/fork.$$
			mkdir -p "$d"
			chmod 777 "$d"
			i=0
			: > "$W/fr"
			while [ $i -lt "$FPAIRS" ]; do
				a=$(cd "$d" && $as env $(venv plain) "$W/fork.plain" 2000)
				b=$(cd "$d" && $as env $(venv $v) "$W/fork.$v" 2000)
				echo "$a $b" >> "$W/fr"
				i=$((i + 1))
			done
			rm -rf "$d"
			printf '| fork | %s | plain | %s | %s | | |\n' "$u" \
			    "$(awk '{ print $1 }' "$W/fr" | median)" \
			    "$(awk '{ print $2 }' "$W/fr" | median)"
			printf '| fork | %s | %s | %s | %s | %s | %s |\n' "$u" "$v" \
			    "$(awk '{ print $3 }' "$W/fr" | median)" \
			    "$(awk '{ print $4 }' "$W/fr" | median)" \
			    "$(awk '$1 > 0 { printf "%.3f\n", $3 / $1 }' "$W/fr" | median)" \
			    "$(awk '$2 > 0 { printf "%.3f\n", $4 / $2 }' "$W/fr" | median)"
		done
	done
fi

if [ "${BENCH_SCALE:-1}" = 1 ]; then
	# 20,000 instrumented functions (genprog.sh, one small body each),
	# 4,800 short threads, 8 at a time, each calling 2 functions 100
	# times: what a thread's start and end cost where the program is
	# big and the threads small (issue 28).  CPU time (user + sys) and
	# peak RSS, median over SCALE_PAIRS paired runs; exact: every
	# function the threads called has its 100 calls in mon.out.
	SPAIRS=${BENCH_SCALE_PAIRS:-5}
	SA="-t 4800 2 100 8"
	sh "$SRCDIR/testsuite/tools/genprog.sh" -k 1 -d "$W/scale" 20000 ||
	    exit 1
	# scale_build VARIANT: $W/scale.VARIANT, file by file, 2 at a time
	# (an -off variant is its build run with PROFDIR=).
	scale_build() {
		[ -x "$W/scale.$1" ] && return
		case $1 in *-off)
			scale_build "${1%-off}" &&
			    cp "$W/scale.${1%-off}" "$W/scale.$1"
			return ;;
		esac
		cc=$(compiler "$1" | sed "s|^mp_cc|$CC -specs=$SPECS|")
		mkdir -p "$W/scale/$1"
		for f in "$W"/scale/*.c; do
			echo "$f $W/scale/$1/$(basename "$f" .c).o"
		done | xargs -P 2 -n 2 sh -c "$cc -O2 -c \"\$0\" -o \"\$1\"" ||
		    return 1
		$cc -O2 -pthread -o "$W/scale.$1" "$W"/scale/$1/*.o
	}
	# cpu PROG ARGS: "CPU-seconds RSS-KiB" of a run ($VENV set).
	cpu() {
		d=$W/sc.$$
		mkdir -p "$d"
		(cd "$d" && /usr/bin/time -f '%U %S %M' env $VENV "$@" 2>&1 \
		    >/dev/null) | tail -n 1 | awk '{ print $1 + $2, $3 }'
		rm -rf "$d"
	}
	printf '\n| scale | variant | cpu (median) | cpu x (median) | RSS KiB | TLS KiB | exact |\n'
	printf '|---|---|---:|---:|---:|---:|---|\n'
	scale_build plain || exit 1
	for v in plain monprof monprof-off monprof-pg monprof-pg-off; do
		scale_build "$v" || continue
		: > "$W/sr"
		i=0
		while [ $i -lt "$SPAIRS" ]; do
			a=$(VENV=$(venv plain) cpu "$W/scale.plain" $SA)
			b=$(VENV=$(venv $v) cpu "$W/scale.$v" $SA)
			echo "$a $b" >> "$W/sr"
			i=$((i + 1))
		done
		ex=-
		case $v in
		*-off|plain) ;;
		*)	d=$W/sx.$$
			mkdir -p "$d"
			(cd "$d" && "$W/scale.$v" $SA >/dev/null 2>&1)
			ex=$("$O/prof" -c "$W/scale.$v" "$d/mon.out" 2>/dev/null |
			    awk '$NF ~ /^f[0-9]+$/ { n++; if ($(NF - 2) == 100) ok++ }
				END { print (n == 9600 && ok == n) ? "yes" : \
				    "no (" ok + 0 " of " n + 0 " functions)" }')
			rm -rf "$d" ;;
		esac
		tls=$(readelf -lW "$W/scale.$v" | awk '$1 == "TLS" { print $6 }')
		tls=$(( ${tls:-0} / 1024 ))
		printf '| scale | %s | %s s | %s | %s | %s | %s |\n' "$v" \
		    "$(awk '{ print $3 }' "$W/sr" | median)" \
		    "$(awk '$1 > 0 { printf "%.2f\n", $3 / $1 }' "$W/sr" | median)" \
		    "$(awk '{ print $4 }' "$W/sr" | median)" "$tls" "$ex"
	done
fi

[ "${BENCH_PROF:-1}" = 1 ] || exit 0
# prof at scale: 50,000 functions, a 100 MB mon.out (6.5 million cells,
# 130 per function, and a histogram over the whole text).
awk 'BEGIN { for (i = 0; i < 50000; i++)
	printf "int f%d(int x) { return x * %d + 1; }\n", i, i
    print "int main(void) { return f0(1) - 1; }" }' > "$W/many.c"
"$CC" -O0 -o "$W/many" "$W/many.c" || exit 1
nm -n -t d --defined-only "$W/many" | awk '
	$3 ~ /^f[0-9]+$/ { a[n++] = $1 + 4 }
	END { print "range 4096", a[n - 1] + 64; print "bins", int((a[n - 1] + 60 - 4096) / 8)
	    print "meta magic ok"; print "meta rate 1000"
	    for (r = 0; r < 130; r++) for (i = 0; i < n; i++) print "cell", a[i], r + 1
	    for (i = 0; i < n; i += 7) print "bin", int((a[i] - 4096) / 8), i % 100 + 1 }' |
    "$O/testsuite/tools/mkmon" "$W/big.out" || exit 1
size=$(wc -c < "$W/big.out")
s=$(date +%s%N)
"$O/prof" -m "$W/big.out" "$W/many" > "$W/big.report" || exit 1
e=$(date +%s%N)
printf '\nprof: %d functions, %d MB mon.out: %s s (target < 1 s), %d report lines\n' \
    50000 $((size / 1000000)) "$(echo "$s $e" | awk '{ printf "%.2f", ($2 - $1) / 1e9 }')" \
    "$(wc -l < "$W/big.report")"

# prof on a PROFDIR of 10,000 profiles of one program (profdir.c, ten
# runs of 1,000 short children, each run in a directory of its own, so
# that no pid is reused within one): its time and peak memory, against
# 1,000 of them.  Time follows the files; memory stays bounded
# (profiles.c holds 32 MB of what they recorded).
"$CC" -specs="$O/monprof.specs" -p -O2 -o "$W/profdir" "$B/profdir.c" || exit 1
for k in 0 1 2 3 4 5 6 7 8 9; do
	mkdir "$W/pd$k"
	PROFDIR="$W/pd$k" "$W/profdir" 1000 || exit 1
done
profdir_run() {
	/usr/bin/time -f "%e %M" -o "$W/pdt" "$O/prof" "$W/profdir" "$@" \
	    > "$W/pd.report" || exit 1
	n=$(ls "$@" | grep -c '\.profdir$')
	calls=$(awk '$NF == "leaf" { print $4 }' "$W/pd.report")
	printf 'prof: %d profiles (%d MB on disk): %s s, peak RSS %d KiB; leaf %s calls\n' \
	    "$n" $(( $(du -sk "$@" | awk '{ s += $1 } END { print s }') / 1024 )) \
	    $(tail -n 1 "$W/pdt") "$calls"
}
profdir_run "$W/pd0"
profdir_run "$W"/pd[0-9]
