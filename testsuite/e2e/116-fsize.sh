# 116-fsize: under a file size limit (ulimit -f) smaller than the
# profile, the write fails cleanly: the program still exits 0 (not
# killed by SIGXFSZ), one line on stderr, no mon.out, no temporary file.
# (The runtime never ends the program.)  Under a roomy limit
# the same program writes its profile.  The classic mon.out (of the
# whole histogram) is larger than the limit; the compact one, a few
# hundred bytes, is not, and no limit lets stderr's file have the line
# and keeps it from such a profile.
cat > fsize.c <<'EOT'
#include "hooks.h"

static volatile int sink;

static COUNTED void
f(void)
{
	MON_COUNT();
	sink++;
}

int
main(void)
{
	f();
	return 0;
}
EOT
rt_cc -O2 -I"$SRCDIR/testsuite/tools" -o a.out fsize.c
ulimit -c 0
st=0
(ulimit -f 2 && PROFFLAGS=-classic exec ./a.out) 2>err || st=$?
cat err
expect_eq "$st" 0 "exit status under ulimit -f 2"
expect_eq "$(wc -l < err)" 1 "lines on stderr"
grep -q "cannot write mon.out: File too large" err || fail "no message"
[ -f mon.out ] && fail "mon.out written past the limit"
ls | grep -q '\.tmp$' && fail "temporary file left"
(ulimit -f 10000 && exec ./a.out) || fail "roomy limit: status $?"
expect_eq "$(count_of f)" 1 "calls of f under a roomy limit"
exit 0
