# lib.sh - helpers for the end-to-end cases (sourced, POSIX sh).
# Set by run.sh: O (build dir), SRCDIR, CC, T (this case's directory).
set -e
E2E=$SRCDIR/testsuite/e2e
SPECS=$O/monprof.specs
MONDUMP=$O/testsuite/tools/mondump
PROF=$O/prof
unset PROFDIR PROFFLAGS GMON_OUT_PREFIX

# fail MESSAGE: stop the case with a message.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip REASON: end the case as skipped (run.sh prints the reason).
skip() {
	echo "$*"
	exit 77
}

# mp_cc ARGS: gcc with the monprof specs (add -p or -pg yourself).
mp_cc() {
	"$CC" -specs="$SPECS" "$@"
}

# rt_cc ARGS: compile and link against the runtime without the plugin.
rt_cc() {
	"$CC" -I"$SRCDIR/include" "$@" "$O/libmonprof.a" -pthread
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# expect_file EXPECTED-FILE ACTUAL-FILE: diff -u, fail on difference.
expect_file() {
	diff -u --label expected --label actual "$1" "$2" || fail "output differs"
}

# counts EXE [MONOUT]: "name count" per function, sorted by name, from the
# cells of MONOUT (default mon.out) mapped through EXE's symbols with
# sym < fnpc <= sym + size, as prof does.
counts() {
	nm -t d --defined-only -S "$1" | awk '$3 ~ /^[TtWw]$/ && NF == 4 {
	    print $1 + 0, $2 + 0, $4 }' > "$T/syms.$$"
	"$MONDUMP" "${2:-mon.out}" | awk -v syms="$T/syms.$$" '
	    BEGIN { while ((getline l < syms) > 0) { split(l, f, " ");
		    n++; a[n] = f[1] + 0; s[n] = f[2] + 0;
		    nm[n] = f[3] } }
	    $1 == "cell" { pc = $2 + 0; hit = "";
		    for (i = 1; i <= n; i++)
			if (a[i] < pc && pc <= a[i] + s[i]) { hit = nm[i]; break }
		    if (hit == "") hit = sprintf("?%s", $2);
		    c[hit] += $3 }
	    END { for (k in c) print k, c[k] }' | sort
	rm -f "$T/syms.$$"
}

# count_of NAME [EXE] [MONOUT]: the count of one function (0 if absent).
count_of() {
	counts "${2:-./a.out}" "${3:-mon.out}" | awk -v f="$1" '
	    $1 == f { print $2; found = 1 } END { if (!found) print 0 }'
}

# ticks EXE [MONOUT]: "name samples" per function (bins mapped to the
# function holding their first pc; "?" outside every function), most
# samples first.
ticks() {
	nm -t d -S --defined-only "$1" |
	    awk '$3 ~ /^[TtWw]$/ { print $1 + 0, $2 + 0, $4 }' > "$T/tsyms.$$"
	"$MONDUMP" "${2:-mon.out}" | awk -v syms="$T/tsyms.$$" '
	    BEGIN { while ((getline l < syms) > 0) { split(l, f, " "); n++;
		    a[n] = f[1]; s[n] = f[2]; nm[n] = f[3] } }
	    $1 == "hdr" { lpc = $2; hpc = $3; nb = $5 }
	    $1 == "bin" { pc = lpc + $2 * (hpc - lpc) / nb; hit = "?";
		    for (i = 1; i <= n; i++)
			if (a[i] <= pc && pc < a[i] + s[i]) hit = nm[i];
		    t[hit] += $3 }
	    END { for (k in t) print k, t[k] }' | sort -k2nr
	rm -f "$T/tsyms.$$"
}

# meta KEY [MONOUT]: value of metadata cell KEY (numeric), empty if absent.
meta() {
	"$MONDUMP" "${2:-mon.out}" | awk -v k="$1" '$1 == "meta" && $2 == k { print $3 }'
}

# test_users: the user the tests run as and, for root where setpriv
# is, nobody, whose processes hold no privilege (the perf helper is then
# a thread glibc does not count: runtime/rawthread.c).  as_user USER:
# the command words that run a command as USER.  user_dir DIR: DIR made
# afresh, writable by both.
test_users() {
	id -un
	[ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && echo nobody
	return 0
}
as_user() {
	case $1 in
	nobody)	echo "setpriv --reuid=65534 --regid=65534 --clear-groups" ;;
	esac
}
user_dir() {
	rm -rf "$1"
	mkdir "$1"
	chmod 777 "$1"
	chmod 755 .
}

# plain_cc ARGS: the same program without the runtime (hooks.h's hook is
# a stub), to compare what a program does with and without profiling.
plain_cc() {
	"$CC" -I"$SRCDIR/include" "$@" "$E2E/nomon.c" -pthread
}

