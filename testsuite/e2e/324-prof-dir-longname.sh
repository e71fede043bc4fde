# 324-prof-dir-longname: a directory operand holds the profiles of a
# program whose name is longer than MON_PROGNAME_MAX (200 bytes): the
# runtime cut prog in <pid>.<prog> to 200 bytes, back to the start of a
# UTF-8 character, and prof, given the whole name, reads them by the
# same rule (runtime/name.c; it looked for the whole name and found
# none).  A file whose prog is one byte shorter is not the program's.
. "$E2E/300-prof.subr"
rt_cc -O2 -o a.out "$E2E/101-basic.c"
p50=$(printf '%050d' 0 | tr 0 p)
p199=$(printf '%0199d' 0 | tr 0 p)
eacute=$(printf '\303\251')
# 250 bytes; the second has e acute (2 bytes) across byte 200.
for e in p "$eacute"; do
	long=$p199$e$p50 cut=$p199
	[ "$e" = p ] && cut=${p199}p
	cp a.out "$long"
	in_profdir d "./$long"
	expect_eq "$(ls d)" "$pid.$cut" "the runtime's name"
	cp "d/$pid.$cut" "d/$pid.${cut%p}"
	calls "./$long" d > got
	printf '%s\n' 'caller 2' 'leaf 1235' 'main 1' > want
	expect_file want got
	expect_eq "$(summed "./$long" d)" 1 "profiles summed"
	rm -r d "$long"
done
exit 0
