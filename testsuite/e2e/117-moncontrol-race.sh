# 117-moncontrol-race: moncontrol from two threads at once excludes the
# calls made while off once, never twice.
rt_cc -O2 -o a.out "$E2E/117-moncontrol-race.c"
for i in 1 2 3; do
	total=$(./a.out)
	n=$(count_of f)
	[ "$n" -ge 1000 ] && [ "$n" -le "$total" ] ||
	    fail "run $i: f counted $n times, want 1000..$total"
done
exit 0
