# 303-prof-sum: several profiles summed into one report: -m given
# twice, files after prog, a directory of <pid>.<prog> files (a forking
# run under PROFDIR), a quoted glob, and files with different rates.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" a.out.1
standard | "$MKMON" a.out.2
line='  63.6    7.00    7.00      30    233.3     alpha, alpha_alias'

"$PROF" -m a.out.1 -m a.out.2 sample > out
expect_eq "$(sed -n 2p out)" "$line" "-m -m"
expect_eq "$(grep gamma_w out)" \
    "   1.8    0.20   10.90    2000      0.100   gamma_w" "-m -m gamma_w"
"$PROF" sample a.out.1 a.out.2 > out2
expect_file out out2

mkdir d
cp a.out.1 d/123.sample
cp a.out.2 d/4567.sample
echo junk > d/notes.txt
echo junk > d/99.other
"$PROF" -m d sample > out3
expect_file out out3
"$PROF" -m 'd/*.sample' sample > out4
expect_file out out4

# Rates add up per file: 200 samples/s halves that file's seconds.
standard 200 | "$MKMON" fast
"$PROF" sample a.out.1 fast > out
expect_eq "$(sed -n 2p out)" \
    '  63.6    5.25    5.25      30    175.0     alpha, alpha_alias' "rates"

# An empty directory is an error, not an empty report.
mkdir e
set +e
"$PROF" -m e sample > out 2> err
st=$?
set -e
expect_eq $st 1 "empty directory exit status"
expect_eq "$(cat err)" "prof: e: no <pid>.sample profiles in this directory: run the program with PROFDIR=e, or name the directory it wrote them in" \
    "empty directory"
