# 319-prof-lines-shared: -L and -A name the lines of an instrumented
# shared object's functions too (DWARF 4 in the object, DWARF 5 in the
# executable): each function's exact calls on the line of its entry.
cat > lib.c <<'X'
int
lib_f(int x)
{
	asm volatile("");
	return x + 1;
}

int
lib_g(int x)
{
	return lib_f(x) * 2;
}
X
cat > main.c <<'X'
int lib_f(int), lib_g(int);

int
main(void)
{
	int i, s = 0;

	for (i = 0; i < 40; i++)
		s += lib_f(i);
	for (i = 0; i < 3; i++)
		s += lib_g(i);
	return s == 0;
}
X
mp_cc -p -O1 -gdwarf-4 -fPIC -shared -fno-inline -fno-ipa-icf lib.c -o libl.so
mp_cc -p -O1 -gdwarf-5 main.c -L. -ll -Wl,-rpath,"$T" -o a.out
./a.out
# Times are left out: samples may fall anywhere in so short a run.
"$PROF" -L -n a.out | awk '$(NF - 2) ~ /^[0-9]+$/ {
    print $(NF - 2), $(NF - 1), $NF }' > out
printf '%s\n' "43 lib.c:3 lib_f" "3 lib.c:10 lib_g" "1 main.c:5 main" > want
expect_file want out

"$PROF" -A lib_g a.out > out
expect_eq "$(sed -n '1s/.*; //p' out)" "3 calls" "-A: calls"
cut -c19- out | tail -n +2 > got
cat > want <<END
Line  Source: $T/lib.c
   9  lib_g(int x)
  10  {
  11  	return lib_f(x) * 2;
  12  }
END
expect_file want got
