/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The x86 instruction length decoder and
 * control-transfer classifier used by the trap handler to name each
 * single-stepped instruction. Builds in the kernel module and on the host.
 */
#ifndef _ITRACE_X86_INSN_DECODE_H
#define _ITRACE_X86_INSN_DECODE_H

#include "lib/compat.h"

#define ITRACE_X86_MAX_INSN 15

enum itrace_x86_mode { ITRACE_X86_MODE64 = 0, ITRACE_X86_MODE32 = 1 };

/*
 * kind: an enum itrace_kind (kdb-itrace/lib/kind.h); ITRACE_K_INSN for
 * non-branches and ITRACE_K_JCC for every conditional branch, taken or
 * not (the trap handler decides). rep: an F2/F3 prefix applies to a
 * string instruction, whose every iteration traps with ip unchanged.
 */
struct itrace_x86_insn {
	u8 len;		/* total length 1..15 */
	u8 kind;
	u8 rep;
	u8 has_rel;	/* direct relative branch: jcc, jmp, call, loop */
	s32 rel;	/* its displacement: target = ip + len + rel */
	u8 eflags;	/* enum itrace_x86_eflags_op */
};

/*
 * What an instruction does with EFLAGS as a whole, TF included: the
 * trap handler keeps the program's own TF apart from ours by them.
 * POP: popf, iret and uiret load it; PUSH: pushf stores it.
 */
enum itrace_x86_eflags_op {
	ITRACE_X86_EF_NONE,
	ITRACE_X86_EF_PUSH,
	ITRACE_X86_EF_POP,
};

/*
 * Decode the instruction at buf[0..avail). Returns 0 on success, -1 if the
 * bytes are not a valid instruction in that mode or avail is too short to
 * hold the whole instruction. Never reads beyond buf[avail-1].
 *
 * Classification notes (see insn_decode.c for the details):
 *  - ud0/ud1/ud2 are ITRACE_K_INT: they always trap.
 *  - uiret (F3 0F 01 EC) and FRED's erets/eretu (F2/F3 0F 01 CA) are
 *    ITRACE_K_IRET, like sysret/sysexit.
 *  - In 64-bit mode a 66 prefix (without REX.W) shrinks a near branch's
 *    displacement to 16 bits, as AMD CPUs and objdump decode it (Intel
 *    CPUs ignore the prefix there; compilers never emit it).
 */
int itrace_x86_decode(const u8 *buf, unsigned int avail,
		      enum itrace_x86_mode mode, struct itrace_x86_insn *out);

#endif /* _ITRACE_X86_INSN_DECODE_H */
