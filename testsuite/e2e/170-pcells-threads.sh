# 170-pcells-threads: -p in an executable counts in each thread's
# window of counters (hook ABI 7: one addq at the %gs base per call, a
# __mon_pcells record per function); every thread pthread_create starts is counted exactly, from
# the program, from a library (shared: the executable's exported
# pthread_create; static: --wrap) or from libstdc++'s std::thread,
# including threads that ended long before the write, on reused stacks,
# a key destructor's calls after the runtime's, and a detached thread.
# PIE, non-PIE and static.
CXX=$(echo "$CC" | sed 's/gcc/g++/')
"$CC" -O2 -fPIC -shared -o libspawn.so "$E2E/170-pcells-lib.c" -pthread
"$CC" -O2 -c -o spawn.o "$E2E/170-pcells-lib.c"
ar rc libspawn.a spawn.o

# check WHAT: the counts of ./a.out's mon.out
check() {
	counts ./a.out > c
	expect_eq "$(awk '$1 == "work" { print $2 }' c)" 200000 "$1: work"
	expect_eq "$(awk '$1 == "seq" { print $2 }' c)" 200000 "$1: seq"
	expect_eq "$(awk '$1 == "lib" { print $2 }' c)" 21000 "$1: lib"
	expect_eq "$(awk '$1 == "late" { print $2 }' c)" 5 "$1: late"
	expect_eq "$(awk '$1 == "detached" { print $2 }' c)" 1234 "$1: detached"
	expect_eq "$(awk '$1 == "main" { print $2 }' c)" 1 "$1: main"
}

for how in "" -no-pie -static; do
	rm -f mon.out a.out
	case $how in
	-static) [ -f "$("$CC" -print-file-name=libc.a)" ] || continue
		 mp_cc -p -O2 -static -o a.out "$E2E/170-pcells-threads.c" \
		    libspawn.a -pthread ;;
	*)	 mp_cc -p -O2 $how -o a.out "$E2E/170-pcells-threads.c" \
		    -L. -lspawn -Wl,-rpath,"$T" -pthread ;;
	esac
	readelf -SW a.out | grep -q ' __mon_pcells ' ||
	    fail "$how: no __mon_pcells section"
	# The entry after the frame the specs file asks for (push, mov).
	objdump -d a.out | awk '/<work>:/ { f = 1; next }
	    f && !/push +%rbp|mov +%rsp,%rbp/ { print; exit }' |
	    grep -q 'addq *\$0x1,%gs:' || fail "$how: work's entry is not one addq"
	./a.out || fail "$how: status $?"
	check "${how:-pie}"
done

command -v "$CXX" > /dev/null || exit 0
rm -f mon.out
"$CXX" -specs="$SPECS" -p -O2 -o cxx "$E2E/170-pcells-cxx.cc" -pthread
./cxx || fail "std::thread: status $?"
expect_eq "$(count_of _Z8cxx_workv ./cxx)" 18000 "std::thread: cxx_work"
exit 0
