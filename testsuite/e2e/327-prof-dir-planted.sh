# 327-prof-dir-planted: in a shared PROFDIR another user planted
# <pid>.<prog>, so the runtime wrote the profile as <pid>.<prog>.<salt>
# (133): prof given the directory reads the profile and leaves the
# planted file out, in one line (it read the planted file and failed).
. "$E2E/300-prof.subr"
planted
calls prog shared > got 2> err
expect_eq "$(cat got)" "f 3" "calls"
expect_eq "$(cat err)" "prof: shared/$pid.prog: another user's file (the \
profile is shared/$alt): skipped; remove it, as anyone may write a shared PROFDIR" "message"
exit 0
