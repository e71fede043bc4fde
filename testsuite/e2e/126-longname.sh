# 126-longname: a program whose name is 250 characters long, under
# PROFDIR: its profile is written (every profile was lost: the temporary
# name <pid>.<prog>.<pid>.tmp passed NAME_MAX), named <pid>.<prog> with
# prog cut to its first 200 bytes (MON_PROGNAME_MAX).
rt_cc -O2 -o a.out "$E2E/101-basic.c"
long=$(printf '%0250d' 0 | tr 0 p)
cut=$(printf '%0200d' 0 | tr 0 p)
cp a.out "$long"
in_profdir d "./$long"
expect_eq "$(ls d)" "$pid.$cut" "file"
expect_eq "$(count_of leaf a.out "d/$pid.$cut")" 1235 "calls of leaf"
ls -a d | grep -q '\.tmp$' && fail "temporary file left"
exit 0
