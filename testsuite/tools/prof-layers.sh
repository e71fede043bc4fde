#!/bin/sh
# prof-layers.sh - check prof's layers (DESIGN.md, "prof") on its
# objects, as layers.sh checks the runtime's: every prof/*.c is in
# exactly one layer below; a file calls (nm -u) only files of lower
# layers or files listed before it in its own layer, so there is no
# cycle; a file includes only its own layer's header or lower ones, a
# header only lower ones.  And the views never read a file: a view
# calls nothing of the input layer, no model function that reads
# (LOADERS), nothing of libelf or libdw, and none of libc's calls that
# open, read or look at a file; it opens only the files it writes
# (fopen, gzopen with a "w" or "a" mode).  Run by `make check` (and
# `make layers`).
#
#   prof-layers.sh OBJDIR SRCDIR		e.g. build/obj/prof prof
set -eu
LC_ALL=C
export LC_ALL

# The layers, lowest first.  Each layer's header is prof/<layer>.h
# (main has none: nothing is above it).
LAYERS='
common	names progress
input	file elfread monobj monstacks monread gmonread srcfile mdata
model	symgroup symtab rows callstacks report srcline inlines lines callgraph propagate profiles gmons sources model
views	flame flamefile print lineview export annotate graphview pprof callgrind
main	main
'

# The model's functions that read files (through the input layer, or
# libelf and libdw): model.c calls them, once, to build the model.
LOADERS='symtab_load symtab_open srclines_load lines_open inlines_open
profiles_read gmons_load sources_load model_build'

# libc's calls that open, read or look at a file: no view makes them.
READS='open open64 openat openat64 __open_2 __open64_2 __openat_2
read __read_chk pread pread64 __pread_chk __pread64_chk readv preadv
fread __fread_chk fread_unlocked fgets __fgets_chk fgetc getc getline
getdelim __getdelim fscanf __isoc99_fscanf __isoc23_fscanf
stat stat64 fstat fstat64 lstat lstat64 fstatat fstatat64 statx
__xstat __xstat64 __fxstat __fxstat64 __lxstat __lxstat64 __fxstatat
access faccessat opendir fdopendir readdir readdir64 scandir glob glob64
mmap mmap64 readlink realpath gzread gzdopen'

# What a view may open, for writing only (checked in its source).
OPENS='fopen fopen64 freopen fdopen gzopen gzopen64'

# Headers that are no layer's: <mon.h>, the generated protobuf code, and
# the runtime's, whose name.c prof links (mdata.c).
EXTERNAL='mon profile.pb-c'

