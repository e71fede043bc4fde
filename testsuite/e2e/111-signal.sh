# 111-signal: monitor_signal() dumps a complete profile when the signal
# comes and profiling goes on (the exit write includes everything);
# PROFFLAGS=-sigdump SIG installs it and zeroes the profile after a dump.
rt_cc -O2 -o prog "$E2E/111-signal.c"
./prog handler
expect_eq "$(count_of f prog dump1.out)" 10 "handler: dump"
expect_eq "$(count_of f prog)" 13 "handler: exit"
rm -f mon.out dump1.out
PROFFLAGS="-sigdump SIGUSR2" ./prog
expect_eq "$(count_of f prog dump1.out)" 10 "-sigdump: dump"
expect_eq "$(count_of f prog)" 3 "-sigdump: exit, after the dump"
# without -sigdump, SIGUSR2 keeps its default action (terminate)
st=0
./prog 2>/dev/null || st=$?
expect_eq "$st" 140 "SIGUSR2 without -sigdump"
exit 0
