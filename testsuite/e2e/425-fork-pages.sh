# 425-fork-pages: a fork child of a program of 9 MB of text (2.3 MB of
# histogram) does not copy its parent's histogram to start from zero:
# monstartup's bins are pages no one touched before a sample, and the
# child's fork handler drops them (MADV_DONTNEED).  It memset them, a
# copy of every page: over 560 faults in fork, 3.5 ms of CPU where a
# plain fork takes 0.2 ms.  The child's profile still starts from zero:
# its samples are child_work's, none of parent_work's.
mp_cc -p -O2 -o a.out "$E2E/425-fork-pages.c"
text=$(size -A a.out | awk '$1 == ".text" { print $2 }')
[ "$text" -ge 9000000 ] || fail "text of $text bytes, under 9 MB"
mkdir d
PROFDIR=d ./a.out > faults 2> err || fail "status $?"
[ ! -s err ] || fail "stderr: $(head -3 err)"
read -r f pid < faults
echo "faults in the child's fork: $f"
[ "$f" -lt 300 ] ||
    fail "$f page faults in the child's fork: the histogram copied"
child=$pid.a.out parent=$(ls d | grep -v "^$pid\\.")
[ -f "d/$child" ] && [ -f "d/$parent" ] || fail "profiles: $(ls d)"
ticks a.out "d/$child" > t.child
ticks a.out "d/$parent" > t.parent
awk '$1 == "child_work" { c = $2 } $1 == "parent_work" { p = $2 }
    END { exit !(c >= 100 && p == 0) }' t.child ||
    fail "child's ticks: $(cat t.child)"
awk '$1 == "parent_work" { p = $2 } END { exit !(p >= 100) }' t.parent ||
    fail "parent's ticks: $(cat t.parent)"
