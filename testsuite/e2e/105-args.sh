# 105-args: bad monitor()/monstartup()/profil() arguments give -1 and
# EINVAL/EFAULT, leave the buffer alone, and do not crash; good ones work
# and the final stop writes a profile with f counted once.
rt_cc -O2 -o a.out "$E2E/105-args.c"
st=0
PROFFLAGS=-disable_default ./a.out || st=$?
expect_eq "$st" 0 "first failed check"
expect_eq "$(count_of f)" 1 "f calls"
nb=$("$MONDUMP" mon.out | awk '$1 == "hdr" { print $5 }')
[ "$nb" -gt 1 ] || fail "monstartup histogram has $nb bins"
exit 0
