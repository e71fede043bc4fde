# 404-manyarcs: 300 callers x 200 callees = 60,000 distinct arcs, each
# called once per caller pass (caller i runs i % 3 + 1 passes): every arc
# is written and exact.  glibc's -pg build of the same program overflows
# its arc table and writes no gmon.out at all.
. "$E2E/400-gprof.subr"
awk 'BEGIN {
	print "volatile int sink;"
	for (j = 0; j < 200; j++)
		printf "void __attribute__((noinline, noclone)) g%d(void) " \
		    "{ sink++; __asm__ volatile(\"\"); }\n", j
	for (i = 0; i < 300; i++) {
		printf "void __attribute__((noinline, noclone)) c%d(void) {\n", i
		for (j = 0; j < 200; j++)
			printf "\tg%d();\n", j
		print "\t__asm__ volatile(\"\");\n}"
	}
	print "int main(void) {"
	for (i = 0; i < 300; i++)
		for (r = 0; r <= i % 3; r++)
			printf "\tc%d();\n", i
	print "\treturn 0;\n}"
}' > many.c
mp_cc -pg -O1 many.c -o prog
./prog 2>err || fail "run"
[ -s err ] && fail "stderr: $(cat err)"
gprof -i prog gmon.out > info
n=$(awk '/call-graph records/ { print $1 }' info)
[ "$n" -ge 60300 ] || fail "only $n call-graph records"
# each g is called (1 + 2 + 3) * 100 = 600 times
flat prog | awk '$1 ~ /^g/ { n++; if ($2 != 600) bad++ }
    END { if (n != 200 || bad) { print n, bad; exit 1 } }' ||
    fail "callee counts"
graph prog | awk '$2 ~ /^g/ { split($1, c, "c"); want = c[2] % 3 + 1
	if ($3 != want "/600") bad++; n++ }
    END { if (n != 60000 || bad) { print n, bad; exit 1 } }' ||
    fail "arcs"
expect_eq "$(count_of g123 prog)" 600 "mon.out g123"
rm -f gmon.out
"$CC" -pg -O1 many.c -o glibc
./glibc 2>/dev/null || true
[ -f gmon.out ] && fail "glibc wrote gmon.out (its table did not overflow?)"
true
