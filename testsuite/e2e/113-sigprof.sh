# 113-sigprof: with the itimer sampler, a program that takes SIGPROF for
# itself is told so with exactly one line on stderr, and still writes its
# counts; with the perf sampler there is no conflict and nothing is said.
rt_cc -O2 -o prog "$E2E/113-sigprof.c"
PROFFLAGS=-itimer ./prog 2> err
expect_eq "$(wc -l < err)" 1 "itimer: stderr lines"
grep -q SIGPROF err || fail "itimer: message: $(cat err)"
expect_eq "$(count_of spin prog)" 1 "itimer: spin"
./prog 2> err
expect_eq "$(wc -l < err)" 0 "perf: stderr lines"
s=$(meta 10)
[ "$s" -ge 100 ] || fail "perf: only $s samples"
exit 0
