# 203-threads: 8 threads x 200000 calls = exactly 1600000 in the default
# (thread) mode, with -pthread and without, in atomic mode, and with
# -fprofile-update=atomic, and in the reference; the asm shows which
# update each mode emits
# (thread: one addq to the executable's counter at the %gs base, hook
# ABI 7, no thread-local storage; or with -fPIC a load of the area
# pointer, hook ABI 6: no thread-local word).
for mode in "" "-pthread" "-fplugin-arg-monprof-update=atomic" \
    "-fprofile-update=atomic" "-fplugin-arg-monprof-update=thread -flto" \
    -fplugin-arg-monprof-reference; do
	mp_cc -p -O2 -fchecking -pthread $mode "$E2E/203-threads.c" -o a.out
	./a.out > /dev/null || fail "$mode: run"
	expect_eq "$(count_of work)" 1600000 "$mode: work"
	expect_eq "$(count_of worker)" 8 "$mode: worker"
	expect_eq "$(count_of main)" 1 "$mode: main"
done
asm() {
	mp_cc -p -O2 "$@" -S -o - "$E2E/203-threads.c" |
	    sed -n '/^work:/,/\.cfi_endproc/p'
}
asm | grep -Eq 'addq \$1, %gs:__mon_ctr[.0-9]*\(%rip\)' ||
    fail "thread: no %gs add"
asm | grep -q '%fs' && fail "thread: thread-local storage"
asm | grep -Eq 'lock|__mon_word|__mon_mcount' && fail "thread: lock or word"
asm -fPIC | grep -q 'movq	__mon_area_mine@gottpoff(%rip), %r' ||
    fail "thread -fPIC: no initial-exec area pointer"
asm -fPIC | grep -Eq '__mon_word|__tls_get_addr|@tpoff|@tlsgd' &&
    fail "thread -fPIC: a thread-local word of its own"
asm -fPIE | grep -Eq 'addq \$1, %gs:__mon_ctr[.0-9]*\(%rip\)' ||
    fail "thread -fPIE: no %gs add"
asm -fplugin-arg-monprof-update=atomic | grep -q 'lock addq	\$1, (%r' ||
    fail "atomic: no lock add"
for ref in -p -pg; do
	mp_cc $ref -O2 -fplugin-arg-monprof-reference -S -o - \
	    "$E2E/203-threads.c" | sed -n '/^work:/,/\.cfi_endproc/p' > ref.s
	grep -q 'lock addq	\$1, (%r' ref.s || [ $ref = -pg ] ||
	    fail "reference: no lock add"
	grep -Eq '__mon_pcells_pend|__mon_site_rec|%gs:\.Lmon' ref.s &&
	    fail "reference $ref: a count or an announcement at a call site"
done
asm -fplugin-arg-monprof-update=single | grep -q 'movq	__mon_word[.0-9]*(%rip)' ||
    fail "single: no plain load"
asm -fplugin-arg-monprof-update=single | grep -Eq 'lock|%fs' &&
    fail "single: lock or TLS"
asm | grep -Eq '[^_]mcount|__fentry__' && fail "mcount emitted"
true
