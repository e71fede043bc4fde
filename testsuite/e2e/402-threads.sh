# 402-threads: 4 threads x 2,000,000 calls: gprof's calls column says
# exactly 8,000,000 (glibc's mcount drops concurrent calls), the arc
# worker -> work carries them all, and mon.out agrees.
. "$E2E/400-gprof.subr"
mp_cc -pg -O2 -pthread "$E2E/402-threads.c" -o prog
./prog 2000000 || fail "run"
flat prog > got
printf '%s\n' "main 1" "work 8000000" "worker 4" > want
expect_file want got
graph prog > got
printf '%s\n' "<external> main 1/1" "<external> worker 4/4" \
    "worker work 8000000/8000000" > want
expect_file want got
expect_eq "$(count_of work prog)" 8000000 "mon.out work"
expect_eq "$(meta 12)" 5 "threads that ran -pg code"
