# 129-endings: every way a process can end writes its profile once,
# whole, and ends as without profiling: return, exit() (also from a
# thread, and the last thread's return after main's pthread_exit), and
# every signal whose default action ends a process, the real-time ones
# included (SIGSTKFLT, SIGPWR and the real-time ones wrote nothing
# before).  _exit(), quick_exit() and SIGKILL end it without a profile,
# as documented.  Each run under a time limit: after main's pthread_exit
# the runtime's sampler thread kept the process alive for ever (a hang,
# not a failure, until the limit), and then ran the program's exit
# handlers on its own 256 KB stack (one that needed 600 KB died of
# SIGBUS).
plain_cc -O2 -o plain "$E2E/129-endings.c"
rt_cc -O2 -o prog "$E2E/129-endings.c"
ulimit -c 0
rtmax=$(kill -l RTMAX 2>/dev/null || echo 64)
sigs=$(i=1; while [ $i -le "$rtmax" ]; do
	case $i in 9|17|18|19|20|21|22|23|27|28|32|33) ;; *) echo $i ;; esac
	i=$((i + 1)); done)
for how in return exit thread last $sigs quick _exit; do
	rm -f mon.out
	st=0
	timeout -k 1 20 ./plain $how 2>/dev/null || st=$?
	st2=0
	timeout -k 1 20 ./prog $how 2> err || st2=$?
	expect_eq "$st2" "$st" "$how: exit status"
	grep monprof err && fail "$how: stderr: $(cat err)"
	ls -a | grep -q '\.tmp$' && fail "$how: temporary file left"
	case $how in
	quick|_exit)
		[ -f mon.out ] && fail "$how: a profile (documented: none)" ;;
	*)	expect_eq "$(count_of f prog)" 3 "$how: calls of f" ;;
	esac
done
exit 0
