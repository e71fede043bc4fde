# 311-prof-fifo: a FIFO never blocks prof: named as a profile or as the
# program it is refused in one line; found as <pid>.<prog> in a directory
# operand (anyone may plant one in a shared PROFDIR) it is skipped with
# one line and the other profiles are summed.
. "$E2E/300-prof.subr"
sample
standard | "$MKMON" good
"$PROF" sample good > want
mkfifo fifo

bounded out err -m fifo sample
expect_eq $st 1 "FIFO profile: exit status"
expect_eq "$(cat err)" "prof: fifo: not a regular file; name the profile file itself" \
    "FIFO profile"
bounded out err fifo good
expect_eq $st 1 "FIFO program: exit status"
expect_eq "$(cat err)" "prof: fifo: not a regular file; name the executable the profile is of: prof PROG mon.out" \
    "FIFO program"

mkdir d
cp good d/123.sample
mkfifo d/456.sample
bounded out err -m d sample
expect_eq $st 0 "FIFO in a directory: exit status"
expect_eq "$(cat err)" "prof: d/456.sample: not a regular file: skipped; remove it from the directory" \
    "FIFO in a directory"
expect_file want out

mkdir e
mkfifo e/1.sample
bounded out err -m e sample
expect_eq $st 1 "only a FIFO: exit status"
cat > want <<'END'
prof: e/1.sample: not a regular file: skipped; remove it from the directory
prof: e: no <pid>.sample profiles in this directory: run the program with PROFDIR=e, or name the directory it wrote them in
END
expect_file want err
