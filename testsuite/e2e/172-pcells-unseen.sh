# 172-pcells-unseen: what README's Limitations says of threads the
# runtime does not see start (glibc's SIGEV_THREAD notifications, raw
# clone): an executable's -p functions they call are not counted in
# them (hook ABI 3 counts in TLS that only known threads have read); a
# -fPIC build (the word of hook ABI 2) counts them.  Threads of
# pthread_create are counted either way.
mp_cc -p -O2 -o a.out "$E2E/172-pcells-unseen.c" -pthread -lrt
./a.out || fail "status $?"
expect_eq "$(count_of seen)" 10 "seen"
expect_eq "$(count_of timer_fn)" 0 "timer_fn (an unseen thread's)"
rm -f mon.out
mp_cc -p -O2 -fPIC -o a.out "$E2E/172-pcells-unseen.c" -pthread -lrt
readelf -SW a.out | grep -q ' __mon_pcells ' && fail "-fPIC: records"
./a.out || fail "-fPIC: status $?"
expect_eq "$(count_of seen)" 10 "-fPIC: seen"
expect_eq "$(count_of timer_fn)" 10 "-fPIC: timer_fn"
exit 0