# csv_tsv: CSV (RFC 4180, prof's --format=csv) on stdin as
# tab-separated fields, each unquoted: a quoted field's commas and
# doubled quotes are its own.
csv_tsv() {
	awk '{
	    s = $0; out = ""; n = 0
	    do {
		if (substr(s, 1, 1) == "\"") {
			f = ""; s = substr(s, 2)
			for (;;) {
				i = index(s, "\"")
				if (i == 0) { f = f s; s = ""; break }
				f = f substr(s, 1, i - 1); s = substr(s, i + 1)
				if (substr(s, 1, 1) != "\"") break
				f = f "\""; s = substr(s, 2)
			}
			more = substr(s, 1, 1) == ","; s = substr(s, 2)
		} else if ((i = index(s, ",")) > 0) {
			f = substr(s, 1, i - 1); s = substr(s, i + 1); more = 1
		} else {
			f = s; s = ""; more = 0
		}
		out = out (n++ ? "\t" : "") f
	    } while (more)
	    print out }'
}

# in_profdir DIR CMD...: run CMD with PROFDIR=DIR (made if missing), its
# pid in $pid (the <pid> of the names it writes there); a bad status or
# anything on stderr fails the case.
in_profdir() {
	_d=$1
	shift
	mkdir -p "$_d"
	PROFDIR=$_d "$@" 2> "$T/in_profdir.err" &
	pid=$!
	wait $pid || fail "$*: status $?"
	[ ! -s "$T/in_profdir.err" ] ||
	    fail "$*: stderr: $(cat "$T/in_profdir.err")"
}

# planted: in ./shared, mode 1777, ./prog (132-setuid.c) runs as nobody
# while root plants shared/<pid>.prog and shared/.monprof.<pid>.tmp
# ("planted"); its pid in $pid, its output in out and err, and the name
# its profile got beside the planted one in $alt.  Skipped without root.
planted() {
	[ "$(id -u)" = 0 ] || skip "needs root to plant files as another user"
	command -v setpriv > /dev/null || skip "no setpriv to run it as nobody"
	rt_cc -O2 -o prog "$E2E/132-setuid.c"
	chmod 755 .
	mkdir shared
	chmod 1777 shared
	mkfifo go
	chmod 666 go
	PROFDIR=shared setpriv --reuid=65534 --regid=65534 --clear-groups \
	    ./prog wait < go > out 2> err &
	pid=$!
	echo planted > "shared/$pid.prog"
	echo planted > "shared/.monprof.$pid.tmp"
	echo > go
	wait $pid || fail "status $?"
	alt=$(ls shared | grep "^$pid\.prog\.[0-9a-f]\{16\}$") ||
	    fail "no profile beside it: $(ls shared)"
}

# basic PIE: build 101-basic.c (-pie or -no-pie) linked with the runtime
# and run it: ./mon.out is written at exit; its pid in $pid.
basic() {
	rm -f mon.out
	rt_cc -O2 $1 -fPIE -o a.out "$E2E/101-basic.c"
	./a.out &
	pid=$!
	wait $pid || fail "$1: exit status"
	[ -f mon.out ] || fail "$1: no mon.out"
}

# stacks EXE [MONOUT]: the sampled stacks of MONOUT (default mon.out),
# folded as FlameGraph's stackcollapse does: "name;name;...;leaf N",
# root first, equal stacks summed, most samples first.  A caller's frame
# is named at its return address less one; a frame in no function of
# EXE is "?".
stacks() {
	nm -t d -S --defined-only "$1" |
	    awk '$3 ~ /^[TtWw]$/ { print $1 + 0, $2 + 0, $4 }' > "$T/ssyms.$$"
	"$MONDUMP" "${2:-mon.out}" | awk -v syms="$T/ssyms.$$" '
	    BEGIN { while ((getline l < syms) > 0) { split(l, f, " "); n++;
		    a[n] = f[1]; s[n] = f[2]; nm[n] = f[3] } }
	    function name(pc,  i) {
		    for (i = 1; i <= n; i++)
			if (a[i] <= pc && pc < a[i] + s[i]) return nm[i]
		    return "?" }
	    function flush(  i, out) {
		    if (ns == 0) return
		    out = ""
		    for (i = 1; i <= depth; i++)
			out = out (i > 1 ? ";" : "") \
			    name(i < depth ? fr[i] - 1 : fr[i])
		    sum[out] += cnt }
	    $1 == "meta" && $2 == 28 { flush(); ns = 1
		    cnt = int($3 / 256); depth = $3 % 256 }
	    $1 == "meta" && $2 == 29 { fr[++depth] = $3 }
	    END { flush(); for (k in sum) print k, sum[k] }' | sort -k2nr
	rm -f "$T/ssyms.$$"
}
