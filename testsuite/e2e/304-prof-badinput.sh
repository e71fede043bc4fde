# 304-prof-badinput: every malformed input gets one line on stderr
# naming the file and the problem and what to do, exit status 1, nothing
# on stdout.
. "$E2E/300-prof.subr"
sample
# What to do: about a damaged profile, a wrong executable.
D="; not a mon.out, or a damaged one: rerun the program (built with gcc -specs=monprof.specs -p) to write it again"
E="; name the executable the profile is of: prof PROG mon.out"

# bad WHAT EXPECTED-STDERR PROF-ARGS...
bad() {
	what=$1 want=$2
	shift 2
	set +e
	"$PROF" "$@" > out 2> err
	st=$?
	set -e
	expect_eq "$st" 1 "$what: exit status"
	expect_eq "$(cat err)" "$want" "$what: message"
	[ ! -s out ] || fail "$what: output on stdout"
}

bad "missing" "prof: mon.out: No such file or directory; run a program built with gcc -specs=monprof.specs -p to write it, or name the profile: prof PROG FILE" \
    sample
: > empty
bad "empty" "prof: empty: empty file$D" -m empty sample
printf 'short' > short
bad "truncated header" "prof: short: truncated header (5 of 24 bytes)$D" \
    -m short sample
printf 'range 4096 8192\nnfns 5\n' | "$MKMON" nfns
bad "nfns" "prof: nfns: header says 5 cells, the file holds at most 0$D" \
    -m nfns sample
printf 'range 4096 8192\nbins 4\nextra 1\n' | "$MKMON" odd
bad "odd histogram" "prof: odd: odd histogram size (9 bytes)$D" -m odd sample
printf 'range 8192 4096\nbins 2\n' | "$MKMON" range
bad "lpc > hpc" "prof: range: bad range: lpc 0x2000 >= hpc 0x1000$D" \
    -m range sample
printf 'range 8192 8192\nbins 2\n' | "$MKMON" range0
bad "lpc = hpc" "prof: range0: bad range: lpc 0x2000 >= hpc 0x2000$D" \
    -m range0 sample
printf 'range 4096 4100\nbins 8\n' | "$MKMON" bins
bad "bins" "prof: bins: 8 histogram bins for a range of 4 bytes$D" -m bins sample
printf 'This is not a profile, only some text.\n' > garbage
bad "garbage" "prof: garbage: header says 8007448951586907759 cells, the file holds at most 0$D" \
    -m garbage sample
printf 'meta magic 12345\n' | "$MKMON" magic
bad "magic" "prof: magic: bad magic 0x3039$D" -m magic sample
printf 'meta version 9\n' | "$MKMON" version
bad "version" "prof: version: unsupported format version 9$D" -m version sample
printf 'meta rate 0\n' | "$MKMON" rate
bad "rate" "prof: rate: bad sampling rate 0$D" -m rate sample
printf 'cell 70000 -5\n' | "$MKMON" neg
bad "negative count" "prof: neg: cell 0: negative call count -5$D" -m neg sample
printf 'PROF\0\0\0\0\0\0\0\0' > solaris
bad "versioned" "prof: solaris: Solaris versioned (PROF) profiles are not supported$D" \
    -m solaris sample
bad "not regular" "prof: /dev/null: not a regular file; name the profile file itself" \
    -m /dev/null sample

# The executable.
standard | "$MKMON" mon.out
bad "no prog" "prof: a.out: No such file or directory$E"
bad "missing prog" "prof: nope: No such file or directory$E" nope
bad "not ELF" "prof: garbage: not an ELF file$E" garbage
cp sample stripped
strip stripped
bad "stripped" "prof: stripped: no symbols: it was stripped; report the unstripped copy, or rebuild it without -s" stripped
"$CC" -shared -fPIC -o lib.so "$E2E/300-prof.c"
bad "shared object" "prof: lib.so: a shared object, not an executable$E" lib.so
"$CC" -c -o obj.o "$E2E/300-prof.c"
bad "object file" "prof: obj.o: not an executable$E" obj.o
