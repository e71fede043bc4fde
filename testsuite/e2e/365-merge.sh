# 365-merge: PROFFLAGS -merge.  Each process adds its profile (and
# -pg's gmon.out) into merged.<prog> in PROFDIR, under a lock, whole or
# not at all:
#  - profiles written apart and added one by one as a process adds its
#    own give every view of prof (and gprof) byte for byte as the
#    files apart do: counts, samples, stacks, a shared object's cells
#    at another address in each process;
#  - 300 processes that exit at one moment leave one file whose every
#    count is the sum of theirs;
#  - processes killed at any moment leave a file that prof reads, whose
#    counts are those of the processes it says it holds;
#  - another build goes into merged.<prog>.build-<id>, other settings
#    or a damaged file into <pid>.<prog>, each with one line; prof says
#    why it leaves another build's file out.
mp_cc -p -O2 -fPIC -shared -o libmrg.so "$E2E/365-merge.lib.c"
mp_cc -p -O2 -o prog "$E2E/365-merge.c" -L. -lmrg -Wl,-rpath,"$PWD"
rt_cc -O2 -o add "$E2E/365-merge-add.c"

# calls_of FUNC PROFILES: its calls in prof's report (a shared object's
# function too, which count_of does not see).
calls_of() {
	"$PROF" -z prog "$2" | awk -v f="$1" '$NF == f { print $4 }'
}

# Every view of prog's profiles in $1 and $2: the same bytes.
same_views() {
	for v in "-z" "-i" "-G" "-c -x"; do
		"$PROF" $v prog "$1" > one.out 2> one.err ||
		    fail "prof $v $1: status $?"
		"$PROF" $v prog "$2" > all.out 2> all.err ||
		    fail "prof $v $2: status $?"
		cmp -s one.out all.out || { diff one.out all.out >&2
		    fail "prof $v: $1 is not the sum of $2"; }
	done
	"$PROF" --callgrind=one.cg prog "$1" > /dev/null
	"$PROF" --callgrind=all.cg prog "$2" > /dev/null
	cmp -s one.cg all.cg || fail "callgrind: $1 is not the sum of $2"
	# -s: all but how many files, processes and cells (the merged file
	# has one cell a function, none unused).
	"$PROF" -s prog "$1" 2>&1 > /dev/null | grep -v "summed\|processes\|call counts used" \
	    > one.s
	"$PROF" -s prog "$2" 2>&1 > /dev/null | grep -v "summed\|processes\|call counts used" \
	    > all.s
	cmp -s one.s all.s || { diff one.s all.s >&2
	    fail "prof -s: $1 is not the sum of $2"; }
}

