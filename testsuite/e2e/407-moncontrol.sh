# 407-moncontrol: moncontrol(0) excludes -pg calls counted inline by the
# arc cache, in gmon.out (flat profile and call graph) and in mon.out.
. "$E2E/400-gprof.subr"
mp_cc -pg -O2 -I"$SRCDIR/include" "$E2E/407-moncontrol.c" -o prog
./prog || fail "run"
flat prog > got
printf '%s\n' "f 13" "g 1" "main 1" > want
expect_file want got
graph prog > got
printf '%s\n' "<external> main 1/1" "main f 13/13" "main g 1/1" | sort > want
expect_file want got
expect_eq "$(count_of f prog)" 13 "mon.out f"
expect_eq "$(count_of g prog)" 1 "mon.out g"
