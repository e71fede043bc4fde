# 430-exit-syscall: a program whose main ends by the exit system call,
# as its last thread, ends with status 0 and its profile: the perf
# helper, left the last thread, ends the process.  As root (a pthread
# helper) and as nobody, whose helper is no thread of glibc's
# (runtime/rawthread.c): it ended the process with exit() itself, but
# the runtime's exit handler waited for it to end (hung, and SIGTERM
# blocked: only SIGKILL ended it).
mp_cc -p -O2 -g -o a.out "$E2E/430-exit-syscall.c"
for u in $(test_users); do
	as=$(as_user "$u")
	user_dir d
	$as timeout -s KILL 60 env PROFDIR=d ./a.out 0.2 > out 2> err
	rc=$?
	[ "$rc" != 137 ] || fail "$u: hung: killed after 60 s"
	expect_eq "$rc" 0 "$u: status"
	[ ! -s err ] || fail "$u: stderr: $(cat err)"
	expect_file - out <<OUT
bye
OUT
	set -- d/*.a.out
	[ -f "$1" ] || fail "$u: no profile"
	n=$(meta 10 "$1")
	[ "${n:-0}" -ge 100 ] || fail "$u: $n samples of 0.2 s of CPU"
done
exit 0
