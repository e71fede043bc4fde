# 165-sigdump-objects: a daemon dumped twice with PROFFLAGS -sigdump
# across the load of an instrumented object: the first dump knows no
# object, the second holds the object's calls and time by name, the
# exit profile only what came after.
cat > lib.c <<'C'
long __attribute__((noinline)) g(long x) { __asm__ volatile(""); return x + 2; }
long __attribute__((noinline)) spin(long n)
{ long s = 0; for (long i = 0; i < n; i++) s += i % 7; return s; }
C
mp_cc -p -O2 -fPIC -shared -o libg.so lib.c
mp_cc -p -O2 -o a.out "$E2E/165-sigdump-objects.c" -ldl
PROFFLAGS="-sigdump USR1" ./a.out "$PWD/libg.so" 2> err ||
    fail "exit status $?"
expect_file /dev/null err
expect_eq "$(ls | grep mon.out | tr '\n' ' ')" "mon.out mon.out.1 mon.out.2 " \
    "files"
# report FILE: prof's rows with calls, "name calls" (time aside: a stray
# sample in ld.so's exit code or the runtime's has no calls).
report() {
	"$PROF" a.out "$1" 2>&1 | awk 'NR > 1 && NF >= 6 { print $NF, $4 }' |
	    sort
}
expect_eq "$(meta 13 mon.out.1)" "" "first dump: no object record"
expect_eq "$(report mon.out.1 | grep -v '^main ')" "f 10" "first dump"
report mon.out.2 > r2
grep -qx "g 20" r2 || fail "second dump: g's calls: $(cat r2)"
grep -qx "spin 1" r2 || fail "second dump: spin's calls: $(cat r2)"
"$PROF" a.out mon.out.2 | awk '$NF == "spin" && $2 > 0 { y = 1 }
    END { exit !y }' || fail "second dump: spin has no time"
grep -q "^f " r2 && fail "second dump: f counted again"
expect_eq "$(report mon.out | grep -v '^main ')" "f 5" "exit profile"