# 1. Six processes apart, added one by one: the same report.
for flags in "" -classic; do
	rm -rf apart m
	mkdir apart m
	for k in 3 5 8 13 21 34; do
		PROFFLAGS=$flags PROFDIR=apart ./prog $k > /dev/null
	done
	PROFDIR= ./add m/merged.prog apart/* || fail "add: status $?"
	same_views m apart
	expect_eq "$(calls_of libwork m)" 21 \
	    "$flags libwork (its object at another address in each)"
	"$PROF" -s prog m 2> sum > /dev/null
	grep -q "^    6 processes in them" sum || fail "$flags: prof -s: $(cat sum)"
done

# 2. 300 processes exit at one moment: one file, every count summed.
mkdir many
i=0 f=0 g=0 l=0
while [ $i -lt 300 ]; do
	k=$((i % 17 + 1))
	PROFDIR=many PROFFLAGS=-merge ./prog $k go > /dev/null 2>> many.err &
	f=$((f + 3 * k)) g=$((g + 2 * k)) l=$((l + k % 7)) i=$((i + 1))
done
sleep 1
touch go
wait
expect_file /dev/null many.err
expect_eq "$(ls many)" merged.prog "the files of 300 processes"
expect_eq "$(count_of f prog many/merged.prog)" $f "calls of f"
expect_eq "$(count_of g prog many/merged.prog)" $g "calls of g"
expect_eq "$(calls_of libwork many)" $l "calls of libwork"
expect_eq "$(count_of main prog many/merged.prog)" 300 "calls of main"
expect_eq "$(meta 31 many/merged.prog)" 300 "processes recorded"
# (Its stderr may say that the kernel lost samples of 300 processes.)
"$PROF" prog many > /dev/null 2> err || fail "prof many: $(cat err)"

# The same under -pg: gprof's calls are the sums.
mp_cc -pg -O2 -o pgprog "$E2E/365-merge.c" -L. -lmrg -Wl,-rpath,"$PWD"
mkdir pg
rm -f go
i=0 f=0
while [ $i -lt 60 ]; do
	k=$((i % 5 + 1))
	PROFDIR=pg PROFFLAGS=-merge ./pgprog $k go > /dev/null 2>> pg.err &
	f=$((f + 3 * k)) i=$((i + 1))
done
sleep 1
touch go
wait
expect_file /dev/null pg.err
expect_eq "$(ls pg | tr '\n' ' ')" "merged.pgprog merged.pgprog.gmon " \
    "the files of 60 -pg processes"
gprof -b -p pgprog pg/merged.pgprog.gmon > flat 2>&1 ||
    fail "gprof: $(cat flat)"
expect_eq "$(awk '$NF == "f" { print $4 }' flat)" $f "gprof: calls of f"
expect_eq "$(awk '$NF == "main" { print $4 }' flat)" 60 "gprof: calls of main"
# Its stderr may say that the kernel lost samples of the 60 processes
# (a loaded machine: CI's, beside two busy processes), nothing else.
"$PROF" -G pgprog pg > /dev/null 2> err || fail "prof -G pg: status $?"
grep -v '^prof: pg/merged\.pgprog: [0-9]* samples lost by the kernel: ' err \
    > err.other || true
expect_file /dev/null err.other

# 3. Killed at any moment, 40 times, with the writer process that
# writes the profile of a process ended from outside (final.c): pkill by
# a name of this case's own.  The file stays whole, and holds exactly
# the processes it says.
mkdir killed
cp prog k365kill
i=0
while [ $i -lt 40 ]; do
	PROFDIR=killed PROFFLAGS=-merge ./k365kill 10 > /dev/null 2>&1 &
	pid=$!
	# 0 to 39 ms: before, during and after the merge.
	sleep "0.0$((i % 4))$((i % 10))"
	pkill -9 -x k365kill || :
	wait $pid 2> /dev/null || :
	i=$((i + 1))
done
# A writer killed between its link and its rename leaves its file under
# the one temporary name, which the next one takes over.
PROFDIR=killed PROFFLAGS=-merge ./k365kill 10 > /dev/null
expect_eq "$(ls -A killed)" merged.k365kill "files left by killed processes"
n=$(meta 31 killed/merged.k365kill)
[ "$n" -ge 1 ] && [ "$n" -le 41 ] || fail "$n processes of 41"
expect_eq "$(count_of f k365kill killed/merged.k365kill)" $((30 * n)) \
    "calls of f in $n processes"
"$PROF" k365kill killed > /dev/null 2> err || fail "prof killed: $(cat err)"

# Killed while it waits for the lock, with its writer: nothing changes.
cp many/merged.prog before
cp prog k365wait
# -o: flock alone holds the lock, which its end lets go.
flock -o many sleep 60 &
holder=$!
# Until the lock is held: a loaded machine may start flock late.
until ! flock -n many true; do
	sleep 0.05
done
PROFDIR=many PROFFLAGS=-merge ./k365wait 1 > /dev/null 2>&1 &
pid=$!
sleep 1
pkill -9 -x k365wait
wait $pid 2> /dev/null || :
pkill -P $holder sleep || :
wait $holder 2> /dev/null || :
cmp -s before many/merged.prog || fail "a killed waiter changed the file"
expect_eq "$(ls -A many)" merged.prog "files after a killed waiter"

# 4. Another build of prog: merged beside, once said; prof leaves the
# other build's file out, and says so.
mkdir other
mp_cc -p -O2 -DOTHER -o other/prog "$E2E/365-merge.c" -L. -lmrg \
    -Wl,-rpath,"$PWD"
PROFDIR=many PROFFLAGS=-merge other/prog 2 > /dev/null 2> err ||
    fail "other: status $?"
expect_eq "$(cat err)" "monprof: $PWD/many/merged.prog: another build of the program wrote it; this build's processes are merged beside it" \
    "another build's line"
PROFDIR=many PROFFLAGS=-merge other/prog 3 > /dev/null 2> err
expect_file /dev/null err
cmp -s before many/merged.prog || fail "another build changed the file"
alt=$(ls many | grep -v '^merged.prog$')
case $alt in
merged.prog.build-????????????????) ;;
*) fail "another build's file: $alt" ;;
esac
expect_eq "$(count_of g other/prog many/$alt)" 10 "the other build's g"
"$PROF" other/prog many > report 2> err || fail "prof other: status $?"
grep -qx "prof: many/merged.prog: another build of the program: not summed (PROFFLAGS -merge keeps each build's processes in a file of its own); name that build's binary to read it" err ||
    fail "prof's line: $(cat err)"
expect_eq "$(awk '$NF == "g" { print $4 }' report)" 10 "prof: the other build's g"
"$PROF" prog many > report 2> err || fail "prof: status $?"
expect_eq "$(awk '$NF == "g" { print $4 }' report)" $g "prof: g of the 300"

# 5. Other settings, or a damaged file: the process's own file, a line.
PROFDIR=many PROFFLAGS="-merge -nostacks" ./prog 1 > /dev/null 2> err ||
    fail "-nostacks: status $?"
expect_eq "$(cat err)" "monprof: $PWD/many/merged.prog: the merged profile was written with other PROFFLAGS (rate, stride, stacks or -kernel); this process's profile is written apart, as <pid>.<prog>" \
    "other settings' line"
expect_eq "$(ls many | grep -c '^[0-9]*\.prog$')" 1 "the process's own file"
mkdir damaged
echo "not a profile" > damaged/merged.prog
PROFDIR=damaged PROFFLAGS=-merge ./prog 1 > /dev/null 2> err ||
    fail "damaged: status $?"
expect_eq "$(cat err)" "monprof: $PWD/damaged/merged.prog: the merged profile is not one monprof can add to; this process's profile is written apart, as <pid>.<prog>" \
    "a damaged file's line"
expect_eq "$(cat damaged/merged.prog)" "not a profile" "the damaged file"
expect_eq "$(count_of f prog damaged/[0-9]*.prog)" 3 "the process's own"
exit 0
