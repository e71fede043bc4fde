# 417-gsframe-link: the specs file never breaks a link that works
# without it.  plugin/gsframe-probe.s is the shape on which binutils
# 2.40's ld aborts when the assembler wrote SFrame rows for it (a .cold
# part whose last CFA change follows its last instruction, found in a
# database server's build), and the Makefile leaves --gsframe out where
# the linker in use aborts on it.  The probe's file, assembled through
# the specs file with -p and -pg, links -r, -shared and into a program,
# which runs and counts.
probe=$SRCDIR/plugin/gsframe-probe.s
for mode in -p -pg; do
	mp_cc $mode -c -o probe.o "$probe" 2> log ||
	    fail "$mode: assembling the probe: $(head -n 1 log)"
	mp_cc $mode -r -nostdlib -o probe.r.o probe.o 2> log ||
	    fail "$mode: ld -r: $(head -n 1 log)"
	mp_cc $mode -shared -o libprobe.so probe.o 2> log ||
	    fail "$mode: -shared: $(head -n 1 log)"
	mp_cc $mode -O2 -o a.out "$E2E/417-gsframe-link.c" probe.r.o 2> log ||
	    fail "$mode: the program's link: $(head -n 1 log)"
	rm -f mon.out gmon.out
	./a.out > out || fail "$mode: the program exited $?"
	expect_eq "$(cat out)" 42 "$mode: output"
	expect_eq "$(count_of twice a.out)" 7 "$mode: twice's calls"
done
# Where the specs file passes --gsframe, the linker read the probe's rows.
if grep -v "^#" "$SPECS" | grep -q -- -Wa,--gsframe; then
	readelf -lW a.out | grep -q GNU_SFRAME || fail "no SFrame rows"
fi
exit 0
