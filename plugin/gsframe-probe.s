# gsframe-probe.s - the code shape on which the Makefile proves the
# assembler's --gsframe with the linker in use before the specs file
# passes it: a function's .cold part as GCC 12 -O2 emits it for an error
# path whose stack arguments are popped after its last call, and then
# nothing (the code after is unreachable).  The part's last CFA change
# comes after its last instruction, so the SFrame row that as --gsframe
# writes for it starts at the part's end, and binutils 2.40's ld aborts
# on it in every link, -r too (sframe.c:1175: sframe_decoder_get_fre:
# Assertion `fre->fre_start_addr < fdep->sfde_func_size' failed).
	.text
	.globl	f
	.type	f, @function
f:
	.cfi_startproc
	pushq	%rbx
	.cfi_def_cfa_offset 16
	.cfi_offset 3, -16
	testl	%edi, %edi
	js	.Lcold
	popq	%rbx
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.section	.text.unlikely,"ax",@progbits
	.cfi_startproc
	.type	f.cold, @function
f.cold:
.Lcold:
	.cfi_def_cfa_offset 16
	.cfi_offset 3, -16
	pushq	$1
	.cfi_def_cfa_offset 24
	pushq	$2
	.cfi_def_cfa_offset 32
	call	abort@PLT
	popq	%rdx
	.cfi_def_cfa_offset 24
	popq	%rcx
	.cfi_def_cfa_offset 16
	.cfi_endproc
	.size	f.cold, .-f.cold
	.text
	.size	f, .-f
	.section	.note.GNU-stack,"",@progbits
