# 314-prof-elf-strings: a symbol string table that cannot make prof slow:
# one whose end has no NUL (elf_strptr scanned the rest of the table on
# every symbol: seconds) and one whose names all overlap (300,000
# suffixes of one name: sorting them cost the square) are refused in
# one line, in under 5 s and 256 MB; a good table of the same tool reads.
. "$E2E/300-prof.subr"
printf 'range 0 0\ncell %d 1\n' $((0x401004)) | "$MKMON" mon.out

"$MKELF" -n 3 good
bounded out err good
expect_eq $st 0 "good table: exit status"
expect_eq "$(sed -n 2p out)" \
    '   0.0    0.00    0.00       1      0.      f0000000' "good table"

"$MKELF" -n 40000 -t 8000000 nonul
bounded out err nonul
expect_eq $st 1 "no NUL: exit status"
expect_eq "$(cat err)" "prof: nonul: bad symbol string table: no NUL at its end; name the executable the profile is of: prof PROG mon.out" \
    "no NUL"

"$MKELF" -n 300000 -s overlap
bounded out err overlap
expect_eq $st 1 "overlapping names: exit status"
expect_eq "$(cat err)" "prof: overlap: bad symbol table: its function names take more than 4 times its string table; name the executable the profile is of: prof PROG mon.out" \
    "overlapping names"
