# 403-callbacks: a qsort comparator and a function called back from a
# shared object get exact counts with the caller <external>; recursion
# shows as gprof expects: calls 1+9 in the graph, the recursive line.
. "$E2E/400-gprof.subr"
printf 'void twice(void (*f)(void)) { f(); f(); __asm__ volatile(""); }\n' > lib.c
"$CC" -O2 -fPIC -shared lib.c -o lib.so
mp_cc -pg -O2 "$E2E/403-callbacks.c" -o prog -ldl
./prog ./lib.so > out || fail "run"
ncmp=$(awk '{ print $1 }' out)
[ "$ncmp" -gt 500 ] || fail "qsort made $ncmp comparisons"
flat prog > got
printf '%s\n' "callback 2" "cmp $ncmp" "fact 1" "main 1" > want
expect_file want got
graph prog > got
printf '%s\n' "<external> callback 2/2" "<external> cmp $ncmp/$ncmp" \
    "<external> main 1/1" "fact fact 9" "main fact 1/1" | sort > want
expect_file want got
gprof -b -q prog gmon.out | grep -Eq '^\[[0-9]+\].* 1\+9 +fact ' ||
    fail "no 1+9 on fact's line"
expect_eq "$(count_of fact prog)" 10 "mon.out fact"
expect_eq "$(count_of cmp prog)" "$ncmp" "mon.out cmp"
