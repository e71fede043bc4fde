# 419-gsbase: a program that sets its own %gs base (arch_prctl
# ARCH_SET_GS, as Wine does) where the executable's -p and -pg code
# counts at it: the call is refused with EPERM and one line, and the
# program runs on with its memory untouched and its counts exact;
# before, each count was added at the program's base plus the counter's
# address.  By syscall() and by glibc's arch_prctl(), dynamic and
# static.  Where the executable does not count at %gs (update=atomic,
# -fPIC), the call is made as asked, and the program's block stays
# untouched too.
line="monprof: the program sets its %gs base (arch_prctl(ARCH_SET_GS)), where this executable's -p or -pg code counts: refused (EPERM); build it -fPIC or with -fplugin-arg-monprof-update=atomic to profile it"
for how in "-p" "-pg" "-p -static"; do
	case $how in
	*-static) [ -f "$("$CC" -print-file-name=libc.a)" ] || continue ;;
	esac
	mp_cc $how -O2 -o a.out "$E2E/419-gsbase.c" 2> log ||
	    fail "$how: build: $(head -n 1 log)"
	for via in syscall libc; do
		rm -f mon.out gmon.out
		./a.out $via > out 2> err || fail "$how $via: status $?"
		expect_eq "$(cat out)" \
		    "set: -1 Operation not permitted, block: 0 bytes written" \
		    "$how $via: output"
		expect_eq "$(cat err)" "$line" "$how $via: stderr"
		expect_eq "$(count_of leaf)" 250 "$how $via: leaf"
	done
done
for how in "-p -fplugin-arg-monprof-update=atomic" "-p -fPIC -pie"; do
	mp_cc $how -O2 -o a.out "$E2E/419-gsbase.c" 2> log ||
	    fail "$how: build: $(head -n 1 log)"
	for via in syscall libc; do
		rm -f mon.out
		./a.out $via > out 2> err || fail "$how $via: status $?"
		expect_eq "$(cat out)" "set: 0 ok, block: 0 bytes written" \
		    "$how $via: output"
		[ -s err ] && fail "$how $via: stderr: $(cat err)"
		expect_eq "$(count_of leaf)" 250 "$how $via: leaf"
	done
done
exit 0
