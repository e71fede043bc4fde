# 137-seccomp: a program that confines itself with seccomp keeps its
# status and its output (137-seccomp.c).  A filter that refuses getpid()
# with EPERM: the runtime took the error for a vfork child's and ended
# the program with _exit(): its buffered output was lost; now the
# profile is written too.  A filter that refuses all but a few calls
# with EPERM: output and status kept, and the profile is written whole
# by the writer process that the runtime started before the filter
# (144-seccomp-kill for filters that kill).
plain_cc -O2 -o plain "$E2E/137-seccomp.c"
mp_cc -p -O2 -o a.out "$E2E/137-seccomp.c"
for m in getpid allow; do
	st=0
	./plain $m > want 2>&1 || st=$?
	expect_eq "$st" 7 "$m: plain: exit status"
	rm -f mon.out
	st=0
	./a.out $m > got 2> err || st=$?
	expect_eq "$st" 7 "$m: exit status"
	expect_file want got
	[ -s err ] && fail "$m: stderr: $(cat err)"
	[ -f mon.out ] || fail "$m: no mon.out when it ended"
	expect_eq "$(count_of f)" 10 "$m: calls of f"
done
true
