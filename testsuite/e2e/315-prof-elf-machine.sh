# 315-prof-elf-machine: a profile holds this machine's addresses in its
# byte order, so an executable of another byte order or machine is
# refused in one line (both were read silently), and a shared object of
# either, named by a profile, gets a warning and its calls stay unnamed.
. "$E2E/300-prof.subr"
sample
printf 'range 0 0\ncell %d 1\n' $((0x401004)) | "$MKMON" mon.out

"$MKELF" -b be
bounded out err be
expect_eq $st 1 "big-endian: exit status"
expect_eq "$(cat err)" "prof: be: a big-endian ELF file (this machine is little-endian); name the executable the profile is of: prof PROG mon.out" \
    "big-endian"

"$MKELF" -m 2 sparc
bounded out err sparc
expect_eq $st 1 "another machine: exit status"
expect_eq "$(cat err)" "prof: sparc: an ELF file for another machine (e_machine 2; this is x86-64)" \
    "another machine"

{ echo "range 0 0"; echo "object 1048576 2097152 0 $PWD/sparc"; cell beta 1
  echo "cell 1052676 5"; } | "$MKMON" mon.out
bounded out err sample
expect_eq $st 0 "object of another machine: exit status"
expect_eq "$(cat err)" "prof: $PWD/sparc: an ELF file for another machine (e_machine 2; this is x86-64): its functions are not named (its samples stay in its own row); to name them, make the object the program ran with readable at that path" \
    "object of another machine"
grep -q '       5 .*<unknown>' out || fail "object of another machine: $(cat out)"
