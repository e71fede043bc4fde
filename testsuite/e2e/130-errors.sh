# 130-errors: a profile that cannot be written is one line on stderr that
# names the file and says why (errno in words), and the program ends as
# without profiling: a PROFDIR that does not exist, one that is a file,
# a name too long for any directory.  No file is left anywhere.
rt_cc -O2 -o prog "$E2E/101-basic.c"
./prog > want
rm mon.out
check() {
	st=0
	"$@" ./prog > got 2> err || st=$?
	expect_eq "$st" 0 "$*: exit status"
	expect_file want got
	expect_eq "$(wc -l < err)" 1 "$*: lines on stderr"
}
check env PROFDIR=nosuch
grep -q "^monprof: cannot write $PWD/nosuch/[0-9]*\.prog: No such file or directory$" err ||
    fail "missing PROFDIR: $(cat err)"
: > afile
check env PROFDIR=afile
grep -q "^monprof: cannot write $PWD/afile/[0-9]*\.prog: Not a directory$" err ||
    fail "PROFDIR a file: $(cat err)"
long=$(printf '%04096d' 0)
check env PROFDIR="$long"
grep -q "^monprof: cannot name the profile: File name too long$" err ||
    fail "long PROFDIR: $(cat err)"
expect_eq "$(ls -a | sort | tr '\n' ' ')" ". .. afile err got prog want " "files"
exit 0
