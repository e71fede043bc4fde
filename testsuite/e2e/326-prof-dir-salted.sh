# 326-prof-dir-salted: where <pid>.<prog> was another user's file, the
# runtime wrote the profile beside it as <pid>.<prog>.<salt>, 16 hex
# digits (runtime/outfile.c; <pid>.<prog>.<n>.<salt> for a numbered
# dump): prof reads those names in a directory operand too.  Suffixes
# that are no salt (15 digits, upper case) are not read; a <pid>.<prog>
# of the salted file's owner beside it is a profile like any other.
. "$E2E/300-prof.subr"
rt_cc -O2 -o prog "$E2E/132-setuid.c"
in_profdir d ./prog > /dev/null
mv "d/$pid.prog" "d/$pid.prog.00000000deadbeef"
for n in 1.0123456789abcdef 0123456789abcde 0123456789ABCDEF; do
	cp "d/$pid.prog.00000000deadbeef" "d/$pid.prog.$n"
done
calls prog d > got
expect_eq "$(cat got)" "f 6" "calls"
expect_eq "$(summed prog d)" 2 "profiles summed"
cp "d/$pid.prog.00000000deadbeef" "d/$pid.prog"
"$PROF" prog d > /dev/null 2> err
[ -s err ] && fail "stderr: $(cat err)"
expect_eq "$(calls prog d)" "f 9" "calls with <pid>.<prog> of the same owner"
exit 0
