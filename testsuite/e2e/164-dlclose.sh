# 164-dlclose: an instrumented object closed with dlclose() keeps its
# calls and samples in the profile, named by its functions, and another
# object mapped at its place later is not credited with them (before:
# liba's 1,100 calls went to libb's functions).
cat > a.c <<'C'
long __attribute__((noinline)) fa(long x) { __asm__ volatile(""); return x + 1; }
long __attribute__((noinline)) spin(long n)
{ long s = 0; for (long i = 0; i < n; i++) s += i % 7; return s; }
C
cat > b.c <<'C'
long __attribute__((noinline)) fb(long x) { __asm__ volatile(""); return x + 2; }
long __attribute__((noinline)) gb(long x) { __asm__ volatile(""); return x + 3; }
C
mp_cc -p -O2 -fPIC -shared -o liba.so a.c
mp_cc -p -O2 -fPIC -shared -o libb.so b.c
mp_cc -p -O2 -o a.out "$E2E/164-dlclose.c" -ldl
./a.out "$PWD/liba.so" "$PWD/libb.so" > out
cat out
"$PROF" a.out > report 2> err
expect_file /dev/null err
cat report
calls() { awk -v f="$1" '$NF == f { print (NF >= 6 ? $4 : 0) }' report; }
expect_eq "$(calls fa)" 1100 "fa's calls after 100 dlclose()s"
expect_eq "$(calls spin)" 100 "spin's calls"
expect_eq "$(calls fb)" 7 "fb's calls"
expect_eq "$(calls gb)" "" "gb is never called"
awk '$NF == "spin" && $2 > 0 { y = 1 } END { exit !y }' report ||
    fail "spin has no time after its object was closed"
# spin's samples were not left unnamed (a stray one in the vDSO may be).
awk '$NF == "spin" { s = $2 } $NF == "<unknown>" { u = $2 }
    END { exit !(s > 10 * u) }' report || fail "spin's time went to <unknown>"
