# 322-prof-pprof: --pprof=FILE as go tool pprof reads it: -top shows the
# functions, seconds and calls of prof's report; -list shows a function's
# lines; -peek shows -pg's exact callers; the mapping has the build-id;
# -diff_base compares two profiles; a program of 1100 functions has them
# all.  Skipped without go (golang-go).
. "$E2E/300-prof.subr"
command -v go > /dev/null 2>&1 ||
    skip "go not found (golang-go): go tool pprof not run"
go tool pprof -h > /dev/null 2>&1 || skip "go tool pprof does not run"
export HOME="$T" GOCACHE="$T/gocache" PPROF_TMPDIR="$T"

# ptop FILE [ARGS]: "name value" per row of pprof -top with a flat value,
# seconds with two decimals for cpu, sorted by name.
ptop() {
	_f=$1
	shift
	go tool pprof -top -nodefraction=0 "$@" "$_f" 2>/dev/null | awk '
	    f && NF >= 6 { v = $1
		if (v ~ /ms$/) v = sprintf("%.2f", substr(v, 1, length(v) - 2) / 1000)
		else if (v ~ /s$/) v = sprintf("%.2f", substr(v, 1, length(v) - 1))
		n = $6; for (i = 7; i <= NF; i++) n = n " " $i
		if (v + 0 != 0) print n, v }
	    $1 == "flat" { f = 1 }' | sort
}

# The reference profile, exact: pprof's rows are prof -C's.
sample
standard | "$MKMON" mon.out
"$PROF" --pprof=p.pb.gz sample > /dev/null
gzip -t p.pb.gz || fail "not gzip"
"$PROF" -C -h sample | cut -c9-15,24-31,45- |
    awk '{ n = $3; for (i = 4; i <= NF; i++) n = n " " $i; sub(/,.*/, "", n)
	print n, $1, ($2 == "" ? 0 : $2) }' | sort > report
awk '$2 != "0.00" { print $1, $2 }' report | sed 's/ \([0-9.]*\)$/ \1/' > want
ptop p.pb.gz > got
expect_file want got
awk '$3 != 0 { print $1, $3 }' report | sort > want
ptop p.pb.gz -sample_index=calls > got
expect_file want got

# The executable's mapping, with its build-id.
go tool pprof -raw p.pb.gz 2>/dev/null | sed -n '/^Mappings/,$p' |
    sed -n 2p > got
expect_eq "$(awk '{ print $3, $4 }' got)" "sample $(buildid)" "mapping"

# -diff_base: alpha's time doubled, the rest the same.
{ standard; tick alpha 600; } | "$MKMON" mon.out
"$PROF" --pprof=q.pb.gz sample > /dev/null
go tool pprof -top -nodefraction=0 -diff_base=p.pb.gz q.pb.gz 2>/dev/null |
    awk '$NF == "alpha" { print $1 }' > got
expect_eq "$(cat got)" "3s" "-diff_base: alpha"
rm mon.out

# A -pg run: the same calls as prof, the callers of -peek are the arcs,
# and -list shows the hot line's time.
cat "$E2E/318-prof-lines.c" > hot.c
mp_cc -pg -O1 -g -o hot hot.c
./hot
"$PROF" --pprof=h.pb.gz hot > /dev/null
"$PROF" -h hot | awk '$4 ~ /^[0-9]+$/ { print $NF, $4 }' | sort > want
ptop h.pb.gz -sample_index=calls > got
expect_file want got
go tool pprof -list '^spin$' h.pb.gz 2>/dev/null |
    awk '$3 == "13:" { print $1, $NF }' > got
expect_eq "$(awk '{ print $2 }' got)" "*/" "-list: the hot line"
[ "$(awk '{ print $1 }' got)" != "." ] || fail "-list: no time on the hot line"

mp_cc -pg -O1 -g -o cg "$E2E/320-prof-callgraph.c"
./cg
"$PROF" --pprof=c.pb.gz cg > /dev/null
go tool pprof -sample_index=calls -peek '^leaf$' c.pb.gz 2>/dev/null |
    awk 'NF == 4 && $3 == "|" { print $NF, $1 }' > got
printf '%s\n' "work 1000" "main 1" > want
expect_file want got
go tool pprof -sample_index=calls -peek '^cmp$' c.pb.gz 2>/dev/null |
    awk 'NF == 4 && $3 == "|" { print $NF, $1 }' > got
expect_eq "$(cat got)" "<external> 5" "-peek cmp"

# A shared object has a mapping of its own, with its build-id, and its
# functions their calls.
printf 'int lib_f(int x) { asm volatile(""); return x + 1; }\n' > lib.c
cat > main.c <<'X'
int lib_f(int);
int main(void) { int i, s = 0; for (i = 0; i < 9; i++) s += lib_f(i); return !s; }
X
mp_cc -p -O1 -g -fPIC -shared -Wl,--build-id lib.c -o libl.so
mp_cc -p -O1 -g main.c -L. -ll -Wl,-rpath,"$T" -o m
./m
"$PROF" --pprof=m.pb.gz m > /dev/null
go tool pprof -raw m.pb.gz 2>/dev/null | sed -n '/^Mappings/,$p' |
    awk 'NR > 1 { print $3, $4 }' > got
printf '%s\n' "m $(buildid m)" "$T/libl.so $(buildid libl.so)" > want
expect_file want got
expect_eq "$(ptop m.pb.gz -sample_index=calls | grep lib_f)" "lib_f 9" \
    "the object's calls"

# 1100 functions with calls: more strings and locations than the first
# 1024 slots of prof's tables, which grow (they did not, and prof hung).
sh "$SRCDIR/testsuite/tools/genprog.sh" -k 1 1100 > many.c
mp_cc -p -O1 -pthread -o many many.c
./many 1100
bounded out err --pprof=n.pb.gz many
expect_eq "$st" 0 "1100 functions: exit status"
expect_eq "$(ptop n.pb.gz -sample_index=calls | wc -l)" 1101 \
    "1100 functions and main: their calls"
