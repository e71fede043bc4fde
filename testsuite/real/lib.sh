# lib.sh - helpers for the real-program suite (sourced by run.sh, POSIX sh).
# A project script (NAME.sh) sets PKG (Debian source package), SYSTEM,
# WORK_PROG (the workload's program), HOT (a shell pattern for the
# workload's hot function, as perf finds it in the plain build) and
# defines build FLAGS, check and workload, each run in the build
# directory B with SRC naming this mode's copy of the sources.
# Optional: INCL (a function whose inclusive share of the workload's
# time prof must give as perf --call-graph dwarf does on the plain
# build), STACKCOPY (the bytes of stack perf copies, where the workload
# asks the runtime for more than 8 KB), TOOLS (commands it needs), PKGS
# (Debian packages of the libraries its build uses), INTREE=1 (builds
# only in its source tree), workload_1t (the workload in one thread,
# for the exact counts), HOT_PG (the hot function of the -pg build,
# where -pg's own cost, a call to mcount in every function's body,
# makes another function the hottest, in prof and gprof alike), XFAIL_P,
# XFAIL_PG, XFAIL_GPROF (why the top function of prof with -p, of prof
# and gprof with -pg, of gprof alone is known to be another: the check
# then fails when it passes).

# ---------------------------------------------------------------- flags
# How users give a build system the profiling FLAGS (-specs=... -p or
# -pg): the lines the README documents.  Every one passes FLAGS to the
# compiler and to the linker, so the specs file may be read twice, and
# runs the configure step with PROFDIR empty, so its test programs
# write no profile.  Extra arguments go to the configure step.

# autotools FLAGS [ARG...]: libtool too, which passes -specs on to the
# link of a shared library.
autotools() {
	f=$1
	shift
	PROFDIR= "$SRC/configure" CFLAGS="-O2 $f" LDFLAGS="$f" "$@" &&
	make -j"$JOBS"
}

# cmake_build FLAGS LANG [ARG...]: CMake links with CMAKE_<LANG>_FLAGS
# and CMAKE_EXE_LINKER_FLAGS both.
cmake_build() {
	f=$1
	l=$2
	shift 2
	PROFDIR= cmake "$SRC" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	    -DCMAKE_"$l"_FLAGS="$f" -DCMAKE_EXE_LINKER_FLAGS="$f" "$@" &&
	make -j"$JOBS"
}

# meson_build FLAGS LANG DIR [ARG...]: Meson links without <lang>_args,
# so FLAGS go to <lang>_link_args too.
meson_build() {
	f=$1
	l=$2
	d=$3
	shift 3
	PROFDIR= meson setup . "$d" --buildtype=debugoptimized \
	    -D"$l"_args="$f" -D"$l"_link_args="$f" "$@" &&
	ninja -j"$JOBS"
}

# make_build FLAGS [ARG...]: a hand-written Makefile, with the flags on
# make's command line.
make_build() {
	f=$1
	shift
	make -j"$JOBS" CC="$CC" CFLAGS="-O2 $f" LDFLAGS="$f" "$@"
}

# ---------------------------------------------------------------- checks
# Tool -> Debian package, for the apt-get line.
tool_pkg() {
	case $1 in
	ninja) echo ninja-build ;;
	*) echo "$1" ;;
	esac
}

now() {
	date +%s.%N
}

# elapsed START: seconds since START, two decimals.
elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f\n", b - a }'
}

# problem TEXT: record a failure of this project and mode.
problem() {
	echo "$MODE: $*" >> "$R/$NAME/problems"
	echo "    FAIL $NAME $MODE: $*"
}

# xfail TEXT: a check that fails for a known reason.
xfail() {
	echo "$MODE: $*" >> "$R/$NAME/xfail"
	echo "    XFAIL $NAME $MODE: $*"
}

# result KEY VALUE: one cell of the summary table.
result() {
	echo "$2" > "$R/$NAME/$MODE.$1"
}

