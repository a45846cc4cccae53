/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The POWER (ppc64, Power ISA 3.0 plus the ISA 3.1 prefixed forms)
 * control-transfer classifier used by the trap handler to name each
 * single-stepped instruction. Builds in the kernel module and on the host.
 */
#ifndef _ITRACE_PPC_INSN_CLASS_H
#define _ITRACE_PPC_INSN_CLASS_H
#include "lib/compat.h"

struct itrace_ppc_insn {
	u8 kind;	/* enum itrace_kind, as if the branch were taken (see below) */
	u8 cond;	/* 1: may go on in sequence (BO is not "branch always") */
	u8 link;	/* LK=1: sets LR to the next instruction */
	u8 direct;	/* target known from the word: b/ba/bl/bla/bc/bca/bcl/bcla */
	u8 abs;		/* AA=1: target is the displacement itself, not ip + disp */
	u8 larx;	/* lbarx, lharx, lwarx, ldarx, lqarx */
	u8 stcx;	/* stbcx., sthcx., stwcx., stdcx., stqcx. */
	u8 len;		/* 4, or 8 for an ISA 3.1 prefixed instruction
			 * (primary opcode 1 prefix word)
			 */
	s32 disp;	/* sign-extended branch displacement in bytes (direct only) */
};

/* Classify instruction word @w (already in host byte order). @next is the
 * following word, needed only when @w is a prefix (pass 0 if unknown).
 * Returns 0, or -1 if @w is not a valid instruction.
 *
 * Classification notes (the implementation says why):
 *  - Conditional branches get the kind they have when taken (JCC, RET,
 *    IJMP, CALL, ICALL) with cond = 1; the trap handler sees whether the
 *    branch was taken. BO = 1z1zz ("branch always") gives cond = 0.
 *  - tw/td/twi/tdi are ITRACE_K_INT; cond = 0 only for TO = 31.
 *  - scv sets LR to the next instruction, so it reports link = 1.
 *  - Primary opcodes 0 (including the implementation-specific attn),
 *    5, 9 and 22 are invalid, as is opcode 17 with bits 30 and 31 clear,
 *    and a prefix whose @next is not one of its defined suffixes.
 *  - *out is written even when -1 is returned; its contents then mean
 *    nothing.
 */
int itrace_ppc_classify(u32 w, u32 next, struct itrace_ppc_insn *out);
#endif
