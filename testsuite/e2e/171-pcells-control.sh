# 171-pcells-control: with thread-local counters (hook ABI 3),
# moncontrol(0) excludes the calls of every thread made while off, those
# of a thread that started and ended while off too; a fork child starts
# from zero with its own threads, and the parent goes on.  The files of
# PROFFLAGS=-threads add up exactly to the process's.
mp_cc -p -O2 -I"$SRCDIR/include" -o a.out "$E2E/171-pcells-control.c" -pthread
readelf -SW a.out | grep -q ' __mon_pcells ' || fail "no __mon_pcells section"
in_profdir d ./a.out
child=$(ls d | grep -v "^$pid\\.")
counts a.out d/$pid.a.out | awk '$2 != 0' | tr '\n' ' ' > parent
counts a.out d/$child | awk '$2 != 0' | tr '\n' ' ' > child
expect_eq "$(cat parent)" "f 10 g 107 h 4 k 1 main 1 run_a 1 run_h 1 " "parent"
expect_eq "$(cat child)" "f 2 k 8 run_k 1 " "child"
# h was called (while off): it has its cell, with no calls.
counts a.out d/$pid.a.out | grep -q '^h ' || fail "h has no cell"

# -threads: one file per thread, which add up to the process's counts.
rm -rf d
in_profdir d env PROFFLAGS=-threads ./a.out
ls d
for f in d/$pid.*; do counts a.out $f; done |
    awk '{ n[$1] += $2 } END { for (k in n) if (n[k]) print k, n[k] }' |
    sort | tr '\n' ' ' > sum
expect_eq "$(cat sum)" "f 10 g 107 h 4 k 1 main 1 run_a 1 run_h 1 " \
    "-threads: the parent's files"
expect_eq "$(ls d | grep -c "^$pid\\.")" 4 "-threads: the parent's files (main, A, B, C)"
exit 0
