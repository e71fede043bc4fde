# 117-moncontrol-race: moncontrol from two threads at once excludes the
# calls made while off once, never twice: f, switched against main's
# calls, within 1000..all its calls; g, switched by both threads at
# once around main's calls, exactly its 2000 calls made while on (with
# the switches unlocked it fell by 1000 a round where both saw off).
rt_cc -O2 -o a.out "$E2E/117-moncontrol-race.c"
for i in 1 2 3; do
	total=$(./a.out)
	n=$(count_of f)
	[ "$n" -ge 1000 ] && [ "$n" -le "$total" ] ||
	    fail "run $i: f counted $n times, want 1000..$total"
	expect_eq "$(count_of g)" 2000 "run $i: calls of g made while on"
done
exit 0
