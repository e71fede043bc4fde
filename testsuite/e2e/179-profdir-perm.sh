# 179-profdir-perm: a worker that cannot write PROFDIR (a server whose
# master, root, made the directory, and whose workers drop to another
# user) loses its profile, and the line that says so names the directory
# and the worker's uid and says how to open the directory to it; done
# that way (chmod 1777), every process's profile is written.  Run as
# root, the worker takes uid 65534; otherwise the directory is made
# mode 0555 and the worker is the test's user.
mp_cc -p -O2 -o prog "$E2E/179-profdir-perm.c"
mkdir d
if [ "$(id -u)" = 0 ]; then
	uid=65534
	chmod 755 .
else
	uid=$(id -u)
	chmod 555 d
fi
st=0
PROFDIR=d ./prog $uid > out 2> err &
pid=$!
wait $pid || st=$?
[ "$st" = 3 ] && skip "cannot change the worker's user"
expect_eq "$st" 0 "status"
# Root: the worker's line; otherwise the master cannot write either.
if [ "$(id -u)" = 0 ]; then
	lines=1 files="$pid.prog"
else
	lines=2 files=
fi
expect_eq "$(wc -l < err)" $lines "lines on stderr"
# The relative PROFDIR is named from where the program started (418).
d=$PWD/d
while read -r line; do
	wpid=$(echo "$line" | sed -n "s|^monprof: cannot write $d/\\([0-9]*\\)\\.prog: .*|\\1|p")
	[ -n "$wpid" ] || fail "stderr: $line"
	expect_eq "$line" "monprof: cannot write $d/$wpid.prog: Permission denied; make $d writable by uid $uid (chmod 1777 $d, say)" "stderr"
done < err
expect_eq "$(ls d)" "$files" "profiles"
# As the line says.
rm -f d/*
chmod 1777 d
PROFDIR=d ./prog $uid > out 2> err &
pid=$!
wait $pid || fail "chmod 1777: status $?"
[ -s err ] && fail "chmod 1777: stderr: $(cat err)"
expect_eq "$(ls d | wc -l)" 2 "chmod 1777: profiles"
[ -f "d/$pid.prog" ] || fail "chmod 1777: no master's profile: $(ls d)"
exit 0
