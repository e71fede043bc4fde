# 204-many: 6000 distinct functions (far more than the 600 cells of the
# default monitor() buffer) are all counted: f<i> is called i % 3 + 1
# times.
NF=6000
awk -v n=$NF 'BEGIN {
	for (i = 0; i < n; i++)
		printf "__attribute__((noinline, noclone)) int f%d(int x) " \
		    "{ asm volatile(\"\"); return x + %d; }\n", i, i
	print "int (*const tab[])(int) = {"
	for (i = 0; i < n; i++)
		printf "\tf%d,\n", i
	print "};\nint main(void) {\n\tint s = 0;"
	printf "\tfor (int i = 0; i < %d; i++)\n", n
	print "\t\tfor (int k = 0; k <= i % 3; k++)\n\t\t\ts += tab[i](k);"
	print "\treturn s == 0;\n}"
}' > many.c
mp_cc -p -O1 many.c -o a.out
./a.out || fail "run"
# counts(), but sorted and merged instead of a scan per cell: same rule,
# sym < fnpc <= sym + size.
{
	nm -t d --defined-only -S a.out |
	    awk '$3 ~ /^[TtWw]$/ && NF == 4 { print $1 + 0, 0, $2 + 0, $4 }'
	"$MONDUMP" mon.out | awk '$1 == "cell" { print $2, 1, $3 }'
} | sort -n -k1,1 -k2,2 | awk '
	$2 == 0 { a = $1; e = $1 + $3; name = $4; next }
	{ c[($1 > a && $1 <= e) ? name : "?" $1] += $3 }
	END { for (k in c) print k, c[k] }' | sort > got
awk -v n=$NF 'BEGIN { for (i = 0; i < n; i++) print "f" i, i % 3 + 1;
	print "main 1" }' | sort > expect
diff -u expect got > diffs || { head diffs; fail "counts differ"; }
