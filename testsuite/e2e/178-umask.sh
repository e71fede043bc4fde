# 178-umask: profile files are created mode 0644 before the umask (0600
# for a setuid program, 132), so that a program run under umask 0 (a
# daemon that clears it) leaves none that another user could rewrite:
# mon.out, PROFDIR's <pid>.<prog>, -pg's gmon.out, -threads' per-thread
# files (the gmon.out beside them) and -sigdump's numbered dumps, under umask 0, 002, 022 and 077.
cat > prog.c <<'C'
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

static volatile int sink;

static void *
work(void *arg)
{
	sink += arg != NULL;
	return NULL;
}

int
main(int argc, char **argv)
{
	pthread_t t;

	if (pthread_create(&t, NULL, work, &t) != 0 ||
	    pthread_join(t, NULL) != 0)
		return 1;
	(void)argv;
	return argc > 1 && kill(getpid(), SIGUSR2) != 0;
}
C
mp_cc -pg -O2 -pthread -o prog prog.c || fail "build"
# modes NAME...: "name mode" of each file, in the order given.
modes() {
	for f in "$@"; do
		printf '%s %s\n' "$f" "$(stat -c %a "$f")"
	done
}
for pair in 0:644 002:644 022:644 077:600; do
	u=${pair%:*} m=${pair#*:}
	rm -rf d mon.out* gmon.out
	mkdir d
	(umask "$u" && PROFFLAGS="-sigdump USR2" ./prog dump) ||
	    fail "umask $u: status"
	expect_eq "$(modes mon.out mon.out.1 gmon.out)" "mon.out $m
mon.out.1 $m
gmon.out $m" "umask $u: mon.out"
	(umask "$u" && PROFDIR=d PROFFLAGS=-threads exec ./prog) &
	pid=$!
	wait $pid || fail "umask $u: PROFDIR: status"
	expect_eq "$(ls d | tr '\n' ' ')" \
	    "$pid.1.prog $pid.2.prog $pid.prog.gmon " "umask $u: PROFDIR files"
	expect_eq "$(cd d && modes $pid.1.prog $pid.2.prog $pid.prog.gmon)" \
	    "$pid.1.prog $m
$pid.2.prog $m
$pid.prog.gmon $m" "umask $u: PROFDIR"
done
exit 0
