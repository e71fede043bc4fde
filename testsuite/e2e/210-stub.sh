# 210-stub: arguments in general, vector (xmm, ymm) and static-chain
# registers survive the first call's slow path at -O0 and -O2; each
# function is counted once; at -O2 a leaf function still has no frame
# (no push before its fast path), though the specs file builds with
# frame pointers (the stacks' walk finds its caller without it), and no
# call outside its slow path.
for opt in -O0 -O2; do
	mp_cc -p -fchecking -mavx $opt "$E2E/210-stub.c" -o a.out
	expect_eq "$(./a.out)" ok "$opt: arguments intact"
	counts ./a.out | awk '$1 != "main" && $1 != "nested.0" { print $1, $2 }' > got
	printf '%s\n' 'fmix 1' 'leaf 1' 'six 1' 'va 1' 'vadd 1' 'vaf 1' > want
	expect_file want got
	expect_eq "$(count_of nested.0)" 1 "$opt: nested function"
done
objdump -d --no-show-raw-insn a.out | awk '/<leaf>:/ { on = 1; next }
    on && /^$/ { exit } on' > leaf.s
grep -q push leaf.s && { cat leaf.s; fail "leaf saves a register"; }
head -n 2 leaf.s | grep -q '%gs:' || { cat leaf.s; fail "leaf does not start with the fast path"; }
exit 0
