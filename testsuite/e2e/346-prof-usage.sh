# 346-prof-usage: -V prints the version and exits 0; an unknown option or
# a missing option argument prints one line and the usage, exit 1.
. "$E2E/300-prof.subr"
sample

"$PROF" -V 2> err || fail "-V exit status"
grep -q '^prof: monprof [0-9]' err || fail "-V line: $(cat err)"
set +e
"$PROF" -q sample > out 2> err
st=$?
set -e
expect_eq $st 1 "bad option exit status"
cat > want <<'END'
prof: unknown option -q
usage: prof [-ChisVz] [-a | c | n | t]  [-o  |  x]   [-g  |  l]  [-u ms | us | ns]
	[-L | -A func | -G]  [--format=csv | json]  [--gmon=file]
	[--pprof=file]  [--callgrind=file]  [--flame=file]  [-O object]
	[--demangle | --no-demangle]  [-f regex]
	[-m mdata] ... [prog [mdata ...]]
END
expect_file want err
set +e
"$PROF" sample -m > out 2> err
st=$?
set -e
expect_eq $st 1 "missing argument exit status"
expect_eq "$(head -n 1 err)" "prof: option -m needs an argument" "-m without file"

# GNU's conventions beside the classic options: --help prints the usage
# on stdout and exits 0, --version the version; a full stdout is an
# error that says so.
"$PROF" --help > out 2> err || fail "--help: status $?"
expect_file /dev/null err
grep -q '^usage: prof \[-ChisVz\]' out || fail "--help: $(cat out)"
v=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' "$SRCDIR/Makefile")
expect_eq "$("$PROF" --version)" "prof (monprof) $v" "--version"
if [ -w /dev/full ]; then
	set +e
	"$PROF" --version > /dev/full 2> err
	st=$?
	set -e
	expect_eq $st 1 "--version to a full stdout: exit status"
	expect_eq "$(cat err)" "prof: stdout: No space left on device" \
	    "--version to a full stdout"
fi
