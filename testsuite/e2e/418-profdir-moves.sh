# 418-profdir-moves: a relative PROFDIR names the directory where the
# program started, as it started: a program that then changes to /
# (chdir, or daemon(0, 0), whose child goes on alone) still writes its
# whole profile there, and nothing in /.
mp_cc -p -O2 -o prog "$E2E/418-profdir-moves.c"
mkdir d
PROFDIR=d ./prog &
pid=$!
wait $pid || fail "chdir: status $?"
expect_eq "$(ls d)" "$pid.prog" "chdir: the profiles"
expect_eq "$(count_of leaf prog "d/$pid.prog")" 321 "chdir: leaf"
[ -e "/$pid.prog" ] && fail "chdir: a profile in /"
rm d/*
# The daemon's child has a pid of its own and nobody waits for it: its
# profile is the one name ending in .prog (written whole, then renamed).
PROFDIR=d ./prog daemon || fail "daemon: status $?"
i=0
while [ -z "$(ls d)" ] && [ $i -lt 600 ]; do
	sleep 0.1
	i=$((i + 1))
done
f=$(ls d)
case $f in
[0-9]*.prog) ;;
*)	fail "daemon: the profiles: '$f'" ;;
esac
expect_eq "$(count_of leaf prog "d/$f")" 321 "daemon: leaf"
[ -e "/$f" ] && fail "daemon: a profile in /"
exit 0
