# 132-setuid: a setuid-root profiled program run by another user writes
# no profile (it wrote mon.out, owned by root and readable by the user,
# in whatever directory the user ran it from, replacing a root-owned one
# in a directory the user cannot write), whatever PROFDIR and PROFFLAGS
# say; unless its own code asks (monstartup): then the file is root's
# alone (mode 0600).  Its behaviour is as without profiling.
[ "$(id -u)" = 0 ] || skip "needs root to make a setuid program"
command -v setpriv > /dev/null || skip "no setpriv to run it as nobody"
plain_cc -O2 -o plain "$E2E/132-setuid.c"
rt_cc -O2 -o prog "$E2E/132-setuid.c"
chmod 4755 plain prog
chmod 755 .
mkdir pub rootdir
chmod 1777 pub
echo keep > rootdir/mon.out
asuser() {
	(cd "$1" && shift && setpriv --reuid=65534 --regid=65534 \
	    --clear-groups "$@")
}
asuser pub ../plain > want || fail "plain: status $?"
[ "$(asuser pub id -u)" = 65534 ] || skip "setpriv does not change the user"
for where in pub rootdir; do
	st=0
	PROFDIR=. PROFFLAGS=-pids asuser $where ../prog > got 2> err || st=$?
	expect_eq "$st" 0 "$where: exit status"
	expect_file want got
	[ -s err ] && fail "$where: stderr: $(cat err)"
done
expect_eq "$(ls -A pub)" "" "pub: files"
expect_eq "$(cat rootdir/mon.out)" keep "rootdir: root's mon.out"
asuser pub ../prog ask > got || fail "ask: status $?"
expect_eq "$(stat -c '%U %a' pub/mon.out)" "root 600" "ask: owner and mode"
expect_eq "$(count_of f prog pub/mon.out)" 3 "ask: calls of f"
exit 0
