#!/bin/sh
# layers.sh - check the runtime's layers (DESIGN.md, "Runtime layers") on
# its objects: every runtime/*.c is in exactly one layer below; a file
# calls (nm -u) only files of lower layers or files listed before it in
# its own layer, so there is no cycle; a file includes only its own
# layer's header or lower ones; every hidden global a file defines is
# named __mon_<file>_*; and what it exports, mon.h or mon_abi.h names.  Run by
# `make check` (and `make layers`).
#
#   layers.sh OBJDIR SRCDIR		e.g. build/obj/runtime runtime
set -eu
LC_ALL=C
export LC_ALL

# The layers, lowest first.  Each layer's header is <layer>.h.
LAYERS='
base	seccomp sigmask fmt err note name match sort mapped
process	self exit exe maps env rawthread single
storage	mode arena area pcells cells sites arcs
hooks	mcount stub stale thread notify foreign
sampler	pcs stacks ehframe sframe unwind safepoint hist perf itimer sampler
writer	outfile objects monout gmonout gmonmerge merge
control	dump final monitor profil forced signal exec dl unshare gsbase confine init
'

# References for the linker, not calls (file:symbol): every instrumented
# object calls mcount.o, whose reference to the constructor pulls the
# rest of the runtime out of libmonprof.a.
LINK_ONLY='mcount:__mon_init'

# The public API's reserved implementation names (mon.h's functions are
# weak aliases of them, glibc style); exported names are mon.h's, the
# constructor, which the specs file names to the linker, and what it
# defines prctl, syscall and arch_prctl as (a --defsym'ed name takes the
# visibility of what it names).
RESERVED='__monitor __monstartup __moncontrol __monitor_signal __profil'
EXPORTED='__mon_init __mon_confine_prctl __mon_confine_syscall __mon_gsbase_arch_prctl'

[ $# -eq 2 ] || { echo "usage: layers.sh OBJDIR SRCDIR" >&2; exit 2; }
objdir=$1 srcdir=$2
monh=$srcdir/../include/mon.h
T=$(mktemp -d "${TMPDIR:-/tmp}/layers.XXXXXX")
trap 'rm -rf "$T"' EXIT

# file rank layer; rank orders files: layer first, then place in it.
echo "$LAYERS" | awk 'NF { for (i = 2; i <= NF; i++) print $i, NR * 100 + i, $1 }' \
    > "$T/rank"
awk '{ print $1 }' "$T/rank" | sort | uniq -d | sed 's/^/twice: /' > "$T/bad"

: > "$T/defs"
: > "$T/uses"
: > "$T/globals"
: > "$T/exports"
for c in "$srcdir"/*.c; do
	f=$(basename "$c" .c)
	o=$objdir/$f.o
	if ! grep -q "^$f " "$T/rank"; then
		echo "runtime/$f.c is in no layer (testsuite/tools/layers.sh)" >> "$T/bad"
		continue
	fi
	[ -f "$o" ] || { echo "no object $o (make first)" >> "$T/bad"; continue; }
	# Names may hold blanks (the link hint): split on the first columns.
	nm -g --defined-only "$o" | sed -n 's/^[0-9a-f]* [A-Za-z] //p' |
	    sed "s/^/$f	/" >> "$T/defs"
	nm -u "$o" | sed -n 's/^ *U //p' | sed "s/^/$f	/" >> "$T/uses"
	readelf -sW "$o" | awk -v f="$f" -v g="$T/globals" -v e="$T/exports" '
	    ($5 == "GLOBAL" || $5 == "WEAK") && $7 != "UND" {
		    s = $0; for (i = 1; i <= 7; i++) sub(/^ *[^ ]+/, "", s)
		    sub(/^ /, "", s); print f "\t" s >> ($6 == "HIDDEN" ? g : e) }'
done
for f in $(awk '{ print $1 }' "$T/rank"); do
	[ -f "$srcdir/$f.c" ] || echo "runtime/$f.c is listed but missing" >> "$T/bad"
done

# Calls: the defining file must rank below the calling one.
awk -F '\t' -v linkonly=" $LINK_ONLY " '
    FILENAME ~ /rank$/ { split($0, r, " "); rank[r[1]] = r[2]; layer[r[1]] = r[3]; next }
    FILENAME ~ /defs$/ { def[$2] = $1; next }
    {
	f = $1; s = $2
	if (!(s in def) || def[s] == f || index(linkonly, " " f ":" s " "))
		next
	d = def[s]
	if (rank[d] >= rank[f])
		printf "runtime/%s.c (%s) uses %s of runtime/%s.c (%s): not below it\n",
		    f, layer[f], s, d, layer[d]
    }' "$T/rank" "$T/defs" "$T/uses" >> "$T/bad"

# Names: a hidden global of file f is __mon_f_*.  __wrap_* are named by
# ld's --wrap (exec.c, dl.c, exit.c).
awk -F '\t' -v reserved=" $RESERVED " '
    $2 !~ /^[A-Za-z_][A-Za-z0-9_]*$/ { next }	# asm labels: <external>, the hint
    index(reserved, " " $2 " ") { next }
    $2 ~ /^__wrap_/ { next }
    index($2, "__mon_" $1 "_") != 1 {
	printf "runtime/%s.c defines %s: not named __mon_%s_*\n", $1, $2, $1 }' \
    "$T/globals" >> "$T/bad"

# Exports: names mon.h or mon_abi.h declare or quote (MON_*_NAME).
cat "$monh" "${monh%.h}_abi.h" | tr -c 'A-Za-z0-9_' '\n' | sort -u > "$T/monh"
awk -F '\t' -v extra=" $EXPORTED " '
    FILENAME ~ /monh$/ { known[$0] = 1; next }
    !($2 in known) && !index(extra, " " $2 " ") {
	printf "runtime/%s.c exports %s, which mon.h does not name\n", $1, $2 }' \
    "$T/monh" "$T/exports" >> "$T/bad"

# Includes: a file sees its own layer's header and lower ones only.
for h in "$srcdir"/*.c "$srcdir"/*.h; do
	f=$(basename "$h")
	case $f in
	*.c)	me=$(awk -v f="${f%.c}" '$1 == f { print $3 }' "$T/rank") ;;
	*.h)	me=${f%.h} ;;
	esac
	[ -n "$me" ] || continue
	sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$h" | while read -r inc; do
		case $inc in mon|mon_abi) continue ;; esac
		awk -v me="$me" -v inc="$inc" -v f="$f" '
		    NF { n[$1] = NR }
		    END {
			if (!(inc in n))
				printf "runtime/%s includes %s.h: no such layer\n", f, inc
			else if (n[inc] > n[me] || (f ~ /\.h$/ && n[inc] == n[me]))
				printf "runtime/%s (%s) includes %s.h: not below it\n",
				    f, me, inc
		    }' <<EOF
$LAYERS
EOF
	done
done >> "$T/bad"

if [ -s "$T/bad" ]; then
	sed 's/^/layers: /' "$T/bad" >&2
	exit 1
fi
echo "layers: $(wc -l < "$T/rank") runtime files in $(echo "$LAYERS" | grep -c .) layers, each calling only below it"
