# 140-sparse: a classic profile (PROFFLAGS -classic; 364-compact has
# the default, compact one) costs on disk what ran, not the program's
# text.
# 300 processes of a program of over 5 MB of text (testsuite/tools/
# genprog.sh: 2600 functions of 2 KB, 4 s to build) under one PROFDIR
# leave 300 files of 1.4 MB each (the histogram of all the text), whose
# zero blocks are holes: `du` counts the blocks that hold the header,
# the metadata and the counted cells, and the histogram's blocks with a
# sample; about 4 KB a file here.  The bound (README, "mon.out"): per
# file, G bytes for each G-byte block of the file with a byte that is
# not zero (G: 4096, or the file system's block if larger), and one
# more where there are over 4 such blocks (ext4 keeps 4 extents in the
# inode); plus the directory's own blocks.  The files read back as the
# dense file: each one's size is its layout's, one read by prof has the
# exact counts, and a copy with every zero written is the same bytes.
truncate -s 1M probe
[ "$(du -k probe | cut -f1)" -lt 1024 ] ||
	skip "the file system of $T keeps no holes (du: $(du -k probe))"
rm probe

sh "$SRCDIR/testsuite/tools/genprog.sh" -k 1 -n 2000 2600 > prog.c
mp_cc -p -O1 -o prog prog.c -pthread
text=$(size -A prog | awk '$1 == ".text" { print $2 }')
[ "$text" -ge $((5 << 20)) ] || fail "text of $text bytes, under 5 MB"

# 300 processes, 4 at a time: f0, f260, ..., f2340 called 3, 6, ..., 30
# times; every 30th makes 1000 times as many calls (tens of ms), so
# that some histograms have samples.
mkdir pd
i=0
: > runs
while [ $i -lt 300 ]; do
	pids=
	for j in 0 1 2 3; do
		calls=3
		[ $(((i + j) % 30)) != 0 ] || calls=3000
		PROFDIR=pd PROFFLAGS=-classic ./prog 10 $calls 2>> err &
		pids="$pids $!"
		echo $! $calls >> runs
	done
	for pid in $pids; do
		wait $pid || fail "process $pid: status $?"
	done
	i=$((i + 4))
done
[ ! -s err ] || fail "stderr: $(head -5 err)"
expect_eq "$(ls pd | wc -l)" 300 "profiles"
while read -r pid calls; do
	[ -f "pd/$pid.prog" ] || fail "no profile of process $pid"
done < runs

# Exact counts, as prof reads them, of a short run and of a long one.
for calls in 3 3000; do
	pid=$(awk -v c=$calls '$2 == c { print $1; exit }' runs)
	"$PROF" prog "pd/$pid.prog" > report.$calls ||
	    fail "prof: status $?"
	awk 'NF == 6 && $6 ~ /^(f[0-9]+|main)$/ { print $6, $4 }' \
	    report.$calls | sort > got.$calls
	awk -v c=$calls 'BEGIN { print "main 1"
	    for (j = 0; j < 10; j++) print "f" j * 260, c * (j + 1) }' |
	    sort > want.$calls
	diff -u want.$calls got.$calls || fail "counts of a run of $calls"
done

# Each file's size is its layout's (so one that ends in a hole has its
# whole size), and the bound of what it holds on disk.
G=$(stat -f -c %S pd)
[ "$G" -ge 4096 ] || G=4096
apparent=0
bound=0
for f in pd/*; do
	"$MONDUMP" "$f" | awk -v g="$G" -v size="$(stat -c %s "$f")" '
	    $1 == "hdr" { lpc = $2; hpc = $3; nfns = $4; hist = 24 + 16 * nfns }
	    $1 == "meta" || $1 == "cell" { k++;
		    if ($2 != 0 || $3 != 0) last = k }
	    $1 == "meta" && $2 == 18 { stride = $3 }
	    $1 == "bin" { blk[int((hist + 2 * $2) / g)] = 1 }
	    END {
		if (stride <= 0) { print "no stride"; exit 1 }
		dense = hist + 2 * (hpc - lpc) / stride
		if (size != dense) {
			printf "size %d, its layout %d\n", size, dense; exit 1 }
		for (b = 0; b * g < 24 + 16 * last; b++) blk[b] = 1
		for (b in blk) n++
		print size, g * (n + (n > 4)) }' > one ||
	    fail "$f: $(cat one)"
	read -r size bytes < one
	apparent=$((apparent + size))
	bound=$((bound + bytes))
done
bound=$((bound + $(stat -c '%b * %B' pd)))
used=$(du -sk pd | cut -f1)
echo "du $used KB, bound $((bound / 1024)) KB, apparent $((apparent / 1024)) KB"
[ $((used * 1024)) -le $bound ] ||
	fail "du: $used KB, over the bound of $((bound / 1024)) KB"
[ $((used * 1024 * 20)) -lt $apparent ] ||
	fail "du: $used KB, not far below the $((apparent / 1024)) KB apparent"

# Read back, the holes are the zeros they stand for.
for pid in $(awk '!seen[$2]++ { print $1 }' runs); do
	cp --sparse=never "pd/$pid.prog" dense
	cmp "pd/$pid.prog" dense || fail "$pid.prog and its dense copy differ"
	[ "$(du -k dense | cut -f1)" -gt "$(du -k "pd/$pid.prog" | cut -f1)" ] ||
	    fail "the dense copy is no larger on disk"
done
exit 0
