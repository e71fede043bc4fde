#!/bin/sh
# fuzz-counts.sh N START JOBS - countcheck.sh on the random programs of
# seeds START .. START+N-1, JOBS at once (make fuzz-counts).  Prints
# each program's differences as it ends, a progress line every 25
# programs, and at the end "fuzz-counts: N programs, K differences",
# K the programs that differ (one line or more each); exits 1 if K > 0.
# Each failing program's directory is kept as $O/fuzz-counts/fail-SEED
# (its sources in src/, the three builds, commands, differences), with
# REPRO, the command that checks it again (into fail-SEED/rerun); the
# others are removed.
# Environment: O (the build directory), CC, CXX, as countcheck.sh.
set -u
LC_ALL=C
export LC_ALL
: "${O:?O must name the build directory}"
here=$(cd "$(dirname "$0")" && pwd)
F=$O/fuzz-counts

# nbad RUNDIR: how many programs differed so far.
nbad() {
	n=0
	for f in "$1"/*.bad; do
		[ -e "$f" ] && n=$((n + 1))
	done
	echo $n
}

# one SEED RUNDIR N: check one program; its verdict in RUNDIR/SEED.bad.
if [ "${1:-}" = --one ]; then
	seed=$2
	r=$3
	w=$r/w$seed
	if sh "$here/countcheck.sh" "$seed" "$w" > "$r/$seed.out" 2>&1; then
		rm -rf "$w"
	else
		rm -rf "$F/fail-$seed"
		mv "$w" "$F/fail-$seed"
		cp "$r/$seed.out" "$F/fail-$seed/report"
		printf 'O=%s CC=%s CXX=%s REFFLAGS=%s sh %s %s %s\n' "$O" \
		    "${CC:-gcc}" "${CXX:-}" "'$REFFLAGS'" "$here/countcheck.sh" \
		    "$seed" "$F/fail-$seed/rerun" > "$F/fail-$seed/REPRO"
		touch "$r/$seed.bad"
		cat "$r/$seed.out"
	fi
	# This program's place among those done: appends are atomic, so
	# each line number is one program's, and every 25th says so.
	echo "$seed" >> "$r/done"
	k=$(grep -n "^$seed\$" "$r/done" | cut -d: -f1)
	[ $((k % 25)) = 0 ] &&
	    echo "fuzz-counts: $k of $4 programs done," \
		"$(nbad "$r") differ"
	exit 0
fi

[ $# = 3 ] || { echo "usage: fuzz-counts.sh N START JOBS" >&2; exit 2; }
n=$1
start=$2
jobs=$3
mkdir -p "$F" || exit 1
# The reference's flags, found once for all the programs.
REFFLAGS=$(sh "$here/countcheck.sh" --refflags) || exit 1
export REFFLAGS
r=$(mktemp -d "$F/run.XXXXXX") || exit 1
trap 'rm -rf "$r"' EXIT
echo "fuzz-counts: seeds $start to $((start + n - 1)), $jobs at once," \
    "reference -p $REFFLAGS"
i=0
while [ $i -lt "$n" ]; do
	echo $((start + i))
	i=$((i + 1))
done | xargs -P "$jobs" -I {} sh "$0" --one {} "$r" "$n"
k=$(nbad "$r")
echo "fuzz-counts: $n programs, $k differences"
[ "$k" = 0 ]
