// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the powerpc step kinds (step_kind.h): what one single
 * step, or the branch behind a branch-trace trap, is logged as.
 */
#include "check.h"
#include "arch/powerpc/lib/step_kind.h"

static unsigned int kind_of(u32 w, u32 next, u64 from, u64 to)
{
	struct itrace_ppc_insn d;

	if (itrace_ppc_classify(w, next, &d))
		return 99;
	return itrace_ppc_step_kind(&d, from, to);
}

int main(void)
{
	const u32 add = 0x7c632214;	/* add r3,r3,r4 */
	const u32 twi = 0x0c030000;	/* twi 0,r3,0: never traps */
	const u32 pli = 0x06000000;	/* pli r3,0: prefix ... */
	const u32 pli2 = 0x38600000;	/* ... and suffix, 8 bytes */
	const u32 bne = 0x40820010;	/* bne +16 */
	const u32 bdnz = 0x4200fff0;	/* bdnz -16 */
	const u32 b = 0x48000008;	/* b +8 */
	const u32 bl = 0x48000101;	/* bl +0x100 */
	const u32 blr = 0x4e800020;
	const u32 bctrl = 0x4e800421;

	CHECK("ppc step insn", kind_of(add, 0, 0x100, 0x104) == ITRACE_K_INSN);
	CHECK("ppc step insn elsewhere is async",
	      kind_of(add, 0, 0x100, 0x200) == ITRACE_K_ASYNC);
	CHECK("ppc step trap word not taken",
	      kind_of(twi, 0, 0x100, 0x104) == ITRACE_K_INSN);
	CHECK("ppc step prefixed insn",
	      kind_of(pli, pli2, 0x100, 0x108) == ITRACE_K_INSN &&
	      kind_of(pli, pli2, 0x100, 0x104) == ITRACE_K_ASYNC);
	CHECK("ppc step bc not taken",
	      kind_of(bne, 0, 0x100, 0x104) == ITRACE_K_JCC_NT);
	CHECK("ppc step bc taken", kind_of(bne, 0, 0x100, 0x110) == ITRACE_K_JCC);
	CHECK("ppc step bc elsewhere is async",
	      kind_of(bne, 0, 0x100, 0x10c) == ITRACE_K_ASYNC);
	CHECK("ppc step bdnz taken backwards",
	      kind_of(bdnz, 0, 0x100, 0xf0) == ITRACE_K_JCC);
	CHECK("ppc step b", kind_of(b, 0, 0x100, 0x108) == ITRACE_K_JMP &&
	      kind_of(b, 0, 0x100, 0x104) == ITRACE_K_ASYNC);
	CHECK("ppc step bl", kind_of(bl, 0, 0x100, 0x200) == ITRACE_K_CALL);
	CHECK("ppc step blr anywhere",
	      kind_of(blr, 0, 0x100, 0x7000) == ITRACE_K_RET);
	CHECK("ppc step bctrl", kind_of(bctrl, 0, 0x100, 0x7000) == ITRACE_K_ICALL);
	return check_failed != 0;
}
