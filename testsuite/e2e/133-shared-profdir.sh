# 133-shared-profdir: in a shared PROFDIR (mode 1777), another user who
# plants <pid>.<prog> and .monprof.<pid>.tmp before the program ends does
# not stop its profile (it was lost: "cannot write"): the profile goes
# beside it under <pid>.<prog>.<salt>, a name no one can foresee, and
# one line says where; the planted files are left alone.
planted
expect_eq "$(cat out)" done "output"
expect_eq "$(cat "shared/$pid.prog")" planted "the planted profile"
expect_eq "$(cat "shared/.monprof.$pid.tmp")" planted "the planted temporary"
expect_eq "$(count_of f prog "shared/$alt")" 3 "calls of f"
expect_eq "$(stat -c %U "shared/$alt")" nobody "owner"
# The relative PROFDIR is named from where the program started (418).
expect_eq "$(cat err)" "monprof: $PWD/shared/$pid.prog is another user's: the profile is $PWD/shared/$alt" "message"
expect_eq "$(ls -A shared | wc -l)" 3 "files"
exit 0
