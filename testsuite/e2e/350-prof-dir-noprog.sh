# 350-prof-dir-noprog: a PROFDIR directory of profiles with no program
# named, as prof DIR or prof -m DIR: every profile records its
# executable, so that one is read, the same report as prof PROG DIR (a
# -pg run's <pid>.<prog>.gmon beside each is no profile, and -G finds
# it).  Profiles of two programs are not summed: one line names two of
# them and what to do, exit status 1.  A recorded program that is gone
# is named by its recorded path in one line, not taken for a.out.
. "$E2E/300-prof.subr"
mkdir bin d e
abs=$(pwd -P)
cat > p.c <<'END'
int __attribute__((noinline)) f(int x) { return x + 1; }
int main(void) { int s = 0; for (int i = 0; i < 5; i++) s += f(i); return s == 0; }
END
mp_cc -pg -O2 -Wl,--build-id -o bin/prog p.c || fail "cannot build"
PROFDIR=d bin/prog
PROFDIR=d bin/prog
expect_eq "$(ls d | grep -c '\.gmon$')" 2 "the runs' gmon.out files"

"$PROF" bin/prog d > want
expect_eq "$(awk '$NF == "f" { print $4 }' want)" 10 "f's calls"
for args in "d" "-m d"; do
	bounded got err $args
	expect_eq $st 0 "prof $args: status"
	expect_eq "$(cat err)" "" "prof $args: stderr"
	expect_file want got
	expect_eq "$(summed $args)" 2 "prof $args: profiles summed"
done
callgraph bin/prog d > want
callgraph d > got
expect_file want got

# Another program's profile in the directory: refused, one line.
cp bin/prog bin/prog2
PROFDIR=d bin/prog2
first=$(ls d | grep -v '\.gmon$' | LC_ALL=C sort | head -n 1)
other=$(ls d | grep '^[0-9]*\.prog2$')
bounded got err d
expect_eq $st 1 "two programs: status"
expect_eq "$(cat got)" "" "two programs: stdout"
expect_eq "$(cat err)" "prof: d/$first records the program $abs/bin/prog, d/$other $abs/bin/prog2: profiles of different programs are not summed; name the one to report: prof PROG d" \
    "two programs"
# Named, each program's own profiles are read.
expect_eq "$(summed bin/prog d)" 2 "prof bin/prog d: profiles summed"
expect_eq "$(summed bin/prog2 d)" 1 "prof bin/prog2 d: profiles summed"

# The program is gone: its recorded path, and what to do.
rm "d/$other" "d/$other.gmon"
mkdir moved
mv bin/prog moved/
bounded got err -m d
expect_eq $st 1 "gone: status"
expect_eq "$(cat err)" "prof: d/$first: the program it records, $abs/bin/prog: No such file or directory; if it is elsewhere, name it: prof PROG d" \
    "gone"
expect_eq "$(summed moved/prog d)" 2 "named elsewhere: profiles summed"

# No profile in the directory.
bounded got err e
expect_eq $st 1 "empty directory: status"
expect_eq "$(cat err)" "prof: e: no <pid>.<prog> profiles in this directory: run the program with PROFDIR=e, or name the directory it wrote them in" \
    "empty directory"
