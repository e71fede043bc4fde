# 420-forced-fault: a fault that the program blocked or ignored, which
# the kernel delivers with its default action and no handler run, still
# leaves the whole profile (runtime/forced.c: the writer process starts
# when the program blocks or ignores one, and writes when the process
# has ended); the program dies of it as without the runtime.  Blocked
# by sigprocmask and pthread_sigmask, ignored by signal and sigaction,
# inherited through exec and by a fork child; -p, -pg and static.  A
# program that blocks one and exits writes one profile, as before, and
# PROFFLAGS=-nofatal none at the fault.
ulimit -c 0
plain_cc -O2 -o plain "$E2E/420-forced-fault.c" -pthread

for how in "-p" "-pg" "-p -static"; do
	case $how in
	*-static) [ -f "$("$CC" -print-file-name=libc.a)" ] || continue ;;
	esac
	mp_cc $how -O2 -o a.out "$E2E/420-forced-fault.c" -pthread 2> log ||
	    fail "$how: build: $(head -n 1 log)"
	for run in block tblock ignore sigign exec none; do
		st=0
		./plain $run > want 2>&1 || st=$?
		expect_eq "$st" 139 "plain $run: status"
		rm -rf pd
		mkdir pd
		got=0
		PROFDIR=pd ./a.out $run > out 2>&1 || got=$?
		expect_eq "$got" "$st" "$how $run: status"
		expect_file want out
		# exec: the image that exec replaced wrote the same name
		# first (f 0), and the writer then writes the last image's.
		i=0
		while [ $i -lt 100 ]; do
			f=$(ls pd | grep -v '\.gmon$' || :)
			[ -n "$f" ] && [ "$(count_of f a.out "pd/$f")" = 7 ] &&
			    break
			sleep 0.1
			i=$((i + 1))
		done
		[ -n "$f" ] || fail "$how $run: no profile"
		expect_eq "$(count_of f a.out "pd/$f")" 7 "$how $run: f"
	done
	# A fork child with its parent's mask: its own profile.
	rm -rf pd
	mkdir pd
	PROFDIR=pd ./a.out fork > out 2>&1 || fail "$how fork: status $?"
	expect_eq "$(cat out)" "child: SIGSEGV" "$how fork: output"
	i=0
	while [ "$(ls pd | grep -vc '\.gmon$')" -lt 2 ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	counts=$(for f in $(ls pd | grep -v '\.gmon$'); do
		count_of f a.out "pd/$f"; done | sort | tr '\n' ' ')
	expect_eq "$counts" "0 3 " "$how fork: f in the parent and the child"
	# Blocked, then a plain exit: one profile, as before.
	rm -rf pd
	mkdir pd
	got=0
	PROFDIR=pd ./a.out exit > /dev/null 2>&1 || got=$?
	expect_eq "$got" 5 "$how exit: status"
	expect_eq "$(ls pd | grep -vc '\.gmon$')" 1 "$how exit: profiles"
	# -nofatal: no profile at the fault.
	rm -rf pd
	mkdir pd
	PROFFLAGS=-nofatal PROFDIR=pd ./a.out block > /dev/null 2>&1 || :
	sleep 0.5
	expect_eq "$(ls pd)" "" "$how -nofatal: profiles"
done
exit 0
