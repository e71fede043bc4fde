# 352-prof-progress: prof reading a directory of hundreds of profiles
# (a server's PROFDIR) shows one progress line on a terminal once
# reading has taken a second, erases it at the end, and writes nothing
# on stderr where stderr is no terminal; its report is the same either
# way, and its memory does not grow with the number of files.
. "$E2E/300-prof.subr"
sample
# A profile of 4 MB: the sample's ticks and cells, its histogram over
# 4 MB more of address space (zeros, as code that never ran).
big() {
	standard | sed "s/^range .*/range $LPC $((LPC + 4000000))/;
	    s/^bins .*/bins 2000000/"
}
big | "$MKMON" one.mon
[ "$(wc -c < one.mon)" -gt 4000000 ] || fail "the profile is not 4 MB"
# No terminal: no line; the report is ten (or 600) times one file's.
few_many one.mon 600
expect_eq "$(awk '$NF == "gamma_w" { print $4 }' many.out)" 600000 \
    "600 profiles summed"
# Memory: the program's, not the files' (600 of 4 MB are 2.4 GB).
[ "$m" -lt $((f + 8192)) ] ||
    fail "600 profiles take $m KiB, 10 take $f KiB: memory grows with files"

# On a terminal (script(1)): the line, erased at the end, when reading
# took more than a second; none when it took less.
command -v script > /dev/null 2>&1 || { echo "SKIP: no script(1)"; exit 0; }
s=$(date +%s%N)
script -qec "\"$PROF\" -c sample many > tty.out" /dev/null > tty.err < /dev/null ||
    fail "on a terminal: status $?"
e=$(date +%s%N)
expect_file many.out tty.out
ms=$(((e - s) / 1000000))
if [ "$ms" -ge 1300 ]; then
	grep -q 'prof: reading profiles: [0-9]*% ([0-9]* of 600 reads)' tty.err ||
	    { cat -v tty.err; fail "no progress line in $ms ms"; }
	# Erased (ESC [ K) after the last line drawn.
	tail -c 16 tty.err | od -An -c | grep -q '033   \[   K' ||
	    { cat -v tty.err; fail "progress line not erased"; }
elif [ "$ms" -lt 900 ]; then
	[ ! -s tty.err ] || { cat -v tty.err; fail "a line in $ms ms"; }
fi
true
