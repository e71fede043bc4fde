# 348-prof-objects-samples: version 2's samples outside the histogram,
# as a hostile file may give them: each sample goes where it says (the
# executable's by link-time pc, an object's to its row when its file is
# not there, the rest to <unknown>), %Time is of all of them, and every
# bad value is refused in one line.
. "$E2E/300-prof.subr"
sample
beta=$(addr beta)
base=139637976727552			# 0x7f0000000000
# 10 samples in beta (exe, by pc), 30 in an object that is gone, 20 in
# no object: 25 + 525 ticks in the histogram, so 610 in all.
v2 "meta exe_samples 10" "meta exe_sample $(((beta + 2) * 65536 + 10))" \
    "object $base $((base + 4096)) 0 /nonexistent/libgone.so.1" \
    "meta object_samples 30" "meta object_sample $((16 * 65536 + 30))" \
    "meta unknown 20" | "$MKMON" mon.out
bounded out err sample
expect_eq $st 0 "exit status"
expect_eq "$(cat err)" \
    "prof: /nonexistent/libgone.so.1: No such file or directory: its functions are not named (its samples stay in its own row); to name them, make the object the program ran with readable at that path" \
    "the missing object's warning"
row() { awk -v f="$1" '$NF == f { print $1, $2 }' out; }
expect_eq "$(row '<libgone.so.1>')" "4.9 0.30" "the object's row"
expect_eq "$(row '<unknown>')" "7.4 0.45" "<unknown>: 20 + 25 in no function"
# beta: 100 ticks in its bins and 10 by pc
expect_eq "$(row beta)" "18.0 1.10" "beta's time"

# refused: each in one line, status 1
bad() {
	v2 "$@" | "$MKMON" mon.out
	bounded out err sample
	expect_eq $st 1 "$*: exit status"
	expect_eq "$(wc -l < err)" 1 "$*: one line"
}
bad "meta unknown -1"
bad "meta exe_samples -5"
bad "meta exe_sample 65536"			# n = 0
bad "meta exe_sample -65535"
bad "object $base $((base + 4096)) 0 /x.so" "meta object_samples 1" \
    "meta object_sample $((4096 * 65536 + 1))"	# past its mapping
bad "meta exe_path 4702111234474983745"		# no NUL ever
