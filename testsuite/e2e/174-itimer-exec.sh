# 174-itimer-exec: the CPU-time sampler's timer ends at an exec: a fork
# child that execs a CPU-burning shell, and then the process itself
# exec'ing one, end normally (before, an interval timer re-armed in the
# child went on into the shell and SIGPROF killed it: status 27).
for link in runtime specs; do
	case $link in
	runtime)	rt_cc -O2 -o prog "$E2E/174-itimer-exec.c" ;;
	specs)		mp_cc -p -O2 -I"$SRCDIR/include" -o prog \
			    "$E2E/174-itimer-exec.c" ;;
	esac
	st=0
	PROFFLAGS=-itimer ./prog > out 2> err || st=$?
	expect_eq "$st" 0 "$link: status"
	printf 'child\nchild status 0\nself\n' > want
	expect_file want out
	expect_eq "$(cat err)" "" "$link: stderr"
done
exit 0
