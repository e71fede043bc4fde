# 361-prof-samename: functions of one name are told apart, only where
# their names clash: statics of two objects (the executable and a -p
# shared object, as CPython's module_traverse of two extension modules)
# by the object, " <libmod.so>"; statics of two source files of one
# object by the file, " (a.c)".  Every view names them so: the report,
# -G, -L, pprof, callgrind (and the flame graph, by the same label); CSV and JSON keep the name
# column the name and say the file in a "file" column, the object in
# "object".  -f finds them by the shown name or the symbol.
cat > lib.c <<'X'
static __attribute__((noinline, noclone)) int same(int x) { asm volatile(""); return x + 1; }
int mod_run(int n) { int i, s = 0; for (i = 0; i < n; i++) s += same(i); return s; }
X
cat > a.c <<'X'
static __attribute__((noinline, noclone)) int helper(int x) { asm volatile(""); return x * 2; }
int run_a(int n) { int i, s = 0; for (i = 0; i < n; i++) s += helper(i); return s; }
X
cat > b.c <<'X'
static __attribute__((noinline, noclone)) int helper(int x) { asm volatile(""); return x * 3; }
int run_b(int n) { int i, s = 0; for (i = 0; i < n; i++) s += helper(i); return s; }
X
cat > main.c <<'X'
int mod_run(int), run_a(int), run_b(int);
static __attribute__((noinline, noclone)) int same(int x) { asm volatile(""); return x - 1; }
int main(void) { return mod_run(7) + run_a(3) + run_b(5) + same(1) + same(2) != 65; }
X
mp_cc -pg -g -O2 -fPIC -shared lib.c -o libmod.so || fail "cannot build libmod.so"
mp_cc -pg -g -O2 main.c a.c b.c -L. -lmod -Wl,-rpath,"$T" -o prog ||
    fail "cannot build prog"
./prog || fail "run"

# The report: the calls and the name of each line (times vary).
"$PROF" prog > out 2> err
expect_file /dev/null err
awk 'NR > 1 && $NF != "main" && $4 ~ /^[0-9]+$/ {
    print $4, substr($0, 45) }' out | sort -n > got
cat > want <<'END'
1 mod_run
1 run_a
1 run_b
2 same <prog>
3 helper (a.c)
5 helper (b.c)
7 same <libmod.so>
END
expect_file want got
# Only a clash gets a suffix: one same() left is plain again.
"$PROF" -O prog prog | grep -c ' same <prog>$' > got || true
expect_eq "$(cat got)" 1 "-O prog: still told from the library's"
"$PROF" -l prog 2> /dev/null | grep -c 'helper' > got || true
expect_eq "$(cat got)" 0 "-l: the statics folded"

# -f by the shown name with its suffix, or by the symbol.
"$PROF" -f 'helper \(b' prog | awk 'NR > 1 { print substr($0, 45) }' > got
expect_eq "$(cat got)" "helper (b.c)" "-f by the suffix"
"$PROF" -f '^same$' prog | awk 'NR > 1 { print substr($0, 45) }' |
    sort > got
printf '%s\n' 'same <libmod.so>' 'same <prog>' > want
expect_file want got

# CSV: the name is the name; the file column names a static's file.
"$PROF" --format=csv prog > csv
head -1 csv | grep -q ',inclusive,file$' || fail "CSV header: $(head -1 csv)"
awk -F, '$1 == "helper" || $1 == "same" { n = split($3, p, "/");
    print $1, p[n], $NF }' csv | sort > got
printf '%s\n' 'helper prog a.c' 'helper prog b.c' 'same libmod.so lib.c' \
    'same prog main.c' > want
expect_file want got
"$PROF" --format=json prog | grep -c '"name": "helper", ' > got || true
expect_eq "$(cat got)" 2 "JSON: helper by its name"
"$PROF" --format=json prog | grep -c '"file": "a.c"}' > got || true
expect_eq "$(cat got)" 1 "JSON: a.c"

# -G: each node and its callers by the suffixed name.
"$PROF" -G prog > g
grep -q '^helper (a\.c): 3 calls' g || fail "-G: $(cat g)"
grep -q '^same <libmod\.so>: 7 calls' g || fail "-G: $(cat g)"
# The arcs (the executable's): callees by the suffixed name too.
grep -q '^  *2  *0\.00 s  same <prog>$' g || fail "-G: no callee same <prog>"

# -L: the lines of each, by the suffixed name.
"$PROF" -L prog > l 2> /dev/null
grep -q ' main\.c:2  same <prog>$' l || fail "-L: $(cat l)"
grep -q ' b\.c:1     helper (b\.c)$' l || fail "-L: $(cat l)"

# callgrind: each function its own fn= line.
"$PROF" --callgrind=cg.out prog > /dev/null
grep -c '^c\{0,1\}fn=([0-9]*) helper (a\.c)$' cg.out > got || true
grep -c '^c\{0,1\}fn=([0-9]*) same <libmod\.so>$' cg.out >> got || true
# pprof: the function names, in its string table.
"$PROF" --pprof=p.pb.gz prog > /dev/null
gzip -dc p.pb.gz | grep -ac 'helper (b\.c)' >> got || true
gzip -dc p.pb.gz | grep -ac 'same <prog>' >> got || true
printf '1\n1\n1\n1\n' > want
expect_file want got
