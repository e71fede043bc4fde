# 108-profflags: -disable_default, -dirname, -pids/-nopids, -rate,
# -itimer, and one warning line for an unknown flag.
rt_cc -O2 -o prog "$E2E/101-basic.c"
PROFFLAGS=-disable_default ./prog
expect_eq "$(ls)" prog "-disable_default: files"
mkdir d e
PROFFLAGS="-dirname d" ./prog &
pid=$!
wait $pid
expect_eq "$(ls d)" "$pid.prog" "-dirname: file"
PROFDIR=e PROFFLAGS=-nopids ./prog
expect_eq "$(ls e)" mon.out "-nopids: file"
PROFFLAGS=-pids ./prog &
pid=$!
wait $pid
[ -f "$pid.prog" ] || fail "-pids: no ./$pid.prog"
rm -f "$pid.prog"
PROFFLAGS="-rate 2000" ./prog
expect_eq "$(meta 3)" 2000 "-rate: rate"
expect_eq "$(meta 4)" 1 "-rate: sampler"
PROFFLAGS="-itimer" ./prog
expect_eq "$(meta 4)" 2 "-itimer: sampler"
r=$(meta 3)
[ "$r" -ge 1 ] && [ "$r" -le 1000 ] || fail "-itimer: rate $r"
PROFFLAGS="-bogus -rate 5000" ./prog 2> err
expect_eq "$(wc -l < err)" 1 "unknown flag: stderr lines"
grep -q PROFFLAGS err || fail "unknown flag: message: $(cat err)"
expect_eq "$(meta 3)" 5000 "flags after an unknown one"
expect_eq "$(count_of leaf prog)" 1235 "leaf"
exit 0