[ $# -eq 2 ] || { echo "usage: prof-layers.sh OBJDIR SRCDIR" >&2; exit 2; }
objdir=$1 srcdir=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/prof-layers.XXXXXX")
trap 'rm -rf "$T"' EXIT

# file rank layer; rank orders files: layer first, then place in it.
echo "$LAYERS" | awk 'NF { for (i = 2; i <= NF; i++) print $i, NR * 100 + i, $1 }' \
    > "$T/rank"
awk '{ print $1 }' "$T/rank" | sort | uniq -d | sed 's/^/twice: /' > "$T/bad"

: > "$T/defs"
: > "$T/uses"
for c in "$srcdir"/*.c; do
	f=$(basename "$c" .c)
	o=$objdir/$f.o
	if ! grep -q "^$f " "$T/rank"; then
		echo "prof/$f.c is in no layer (testsuite/tools/prof-layers.sh)" >> "$T/bad"
		continue
	fi
	[ -f "$o" ] || { echo "no object $o (make first)" >> "$T/bad"; continue; }
	nm -g --defined-only "$o" | sed -n 's/^[0-9a-f]* [A-Za-z] //p' |
	    sed "s/^/$f	/" >> "$T/defs"
	nm -u "$o" | sed -n 's/^ *U //p' | sed "s/^/$f	/" >> "$T/uses"
done
for f in $(awk '{ print $1 }' "$T/rank"); do
	[ -f "$srcdir/$f.c" ] || echo "prof/$f.c is listed but missing" >> "$T/bad"
done

# Calls: the defining file must rank below the calling one; a view's
# must not be a reader's.
echo "$LOADERS" | tr ' ' '\n' | grep . > "$T/loaders"
echo "$READS" | tr ' ' '\n' | grep . > "$T/reads"
awk -F '\t' '
    FILENAME ~ /rank$/ { split($0, r, " "); rank[r[1]] = r[2]; layer[r[1]] = r[3]; next }
    FILENAME ~ /loaders$/ { loader[$1] = 1; next }
    FILENAME ~ /reads$/ { reads[$1] = 1; next }
    FILENAME ~ /defs$/ { def[$2] = $1; next }
    {
	f = $1; s = $2
	if (layer[f] == "views") {
		if (s in def && layer[def[s]] == "input")
			printf "prof/%s.c (views) calls %s of prof/%s.c, a reader (input)\n",
			    f, s, def[s]
		else if (s in loader)
			printf "prof/%s.c (views) calls %s of prof/%s.c, which reads files\n",
			    f, s, def[s]
		else if (s ~ /^(elf|elf32|elf64|gelf|dwarf|dwfl|dwelf)_/)
			printf "prof/%s.c (views) calls %s: libelf and libdw read files\n",
			    f, s
		else if (s in reads)
			printf "prof/%s.c (views) calls %s: a view reads no file\n",
			    f, s
	}
	if (!(s in def) || def[s] == f)
		next
	d = def[s]
	if (rank[d] >= rank[f])
		printf "prof/%s.c (%s) uses %s of prof/%s.c (%s): not below it\n",
		    f, layer[f], s, d, layer[d]
    }' "$T/rank" "$T/loaders" "$T/reads" "$T/defs" "$T/uses" >> "$T/bad"

# A view opens only what it writes: each open in its source has a mode
# of "w" or "a" on its line.
opens=$(echo $OPENS | sed 's/ /|/g')
for f in $(awk '$3 == "views" { print $1 }' "$T/rank"); do
	[ -f "$srcdir/$f.c" ] || continue
	grep -nE "(^|[^A-Za-z0-9_])($opens)[[:space:]]*\\(" "$srcdir/$f.c" |
	    grep -vE '"[wa][^"]*"' |
	    sed "s|^\\([0-9]*\\):.*|prof/$f.c:\\1 (views) opens a file other than to write it|" \
	    >> "$T/bad" || true
done

# Headers: one per layer, prof/<layer>.h.
for h in "$srcdir"/*.h; do
	f=$(basename "$h" .h)
	awk -v f="$f" '$3 == f { found = 1 } END { exit !found || f == "main" }' \
	    "$T/rank" || echo "prof/$f.h is no layer's header" >> "$T/bad"
done

# Includes: a file sees its own layer's header and lower ones only, a
# header lower ones only.
for h in "$srcdir"/*.c "$srcdir"/*.h; do
	f=$(basename "$h")
	case $f in
	*.c)	me=$(awk -v f="${f%.c}" '$1 == f { print $3 }' "$T/rank") ;;
	*.h)	me=${f%.h} ;;
	esac
	[ -n "$me" ] || continue
	sed -n 's/^#include "\(.*\)\.h".*/\1/p' "$h" | while read -r inc; do
		case " $EXTERNAL " in *" $inc "*) continue ;; esac
		case $inc in ../runtime/*) continue ;; esac
		awk -v me="$me" -v inc="$inc" -v f="$f" '
		    NF { n[$1] = NR }
		    END {
			if (!(inc in n) || inc == "main")
				printf "prof/%s includes %s.h: no such layer\n", f, inc
			else if ((me in n) && (n[inc] > n[me] ||
			    (f ~ /\.h$/ && n[inc] == n[me])))
				printf "prof/%s (%s) includes %s.h: not below it\n",
				    f, me, inc
		    }' <<EOF
$LAYERS
EOF
	done
done >> "$T/bad"

if [ -s "$T/bad" ]; then
	sed 's/^/prof-layers: /' "$T/bad" >&2
	exit 1
fi
echo "prof-layers: $(wc -l < "$T/rank") prof files in $(echo "$LAYERS" | grep -c .) layers, each calling only below it; the views read no file"
