# 362-prof-man-options: every option prof --help lists has its entry in
# prof(1)'s OPTIONS, and every option the man page documents is in
# --help: adding an option without documenting it breaks this case.
. "$E2E/300-prof.subr"
"$PROF" --help > help
# From the usage: "-XYZ" clusters give letters, "| c" alternatives too,
# "--name=..." its name.
tr '[]' '  ' < help | grep -v '^Reads' | tr -s ' \t' '\n\n' | awk '
	/^--[a-z]/ { sub(/=.*/, ""); print; prev = "opt"; next }
	/^-[A-Za-z]+$/ { for (i = 2; i <= length($0); i++)
		print "-" substr($0, i, 1); prev = "opt"; next }
	$0 == "|" { next }
	/^[A-Za-z]$/ && prev == "opt" { print "-" $0; next }
	{ prev = "" }' | sort -u > from-help
# From the man page: the options each OPTIONS entry names.
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.SH/ { on = 0 }
	on && /^\.TP/ { getline; print }' "$SRCDIR/man/prof.1" |
    sed 's/\\-/-/g' | grep -o -- '--*[A-Za-z][-A-Za-z]*' | sort -u > from-man
[ -s from-help ] || fail "no options read from --help"
expect_file from-help from-man
for o in -f --no-demangle -C -O -T --help; do
	grep -qx -- "$o" from-man || fail "$o: not in the man page"
done
