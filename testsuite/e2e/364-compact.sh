# 364-compact: a profile's length follows what ran, not the program's
# text.  A server-shaped program (testsuite/tools/genprog.sh: 2,600
# functions of 3.4 KB, over 8.9 MB of text) that runs 300 of them
# writes a compact mon.out (mon.h) of at most 64 KB, holes or not, where
# the classic one (PROFFLAGS -classic) has the whole histogram; prof
# reads both to the same exact counts, and mondump expands the compact
# one to the classic layout.  Built with -pg, its gmon.out is at most
# 64 KB too (a histogram record per chunk of bins with samples), and
# gprof reads the same calls from it as from the classic one, and sums
# two runs' files.
. "$E2E/300-prof.subr"
sh "$SRCDIR/testsuite/tools/genprog.sh" -k 1 -n 3400 2600 > prog.c
mp_cc -p -O1 -o prog prog.c -pthread
text=$(size -A prog | awk '$1 == ".text" { print $2 }')
[ "$text" -ge 8900000 ] || fail "text of $text bytes, under 8.9 MB"

# f0, f8, ..., f2392: the j-th called 20 * (j + 1) times, in a fifth of
# a second of CPU time.
mkdir c d
PROFDIR=c ./prog 300 20 2> err || fail "compact: status $?"
[ ! -s err ] || fail "compact: stderr: $(head -3 err)"
PROFDIR=d PROFFLAGS=-classic ./prog 300 20 2> err ||
    fail "classic: status $?"
[ ! -s err ] || fail "classic: stderr: $(head -3 err)"
c=$(ls c/*.prog) d=$(ls d/*.prog)
clen=$(wc -c < "$c") dlen=$(wc -c < "$d")
echo "compact $clen bytes, classic $dlen bytes"
[ "$clen" -le 65536 ] || fail "compact profile of $clen bytes, over 64 KB"
[ "$dlen" -ge $((text / 4)) ] ||
    fail "classic profile of $dlen bytes, under a quarter of the text"

awk 'BEGIN { print "main 1"
    for (j = 0; j < 300; j++) print "f" j * 8, 20 * (j + 1) }' |
    sort > want
calls prog "$c" > got.c
calls prog "$d" > got.d
expect_file want got.c
expect_file want got.d
# Samples (a fifth of a second of CPU time or more): nearly all of
# them in the f functions, in both.
for f in "$c" "$d"; do
	n=$("$PROF" -s prog "$f" 2>&1 | awk '/ samples in this report / {
	    print $1 }')
	[ "${n:-0}" -ge 100 ] || fail "$f: ${n:-no} samples"
	"$PROF" prog "$f" | awk '$NF ~ /^f[0-9]+$/ { p += $1 }
	    END { if (p < 80) { print p "% in the f functions"; exit 1 } }' \
	    > s || fail "$f: $(cat s)"
done
# Expanded, the compact file has the classic layout: range and bins.
"$MONDUMP" "$c" | awk '$1 == "hdr" { print $2, $3, $5 }' > hdr.c
"$MONDUMP" "$d" | awk '$1 == "hdr" { print $2, $3, $5 }' > hdr.d
expect_file hdr.d hdr.c

# -pg: gmon.out is as long as what ran too, one histogram record per
# chunk of 32 bins with samples, which gprof reads as one histogram: the
# same calls as from the classic record, and prof finds it the run's.
# The chunks are the same in every run, so gprof sums two runs' files
# (it refused runs of bins, which differ: "overlapping histogram
# records").
command -v gprof > /dev/null 2>&1 || skip "no gprof: -pg's gmon.out not tried"
mp_cc -pg -O1 -o prog prog.c -pthread
./prog 300 20 || fail "-pg: status $?"
glen=$(wc -c < gmon.out)
gprof -b -p prog gmon.out | awk '$NF ~ /^f[0-9]+$/ && NF == 7 {
    print $NF, $4 }' | sort > gcalls.c
mv gmon.out gmon.compact
PROFFLAGS=-classic ./prog 300 20 || fail "-pg classic: status $?"
gprof -b -p prog gmon.out | awk '$NF ~ /^f[0-9]+$/ && NF == 7 {
    print $NF, $4 }' | sort > gcalls.d
echo "gmon.out: compact $glen bytes, classic $(wc -c < gmon.out) bytes"
[ "$glen" -le 65536 ] || fail "compact gmon.out of $glen bytes, over 64 KB"
grep -v '^main ' want > want.f
expect_file want.f gcalls.c
expect_file want.f gcalls.d
./prog 300 20 || fail "-pg: status $?"
gprof -b -p prog gmon.out gmon.compact > sum 2>&1 || fail "gprof sums: $(cat sum)"
awk '$NF ~ /^f[0-9]+$/ && NF == 7 { print $NF, $4 }' sum | sort > gcalls.2
awk '{ print $1, 2 * $2 }' want.f | sort > want.2
expect_file want.2 gcalls.2
"$PROF" -G prog mon.out > graph 2> err || fail "prof -G: status $? $(cat err)"
grep -q '^f2392: 6000 calls' graph || fail "prof -G: $(head -3 graph)"