# fetch PKG: unpack PKG's upstream tarball (the Debian orig tarball,
# fetched by apt-get source once) into $CACHE/PKG.  Fails with the
# apt-get log in $CACHE/dl/PKG.log.  The orig tarball is all it needs:
# a package whose current .dsc or Debian diff the mirror no longer has
# (python3.11's security updates) is built from the tarball that came.
fetch() {
	[ -f "$CACHE/$1/.unpacked" ] && return 0
	mkdir -p "$CACHE/dl" || return 1
	orig() {
		ls "$CACHE/dl/$1"_*.orig.tar.* 2>/dev/null | grep -v '\.asc$' |
		    head -n 1
	}
	if [ -z "$(orig "$1")" ]; then
		# apt's sandbox user cannot write here; root downloads anyway.
		(cd "$CACHE/dl" && apt-get source --download-only "$1") \
		    > "$CACHE/dl/$1.log" 2>&1
	fi
	t=$(orig "$1")
	[ -n "$t" ] || { echo "no orig tarball" >> "$CACHE/dl/$1.log"; return 1; }
	rm -rf "$CACHE/$1"
	mkdir -p "$CACHE/$1" &&
	tar -xf "$t" -C "$CACHE/$1" --strip-components=1 &&
	touch "$CACHE/$1/.unpacked"
}

# fetch_reason: why apt-get source failed, as one phrase.
fetch_reason() {
	if ! grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources &&
	    ! grep -qs '^deb-src' /etc/apt/sources.list \
	    /etc/apt/sources.list.d/*.list; then
		echo "deb-src is not enabled: change 'Types: deb' to" \
		    "'Types: deb deb-src' in" \
		    "/etc/apt/sources.list.d/debian.sources (or add" \
		    "'deb-src' lines to /etc/apt/sources.list) and run" \
		    "apt-get update"
		return
	fi
	grep -h '^E:' "$CACHE"/dl/*.log 2>/dev/null | tail -n 1 | cut -c1-200
}

# gen_text FILE BYTES: deterministic English-like text (an LCG picks
# words), so every run compresses the same input.
gen_text() {
	awk -v n="$2" 'BEGIN {
	    w = split("the of and to in is that it for was on are as with " \
		"his they at be this from have or by one had not but what " \
		"all were when we there can an your which their said if do " \
		"will each about how up out them then she many some so " \
		"these would other into has more her two like him see time " \
		"could no make than first been its who now people my made " \
		"over did down only way find use may water long little very " \
		"after words called just where most know", v, " ")
	    x = 12345
	    while (out < n) {
		x = (x * 16807) % 2147483647
		line = line v[x % w + 1]
		if (length(line) > 70) {
			print line; out += length(line) + 1; line = ""
		} else
			line = line " "
	    } }' > "$1"
}

# gen_json FILE RECORDS: a deterministic JSON array of nested records.
gen_json() {
	awk -v n="$2" 'BEGIN {
	    x = 777; printf "["
	    for (i = 0; i < n; i++) {
		x = (x * 16807) % 2147483647
		printf "%s\n{\"id\": %d, \"name\": \"item-%d\", " \
		    "\"score\": %d.%02d, \"ok\": %s, \"tags\": [\"t%d\", " \
		    "\"t%d\", \"t%d\"], \"pos\": {\"x\": %d, \"y\": %d, " \
		    "\"z\": [%d, %d, %d]}, \"note\": null}", i ? "," : "",
		    i, x % 100000, x % 1000, x % 100,
		    x % 2 ? "true" : "false", x % 7, x % 11, x % 13,
		    x % 4096, x % 8192 - 4096, x % 3, x % 5, x % 9
	    }
	    print "\n]" }' > "$1"
}

# scan_exes DIR: "name path build-id" for every ELF executable under
# DIR, and every link to one (zstd runs as xz, unzstd...; the profile
# is named after the link).
scan_exes() {
	top=$(readlink -f "$1")
	find "$1" \( -type f -perm -u+x -o -type l \) ! -name '*.so' \
	    ! -name '*.so.*' ! -name '*.o' ! -name '*.a' | while read -r f; do
		case $(readlink -f "$f") in "$top"/*) ;; *) continue ;; esac
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		    echo "${f##*/} $f $(readelf -n "$f" |
		    awk '/Build ID:/ { print $3 }')"
	done
	return 0
}

# profile_buildid FILE: the build-id prefix a profile records, as the
# hex string readelf prints (the cell holds its first 8 bytes).  The
# cells begin at byte 24, and in a compact profile (mon.h) 32 bytes
# later, in its first run, which holds the header and the metadata.
profile_buildid() {
	_at=24
	[ "$(head -c 4 "$1")" = MONZ ] && _at=56
	od -An -v -w16 -tx8 -j $_at -N 1024 "$1" | awk '
	    $1 == "0000000000000008" {
		for (i = 15; i >= 1; i -= 2) printf "%s", substr($2, i, 2)
		print ""; exit }'
}

