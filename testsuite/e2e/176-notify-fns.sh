# 176-notify-fns: 70 distinct SIGEV_THREAD notification functions, each
# notified twice (a timer, then a message queue), where the runtime has
# 64 trampolines, bound for good to the first 64 functions the program
# registers (runtime/notify.c).  Those 64 run in known threads and count
# exactly (2 each); the other 6 run all the same, values intact, unseen,
# and the runtime says so once on stderr.  A bad clock or queue gives
# the plain build's return value and errno (checked by the program).
"$CC" -O2 -pthread -o plain "$E2E/176-notify-fns.c" -lrt
./plain || fail "plain: status $?"
for how in "" -static; do
	rm -f mon.out
	mp_cc -p -O2 $how -pthread -o a.out "$E2E/176-notify-fns.c" -lrt ||
	    fail "$how: build"
	st=0
	./a.out 2> err || st=$?
	expect_eq "$st" 0 "$how: status"
	expect_eq "$(cat err)" "monprof: more than 64 SIGEV_THREAD notification functions: the others' threads are not known" "$how: stderr"
	expect_eq "$(counts a.out | awk '$1 ~ /^n[0-5][0-9]$|^n6[0-3]$/ &&
	    $2 == 2' | wc -l)" 64 "$how: n00 to n63 counted twice"
done
exit 0
