# 215-gnu-mcount: objects compiled by GCC's own -p or -pg (no plugin:
# their functions call mcount) linked into a monprof program are counted
# exactly, with threads: the runtime's mcount (runtime/foreign.c) stands
# for glibc's, whose gmon is never started (before: not counted, no
# message).  A static object and a shared one under -p (mon.out, prof),
# a static one under -pg (gmon.out's arcs, through gprof).  The program
# prints what it prints without profiling.
. "$E2E/400-gprof.subr"
lib=$E2E/215-gnu-mcount.lib.c
main=$E2E/215-gnu-mcount.c
"$CC" -O2 -pthread -o plain "$main" "$lib"
./plain > want.out
"$CC" -p -O2 -c -o lib.o "$lib"
"$CC" -p -O2 -fPIC -shared -o libgnu.so "$lib"
"$CC" -pg -O2 -c -o libpg.o "$lib"
for how in static shared; do
	rm -f mon.out
	if [ $how = static ]; then
		mp_cc -p -O2 -o a.out "$main" lib.o
	else
		mp_cc -p -O2 -o a.out "$main" -L. -lgnu -Wl,-rpath,"$T"
	fi
	./a.out > got.out 2> err || fail "$how: status $?"
	[ -s err ] && fail "$how: stderr: $(cat err)"
	expect_file want.out got.out
	"$PROF" a.out > report || fail "$how: prof"
	awk '$NF ~ /^(lib_f|lib_g|main|work)$/ { print $NF, $4 }' report |
	    sort > got
	printf '%s\n' "lib_f 400006" "lib_g 3" "main 1" "work 4" > want
	expect_file want got
done
rm -f gmon.out
mp_cc -pg -O2 -o c.out "$main" libpg.o
./c.out > got.out 2> err || fail "-pg: status $?"
[ -s err ] && fail "-pg: stderr: $(cat err)"
expect_file want.out got.out
graph c.out | grep -E ' lib_[fg] ' > got
printf '%s\n' "lib_g lib_f 6/400006" "main lib_g 3/3" "work lib_f 400000/400006" > want
expect_file want got
exit 0
