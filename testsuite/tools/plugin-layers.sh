#!/bin/sh
# plugin-layers.sh - the plugin's files call only the files below them
# (DESIGN.md, "The plugin"), so plugin/ has no cycle: mon_gimple.c, the
# pieces every pass uses, at the bottom, then the area words, the -pg
# call sites that announce themselves, the entries, and plugin_init on
# top.  Read from the
# objects (nm): a file that calls a function or reads a variable another
# file defines must come after it in ORDER.  Run by `make check`.
#
#   plugin-layers.sh OBJDIR SRCDIR		e.g. build/obj/plugin plugin
set -eu
LC_ALL=C
export LC_ALL
ORDER='mon_gimple mon_area mon_sites mon_instrument mon_plugin'

[ $# -eq 2 ] || { echo "usage: plugin-layers.sh OBJDIR SRCDIR" >&2; exit 2; }
objdir=$1 srcdir=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/plugin-layers.XXXXXX")
trap 'rm -rf "$T"' EXIT
bad=0
for f in "$srcdir"/*.c; do
	f=$(basename "$f" .c)
	case " $ORDER " in *" $f "*) ;; *)
		echo "plugin-layers: plugin/$f.c is in no layer"; bad=1 ;;
	esac
done
rank=0
for f in $ORDER; do
	rank=$((rank + 1))
	nm --defined-only -C "$objdir/$f.o" | awk -v f="$f" -v r=$rank \
	    '$2 ~ /^[TDBR]$/ { $1 = ""; $2 = ""; sub(/^ +/, ""); print r "\t" f "\t" $0 }'
done > "$T/defs"
rank=0
for f in $ORDER; do
	rank=$((rank + 1))
	nm -u -C "$objdir/$f.o" | sed 's/^ *U //' | awk -F '\t' -v f="$f" \
	    -v r=$rank -v defs="$T/defs" '
	    BEGIN { while ((getline l < defs) > 0) { split(l, d, "\t")
		    who[d[3]] = d[2]; at[d[3]] = d[1] } }
	    ($0 in who) && at[$0] >= r {
		printf "plugin-layers: plugin/%s.c uses %s of plugin/%s.c, " \
		    "not below it\n", f, $0, who[$0]; bad = 1 }
	    END { exit bad }' || bad=1
done
[ $bad = 0 ] || exit 1
echo "plugin-layers: $(echo $ORDER | wc -w) plugin files, each using only those below it"
