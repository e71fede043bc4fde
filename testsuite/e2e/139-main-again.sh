# 139-main-again: the specs file wraps main (runtime/exit.c), so that its
# return from the start files is an exit() that writes first; a call of
# main from another of the program's files is wrapped by ld too, and
# must return to its caller as without profiling, not end the program.
cat > a.c <<'X'
#include <stdio.h>
int again(int);
int main(int argc, char **argv) { (void)argv; if (argc > 1) return 7;
	printf("again: %d\n", again(2)); return 3; }
X
cat > b.c <<'X'
int main(int, char **);
int again(int n) { char *v[] = { "x", "y", 0 }; return main(n, v) + 1; }
X
plain_cc -O2 a.c b.c -o plain
st=0
./plain > want || st=$?
expect_eq "$st" 3 "plain: exit status"
mp_cc -p -O2 a.c b.c -o a.out
st=0
./a.out > got || st=$?
expect_eq "$st" 3 "exit status"
expect_file want got
expect_eq "$(count_of main)" 2 "calls of main"
expect_eq "$(count_of again)" 1 "calls of again"
