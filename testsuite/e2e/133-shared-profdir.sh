# 133-shared-profdir: in a shared PROFDIR (mode 1777), another user who
# plants <pid>.<prog> and .monprof.<pid>.tmp before the program ends does
# not stop its profile (it was lost: "cannot write"): the profile goes
# beside it under <pid>.<prog>.<salt>, a name no one can foresee, and
# one line says where; the planted files are left alone.
[ "$(id -u)" = 0 ] || skip "needs root to plant files as another user"
command -v setpriv > /dev/null || skip "no setpriv to run it as nobody"
rt_cc -O2 -o prog "$E2E/132-setuid.c"
chmod 755 .
mkdir shared
chmod 1777 shared
mkfifo go
chmod 666 go
PROFDIR=shared setpriv --reuid=65534 --regid=65534 --clear-groups \
    ./prog wait < go > out 2> err &
pid=$!
echo planted > "shared/$pid.prog"
echo planted > "shared/.monprof.$pid.tmp"
echo > go
wait $pid || fail "status $?"
expect_eq "$(cat out)" done "output"
expect_eq "$(cat "shared/$pid.prog")" planted "the planted profile"
expect_eq "$(cat "shared/.monprof.$pid.tmp")" planted "the planted temporary"
alt=$(ls shared | grep "^$pid\.prog\.[0-9a-f]\{16\}$")
[ -n "$alt" ] || fail "no profile beside it: $(ls shared)"
expect_eq "$(count_of f prog "shared/$alt")" 3 "calls of f"
expect_eq "$(stat -c %U "shared/$alt")" nobody "owner"
expect_eq "$(cat err)" "monprof: shared/$pid.prog is another user's: the profile is shared/$alt" "message"
expect_eq "$(ls -A shared | wc -l)" 3 "files"
exit 0
