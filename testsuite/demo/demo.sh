#!/bin/sh
# demo.sh - "make demo": build testsuite/demo/wordfreq.c with the drop-in
# "cc -p" (monprof.specs), run it in a temporary directory, and print
# prof's report, or a readable dump of mon.out while prof is missing.
# Environment: CC, O (the build directory, absolute), SRCDIR.
set -e
: "${CC:=gcc}" "${O:?O must name the build directory}" "${SRCDIR:?}"
T=$(mktemp -d "${TMPDIR:-/tmp}/monprof-demo.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T"
echo "\$ $CC -specs=\$O/monprof.specs -p -O2 wordfreq.c -o wordfreq"
"$CC" -specs="$O/monprof.specs" -p -O2 "$SRCDIR/testsuite/demo/wordfreq.c" \
    -o wordfreq
echo "\$ ./wordfreq"
./wordfreq
if [ -x "$O/prof" ]; then
	echo "\$ prof wordfreq"
	"$O/prof" wordfreq
	exit 0
fi
# No prof yet: calls per function (cells mapped through nm, as prof does)
# and the share of the histogram's ticks inside each function.
echo "\$ mondump mon.out (prof not built; calls and ticks per function)"
nm -t d --defined-only -S wordfreq |
    awk '$3 ~ /^[Tt]$/ && NF == 4 { print $1 + 0, $2 + 0, $4 }' > syms
"$O/testsuite/tools/mondump" mon.out | awk '
	BEGIN { while ((getline l < "syms") > 0) { split(l, f, " "); n++;
		a[n] = f[1]; s[n] = f[2]; nm[n] = f[3] } }
	function find(pc, lo,   i) { for (i = 1; i <= n; i++)
		if (a[i] + lo <= pc && pc < a[i] + s[i] + lo) return nm[i]
		return "" }
	$1 == "hdr" { lpc = $2; hpc = $3; nb = $5 }
	$1 == "cell" { fn = find($2, 1); if (fn != "") calls[fn] += $3 }
	$1 == "bin" { fn = find(lpc + ($2 + 0.5) * (hpc - lpc) / nb, 0)
		if (fn == "") fn = "(other)"; ticks[fn] += $3; all += $3
		seen[fn] = 1 }
	END { for (fn in calls) seen[fn] = 1
		printf "%7s %12s  %s\n", "%ticks", "calls", "name"
		for (fn in seen) printf "%7.1f %12d  %s\n",
		    all ? 100 * ticks[fn] / all : 0, calls[fn], fn }' |
    { read -r head; echo "$head"; sort -k1,1nr -k2,2nr; }
