# 115-fds: the runtime keeps no file descriptor the program could meet:
# a daemon that closes every fd and opens a file in their place gets
# neither stray bytes in it nor a hang at exit; a program started with
# stdin/stdout/stderr closed gets fd 0 from its first open(); under
# RLIMIT_NOFILE 8 the program can open 4 files (the runtime needs
# only one, at exit, to write).  Each still writes
# its profile, with samples (the runtime never makes the
# program's system calls fail).
rt_cc -O2 -o a.out "$E2E/115-fds.c"
timeout 20 ./a.out closeall || fail "closeall: exit status $?"
expect_eq "$(od -An -c data | tr -d ' ')" 'hello\n' "closeall: data file"
expect_eq "$(count_of f)" 1 "closeall: calls of f"
[ "$(meta 10)" -gt 0 ] || fail "closeall: no samples"
rm -f mon.out data
timeout 20 ./a.out closed <&- >&- 2>&- || fail "closed stdio: exit status $?"
expect_eq "$(count_of f)" 1 "closed stdio: calls of f"
rm -f mon.out
(ulimit -n 8 && timeout 20 ./a.out limit) || fail "RLIMIT_NOFILE 8: status $?"
expect_eq "$(count_of f)" 1 "RLIMIT_NOFILE 8: calls of f"
[ "$(meta 10)" -gt 0 ] || fail "RLIMIT_NOFILE 8: no samples"
ls | grep -q '\.tmp$' && fail "temporary file left"
exit 0
