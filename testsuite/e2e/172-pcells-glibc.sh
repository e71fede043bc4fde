# 172-pcells-glibc: threads that glibc starts itself (SIGEV_THREAD
# notifications of timer_create and mq_notify, C11's thrd_create) run
# the program's functions; the executable's -p functions count in
# thread-local counters (hook ABI 3) that only known threads have read,
# so the specs file links those calls to the runtime (runtime/notify.c,
# thread.c), which makes each such thread known before the program's
# code runs in it.  Exact counts, the values and results the program
# passes through intact, PIE, static and -fPIC (the word of hook ABI 2,
# which needs none of it).  Before: timer_fn 0, the others not tried.
for how in "" -static -fPIC; do
	rm -f mon.out
	mp_cc -p -O2 $how -o a.out "$E2E/172-pcells-glibc.c" -pthread -lrt ||
	    fail "$how: build"
	st=0
	./a.out || st=$?
	expect_eq "$st" 0 "$how: status"
	expect_eq "$(counts a.out | grep -E '^(timer_fn|mq_fn|c11_fn|seen) ' |
	    tr '\n' ' ')" "c11_fn 20 mq_fn 10 seen 10 timer_fn 30 " "$how: counts"
done
exit 0
