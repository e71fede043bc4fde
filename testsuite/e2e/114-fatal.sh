# 114-fatal: a program killed by a signal whose default action ends it
# (a crash, abort, kill) still writes its profile, and still dies of that
# signal; a handler of the program's own is left alone; PROFFLAGS=-nofatal
# turns this off.
rt_cc -O2 -o a.out "$E2E/114-fatal.c"
ulimit -c 0
for how in segv abrt term pipe alrm usr1; do
	rm -f mon.out
	st=0
	./a.out $how || st=$?
	case $how in
	segv)	want=$((128 + 11)) ;;
	abrt)	want=$((128 + 6)) ;;
	term)	want=$((128 + 15)) ;;
	pipe)	want=$((128 + 13)) ;;
	alrm)	want=$((128 + 14)) ;;
	usr1)	want=$((128 + 10)) ;;
	esac
	expect_eq "$st" "$want" "$how: exit status (killed by the signal)"
	[ -f mon.out ] || fail "$how: no mon.out"
	expect_eq "$(count_of f)" 3 "$how: calls of f"
	ls | grep -q '\.tmp$' && fail "$how: temporary file left"
done
rm -f mon.out
st=0
./a.out own || st=$?
expect_eq "$st" 7 "the program's own SIGTERM handler ran"
[ -f mon.out ] && fail "own handler: the runtime wrote instead of the program"
rm -f mon.out
st=0
PROFFLAGS=-nofatal ./a.out segv || st=$?
expect_eq "$st" 139 "-nofatal: still killed by SIGSEGV"
[ -f mon.out ] && fail "-nofatal: mon.out written"
exit 0