# exe_for PROFILE: the executable that wrote PROFILE (<pid>.<prog>):
# the one build-tree ELF file named prog, or the one whose build-id the
# profile records (among several of that name, or any, as a test may
# have removed the link it ran).
exe_for() {
	prog=${1##*/}
	prog=${prog#*.}
	awk -v p="$prog" -v id="$(profile_buildid "$1")" '
	    $1 == p { n++; named = $2 }
	    id != "" && index($3, id) == 1 { if ($1 == p) byname = $2; any = $2 }
	    END { print n == 1 ? named : byname != "" ? byname : any }' \
	    "$M/exes"
}

# prof_csv ARGS...: "name<TAB>calls<TAB>seconds<TAB>inclusive<TAB>
# object<TAB>file" for each row of prof --format=csv --no-demangle ARGS
# (raw symbols, as gprof's --no-demangle), in prof's order (calls empty
# for a row without a count; file empty for a global function).  The
# columns are found by the header's names; a name may hold commas (and
# is then quoted), the fields after it do not.
prof_csv() {
	"$PROF" --format=csv --no-demangle "$@" | awk '
	    NR == 1 { k = split($0, h, ",") - 1
		for (j = 2; j <= k + 1; j++) col[h[j]] = j - 1; next }
	    { n = split($0, f, ",")
	    s = f[1]; for (j = 2; j <= n - k; j++) s = s "," f[j]
	    if (s ~ /^".*"$/) { s = substr(s, 2, length(s) - 2)
		gsub(/""/, "\"", s) }
	    print s "\t" f[n - k + col["calls"]] "\t" \
		f[n - k + col["seconds"]] "\t" f[n - k + col["inclusive"]] \
		"\t" f[n - k + col["object"]] "\t" f[n - k + col["file"]] }'
}

# prof_rows EXE PROFILE...: "name<TAB>calls<TAB>seconds" for each row
# of prof -g, in prof's order; from the CSV, whose seconds are exact.
prof_rows() {
	prof_csv -g "$@" | cut -f 1-3
}

# gprof_rows EXE GMON...: "name<TAB>calls<TAB>seconds" of gprof's flat
# profile: self seconds from the share of time and the total, as gprof
# rounds its seconds to 10 ms.
gprof_rows() {
	gprof -b -p --no-demangle "$@" | awk '
	    /^ *%/ || /^ *time/ || /^Flat/ || /^Each/ || NF == 0 { next }
	    $1 ~ /^[0-9.]+$/ { n++; name[n] = $NF; pct[n] = $1
		calls[n] = NF >= 7 ? $4 : ""; if ($2 > total) total = $2 }
	    END { for (i = 1; i <= n; i++)
		printf "%s\t%s\t%.4f\n", name[i], calls[i], pct[i] * total / 100 }'
}

# prof_counts EXE PROFILE...: "function<TAB>calls" for each function
# prof counts calls of, sorted.  A function is named by its name
# (aliases joined, as prof joins them), its object's file name unless
# it is EXE's, so that a shared object's functions meet the same
# object's of another build whatever its path, and a static's source
# file.  Two functions alike in all three (rare) are one, their calls
# summed, as their addresses differ from build to build.
prof_counts() {
	prof_csv "$@" | awk -F '\t' -v exe="${1##*/}" '$2 != "" {
	    o = $5; sub(/.*\//, "", o)
	    k = $1 (o != "" && o != exe ? " <" o ">" : "") \
		($6 != "" ? " (" $6 ")" : "")
	    c[k] += $2 }
	    END { for (k in c) printf "%s\t%.0f\n", k, c[k] }' | sort
}

# gprof_names EXE GMON...: "name<TAB>file<TAB>row" for each function
# symbol of EXE (file: a local's source file, as prof's CSV names it),
# row being the symbol of gprof's flat profile that its calls go to.
# gprof keeps one symbol of those at an address and drops others by
# their names (f.isra.0, f.part.0, f.cold, _GLOBAL__sub_I_x.cpp, and
# f.constprop.0 where its test reads on into the next name of the string
# table), counting a dropped symbol's calls in the kept one below it;
# which it kept is what gprof -z lists.
gprof_names() {
	gprof -b -p -z --no-demangle "$@" | awk '$1 ~ /^[0-9.]+$/ {
	    print "K\t" $NF }' > "$M/gprof.kept"
	readelf -SsW "$1" | awk '
	    /^ *\[ *[0-9]+\]/ { i = $0; sub(/^ *\[ */, "", i)
		sub(/\].*/, "", i); l = $0; sub(/^[^]]*\]/, "", l)
		if (split(l, f) == 10 && f[7] ~ /X/) x[i] = 1; next }
	    /^Symbol table/ { sym = $3 == "'"'.symtab'"'"; next }
	    !sym || NF < 8 { next }
	    $4 == "FILE" { file = $8; next }
	    !($7 in x) { next }
	    $4 == "FUNC" || $4 == "IFUNC" || $4 == "NOTYPE" {
		print $2 "\t" $8 "\t" ($5 == "LOCAL" ? file : "") }' |
	    sort -t '	' -k1,1 | awk -F '\t' '
	    function group(   i) {
		for (i = 1; i <= n; i++)
			if (nm[i] in kept) row = nm[i]
		for (i = 1; i <= n; i++)
			print nm[i] "\t" fl[i] "\t" (row != "" ? row : nm[i])
		n = 0 }
	    $1 == "K" { kept[$2] = 1; next }
	    # As strings: awk reads 000000000000e000 and ...e140 as 0.
	    "@" $1 != a { group(); a = "@" $1 }
	    { n++; nm[n] = $2; fl[n] = $3 }
	    END { group() }' "$M/gprof.kept" -
}

