# 121-nostartfiles: a program with its own _start, linked with
# -nostartfiles, links and runs with -p and -pg as it does plain (the
# runtime's fork handler needed __dso_handle, which only the start files
# define: "undefined reference to `__dso_handle'"); it writes no
# profile, as no constructor runs, and its exit() says so in one line
# (it said nothing).
cat > start.c <<'EOT'
#include <stdlib.h>
#include <unistd.h>

static volatile int sink;

__attribute__((__noinline__)) static void
f(void)
{
	sink++;
}

__attribute__((__force_align_arg_pointer__)) void
_start(void)
{
	f();
	if (write(1, "started\n", 8) != 8)
		_exit(9);
	exit(3);
}
EOT
"$CC" -O2 -nostartfiles -o plain start.c
st=0
./plain > want || st=$?
expect_eq "$st" 3 "plain: exit status"
for p in -p -pg; do
	mp_cc $p -O2 -nostartfiles -o prog start.c || fail "$p: link failed"
	st=0
	./prog > got 2> err || st=$?
	expect_eq "$st" 3 "$p: exit status"
	expect_file want got
	# No constructor runs, so no profile: one line says why.
	expect_eq "$(cat err)" "monprof: the runtime never started (the program has no start files, -nostartfiles): no profile" "$p: the line on stderr"
	[ -f mon.out ] && fail "$p: a mon.out"
done
exit 0
