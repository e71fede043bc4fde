# 424-gprof-own: gprof never shows the runtime's own functions as the
# program's.  The runtime's code lies in a section of its own
# (monprof_text, the Makefile's objcopy), and gmon.out's histogram has
# its bins empty: a -pg program of many short threads had the runtime's
# thread set-up on top of gprof's rows (__mon_pcells_thread, create,
# trampoline, ...; a server's busiest backend had
# __mon_mcount_arc_rec_stub on top, 8.2 %).  Its rows are the program's
# functions only; prof says how many samples the runtime's code had,
# and shows no row of it either.
command -v gprof > /dev/null || skip "no gprof"
mp_cc -pg -O2 -o a.out "$E2E/424-gprof-own.c" -pthread
./a.out
[ -s gmon.out ] || fail "no gmon.out"
nm a.out | grep -q ' __start_monprof_text$' ||
    fail "the runtime's code is not in monprof_text"
# The runtime's functions: the symbols in [__start, __stop), less the
# names that the program's functions have too (statics: run).
nm -n a.out | awk '$3 == "__start_monprof_text" { on = 1; next }
    $3 == "__stop_monprof_text" { on = 0; next } $2 ~ /^[tTwW]$/ {
	if (on) own[$3] = 1; else prog[$3] = 1 }
    END { for (f in own) if (!(f in prog)) print f }' | sort -u > own
[ -s own ] || fail "no function in monprof_text"
gprof -b -p a.out gmon.out | awk '$1 ~ /^[0-9.]+$/ && NF >= 4 { print $NF }' |
    sort -u > rows
grep -qx leaf rows || { cat rows; fail "leaf is not gprof's row"; }
comm -12 own rows > both
[ ! -s both ] || { gprof -b -p a.out gmon.out | head -20
	fail "gprof shows the runtime's own: $(cat both | tr '\n' ' ')"; }
"$PROF" -s a.out > report
grep "samples in monprof's own code" report || :
"$PROF" a.out | awk 'NR > 1 { print $NF }' | sort -u > profrows
comm -12 own profrows > both
[ ! -s both ] || fail "prof shows the runtime's own: $(cat both | tr '\n' ' ')"
exit 0
