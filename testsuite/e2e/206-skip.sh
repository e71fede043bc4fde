# 206-skip: no_instrument_function, no_profile_instrument_function,
# naked, interrupt, ifunc and target_clones resolvers, and __mon_ /
# __monprof_ names get no call to the slow path nor counter record
# (checked in the asm) and no count (checked in mon.out), at -O0 and -O2.
body() {	# body FUNCTION < asm: the lines of FUNCTION
	sed -n "/^$1:/,/^[[:space:]]*\.size[[:space:]]*$1,/p"
}
for opt in -O0 -O2; do
	mp_cc -p $opt -fchecking -S -o t.s "$E2E/206-skip.c"
	for f in s_noinst s_noprof s_naked __mon_private __monprof_private \
	    resolve 'tc\.resolver'; do
		body "$f" < t.s > f.s
		[ -s f.s ] || fail "$opt: $f not found in the asm"
		grep -Eq '__mon_mcount_s|__mon_pcells' f.s &&
		    fail "$opt: $f instrumented"
	done
	for f in impl counted main 'tc\.default[.0-9]*'; do
		body "$f" < t.s | grep -Eq '__mon_mcount_s|__mon_pcells' ||
		    fail "$opt: $f not instrumented"
	done
	mp_cc -p $opt -fchecking "$E2E/206-skip.c" -o a.out
	expect_eq "$(./a.out)" 132 "$opt: output"
	counts ./a.out > got
	printf '%s\n' "counted 3" "impl 3" "main 1" > expect
	grep '^tc\.' got | awk '{ n += $2 } END { print "tc", n }' >> expect.tc
	expect_eq "$(cat expect.tc)" "tc 3" "$opt: target clones"
	rm expect.tc
	grep -v '^tc\.' got > got2
	diff -u expect got2 || fail "$opt: counts"
done
# x86 interrupt handlers (compile only: they cannot be called).
cat > irq.c <<'X'
struct interrupt_frame;
__attribute__((interrupt)) void s_irq(struct interrupt_frame *f) { (void)f; }
void plain(void) {}
X
mp_cc -p -O2 -mgeneral-regs-only -S -o irq.s irq.c
body s_irq < irq.s | grep -Eq '__mon_mcount_s|__mon_pcells' &&
    fail "interrupt instrumented"
body plain < irq.s | grep -Eq '__mon_mcount_s|__mon_pcells' ||
    fail "plain not instrumented"
true
