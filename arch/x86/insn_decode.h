/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arch/x86/insn_decode.h - the x86 instruction length decoder and
 * control-transfer classifier used by the trap handler to name each
 * single-stepped instruction. Builds in the kernel module and on the host.
 */
#ifndef _ITRACE_X86_INSN_DECODE_H
#define _ITRACE_X86_INSN_DECODE_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#include <stddef.h>
/* Host builds share these with other itrace headers: define them once. */
#ifndef ITRACE_HOST_KTYPES
#define ITRACE_HOST_KTYPES
typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
#endif
#endif

#define ITRACE_X86_MAX_INSN 15

enum itrace_x86_mode { ITRACE_X86_MODE64 = 0, ITRACE_X86_MODE32 = 1 };

struct itrace_x86_insn {
	u8 len;		/* total length 1..15 */
	u8 kind;	/* enum itrace_kind from kdb-itrace/kind.h: ITRACE_K_INSN for non-branches, ITRACE_K_JCC for any conditional branch (taken-ness is decided by the caller) */
	u8 rep;		/* 1 if an F2/F3 prefix applies to a string instruction (movs/cmps/stos/lods/scas/ins/outs) — the trap handler de-duplicates per-iteration traps of these */
	u8 has_rel;	/* 1 for direct relative branches (jcc, jmp rel, call rel, loop/jrcxz) */
	s32 rel;	/* their sign-extended displacement; target = ip + len + rel */
};

/*
 * Decode the instruction at buf[0..avail). Returns 0 on success, -1 if the
 * bytes are not a valid instruction in that mode or avail is too short to
 * hold the whole instruction. Never reads beyond buf[avail-1].
 *
 * Classification notes (see insn_decode.c for the details):
 *  - ud0/ud1/ud2 are ITRACE_K_INT: they always trap, never fall through.
 *  - uiret (F3 0F 01 EC) and FRED's erets/eretu (F2/F3 0F 01 CA) are
 *    ITRACE_K_IRET, like sysret/sysexit.
 *  - In 64-bit mode a 66 prefix (without REX.W) shrinks a near branch's
 *    displacement to 16 bits, as AMD CPUs and objdump decode it (Intel
 *    CPUs ignore the prefix there; compilers never emit it).
 */
int itrace_x86_decode(const u8 *buf, unsigned int avail,
		      enum itrace_x86_mode mode, struct itrace_x86_insn *out);

#endif /* _ITRACE_X86_INSN_DECODE_H */
