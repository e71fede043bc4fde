# 106-moncontrol: moncontrol(0) stops counting and sampling, (1) resumes,
# and it returns the previous mode.
for hook in "" -DMON_HOOK_SHARED; do
	rm -f mon.out
	rt_cc -O2 $hook -I"$E2E" -o a.out "$E2E/106-moncontrol.c"
	st=0
	./a.out || st=$?
	expect_eq "$st" 0 "$hook exit status"
	expect_eq "$(count_of f)" 13 "$hook f"
	expect_eq "$(count_of g)" 1 "$hook g"
	expect_eq "$(count_of busy)" 0 "$hook busy"
	expect_eq "$(meta 10)" 0 "$hook samples"
	expect_eq "$("$MONDUMP" mon.out | grep -c '^bin')" 0 "$hook bins"
done
exit 0
