# 128-exec: a program that replaces itself with exec*() writes its
# profile first (none before: no exit handler runs), and ends as without
# profiling; a vfork child that execs writes none (the parent writes
# its own at exit); an exec that fails writes one, then the exit writes
# the whole profile again.  Through the specs file, which links
# executables with --wrap for the exec functions (PIE, LTO, static).
for lto in "" -flto -static; do
	mp_cc -p -O2 $lto -o prog "$E2E/128-exec.c"
	mkdir d
	for how in execve execv execvp execvpe execl execlp execle fexecve \
	    vfork; do
		rm -f d/*
		st=0
		PROFDIR=d ./prog $how || st=$?
		expect_eq "$st" 5 "$lto $how: exit status"
		expect_eq "$(ls d | wc -l)" 1 "$lto $how: files"
		expect_eq "$(count_of f prog d/*)" 3 "$lto $how: calls of f"
	done
	rm -rf d
	st=0
	./prog missing 2> err || st=$?
	expect_eq "$st" 6 "$lto missing: exit status"
	expect_eq "$(count_of f prog)" 4 "$lto missing: calls of f"
	grep monprof err && fail "$lto missing: stderr: $(cat err)"
done
exit 0