# gprof_ref_counts NAMES EXE PROFILE...: "row<TAB>calls" of prof's
# counts of EXE's own functions gathered into the rows of gprof's flat
# profile of another build, whose gprof_names list is NAMES (a function
# that build lacks keeps its name), sorted.  FILE in EXE's symbols.
gprof_ref_counts() {
	n=$1
	shift
	prof_csv "$@" | awk -F '\t' -v exe="${1##*/}" '
	    NR == FNR { row[$1 SUBSEP $2] = $3; next }
	    $2 != "" { o = $5; sub(/.*\//, "", o); if (o != exe) next
		r = $1; k = split($1, a, ", ")
		for (i = 1; i <= k; i++)
			if ((a[i] SUBSEP $6) in row) { r = row[a[i], $6]; break }
		c[r] += $2 }
	    END { for (r in c) printf "%s\t%.0f\n", r, c[r] }' "$n" - |
	    sort
}

# gprof_counts NAMES EXE GMON...: "row<TAB>calls" of gprof's profile
# of EXE, whose gprof_names list is NAMES, sorted; gprof names a row by
# one of its names.  The calls are every call, as prof counts them: the
# call graph's called+self, as the flat profile leaves out a function's
# calls of itself (and a cycle's line as a whole is no function's).
gprof_counts() {
	n=$1
	shift
	gprof -b -q --no-demangle "$@" | awk '
	    NR == FNR { split($0, f, "\t"); row[f[1]] = f[3]; next }
	    /^\[[0-9]+\]/ && $5 ~ /^[0-9]+(\+[0-9]+)?$/ && $8 != "as" {
		k = split($5, c, "+"); r = $6 in row ? row[$6] : $6
		t[r] += c[1] + (k > 1 ? c[2] : 0) }
	    END { for (r in t) printf "%s\t%.0f\n", r, t[r] }' "$n" - |
	    sort
}

# count_diff A B: "function<TAB>a<TAB>b" for each function whose calls
# differ between the count lists A and B (0 where a list lacks it), the
# largest difference first.
count_diff() {
	awk -F '\t' 'NR == FNR { a[$1] = $2; next } { b[$1] = $2 }
	    END { for (k in a) if (!(k in b)) b[k] = 0
		for (k in b) { x = k in a ? a[k] + 0 : 0; y = b[k] + 0
		    d = x > y ? x - y : y - x
		    if (d) printf "%.0f\t%s\t%.0f\t%.0f\n", d, k, x, y } }' \
	    "$1" "$2" | sort -t '	' -k1,1nr -k2,2 | cut -f 2-
}

# check_profiles DIR EXECLOG: every file in DIR is a complete profile
# that prof (and gprof, for -pg's .gmon files) reads without a word on
# stderr, but for the sampler's cost on a program whose threads block
# often (a note: the machine's privileges, not the profile) and for
# samples the kernel lost when the perf helper did not drain its 1 MB
# of rings in time (a note: a loaded machine, or a program run under
# valgrind, which runs one thread at a time; e2e tests the drain); every
# process whose last image was an instrumented program (EXECLOG, from
# strace; "-" when there is none) left one.  The number
# of profiles goes to $M/nprof.
check_profiles() {
	n=0
	# The writer's temporary files are hidden (.monprof.<pid>.tmp).
	find "$1" -name '*.tmp' > "$M/tmp.left"
	[ -s "$M/tmp.left" ] && problem "temporary files left:" \
	    "$(head -n 3 "$M/tmp.left" | tr '\n' ' ')"
	for f in "$1"/*; do
		[ -e "$f" ] || continue
		case $f in
		*.gmon) [ -f "${f%.gmon}" ] ||
			    problem "$f has no mon.out beside it"
			continue ;;
		esac
		n=$((n + 1))
		exe=$(exe_for "$f")
		if [ -z "$exe" ]; then
			problem "no executable in the build tree for $f"
			continue
		fi
		"$PROF" -g "$exe" "$f" > /dev/null 2> "$M/prof.all"
		rc=$?
		# The sampler's cost where the kernel kept it per thread (no
		# CAP_PERFMON, perf_event_paranoid > 0): the machine's, a
		# note, not a fault of the profile.
		grep -v 'and the sampler worked at each switch' "$M/prof.all" |
		    grep -v ' samples lost by the kernel: ' > "$M/prof.err"
		grep -q 'and the sampler worked at each switch' "$M/prof.all" &&
		    echo "$f" >> "$M/switching"
		sed -n 's/.*: \([0-9][0-9]*\) samples lost by the kernel: .*/\1/p' \
		    "$M/prof.all" >> "$M/lost"
		if [ $rc != 0 ] || [ -s "$M/prof.err" ]; then
			problem "prof -g $exe $f: exit $rc: $(head -n 2 \
			    "$M/prof.err")"
		fi
		[ "$MODE" = pg ] || continue
		if [ ! -f "$f.gmon" ]; then
			problem "$f has no gmon.out beside it"
			continue
		fi
		gprof -b "$exe" "$f.gmon" > /dev/null 2> "$M/prof.err"
		rc=$?
		if [ $rc != 0 ] || [ -s "$M/prof.err" ]; then
			problem "gprof -b $exe $f.gmon: exit $rc: $(head -n 2 \
			    "$M/prof.err")"
		fi
	done
	[ -f "$2" ] && exec_images "$2" | while read -r pid path end; do
		awk -v p="${path##*/}" '$1 == p { f = 1 } END { exit !f }' \
		    "$M/exes" || continue
		case $path in /*) case $path in "$M"/*) ;; *) continue ;; esac
		esac
		if ls "$1/$pid".* > /dev/null 2>&1; then
			case " $XFAIL_KILLED " in *" $end "*)
				problem "process $pid ($path, $end) left a" \
				    "profile: remove $end from XFAIL_KILLED" ;;
			esac
			continue
		fi
		case " $XFAIL_KILLED " in
		*" $end "*) xfail "process $pid ($path) $end left no profile:" \
			    "the runtime does not write on $end" ;;
		*)	problem "process $pid ($path, $end) left no profile" \
			    "in $1" ;;
		esac
	done
	echo "$n" > "$M/nprof"
	if [ -s "$M/switching" ]; then
		echo "    note: $(wc -l < "$M/switching") profiles say their" \
		    "threads blocked often enough to cost the per-thread" \
		    "sampler (perf_event_paranoid $(cat \
		    /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
		rm -f "$M/switching"
	fi
	if [ -s "$M/lost" ]; then
		echo "    note: $(wc -l < "$M/lost") profiles lost $(awk \
		    '{ n += $1 } END { print n }' "$M/lost") samples: the" \
		    "perf helper did not drain its rings in time"
		rm -f "$M/lost"
	fi
}

# exec_images LOG: "pid path end" of each process's last successful
# execve in an strace -f log (calls split by <unfinished ...> included),
# end being "exit", the signal that killed it, or the last signal it got
# when strace saw no end (it may miss one).
exec_images() {
	awk '$2 ~ /^execve\(/ {
		p = $0; sub(/^[0-9]+ +execve\("/, "", p); sub(/".*/, "", p)
		want[$1] = p
		if ($0 ~ /= 0$/) img[$1] = p
	    }
	    $2 == "<..." && $3 == "execve" && $0 ~ /= 0$/ { img[$1] = want[$1] }
	    $2 == "---" { sig[$1] = $3 }
	    $2 == "+++" { end[$1] = $3 == "killed" ? $5 : "exit" }
	    END { for (pid in img) print pid, img[pid],
		end[pid] != "" ? end[pid] : sig[pid] != "" ? sig[pid] : "exit" }' "$1"
}

# traced LOG FUNCTION: run the project's FUNCTION, logging every execve
# of it and its children to LOG when strace can and LOG is not "-".
traced() {
	if [ "$STRACE" = 1 ] && [ "$1" != - ]; then
		strace -f -q --seccomp-bpf -e trace=execve -e 'signal=!CHLD' \
		    -o "$1" sh "$REAL/step.sh" "$NAME" "$2"
	else
		"$2"
	fi
}
