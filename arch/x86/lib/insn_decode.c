// SPDX-License-Identifier: GPL-2.0
/*
 * Table-driven x86 instruction length decoder and control-transfer
 * classifier. It runs in the single-step trap handler on
 * every traced instruction, so it does one table look-up per opcode, never
 * allocates, never calls out, and never reads past the bytes it was given.
 * Written from the Intel SDM / AMD APM opcode maps; the host test
 * tests/host/run_x86_objdump.sh holds it to objdump's decoding.
 */
#include "insn_decode.h"
#include "lib/kind.h"

/*
 * One u16 per opcode: bit 0 ModRM, bits 1-4 immediate type, then flags,
 * and the itrace kind in the top nibble so classification costs nothing.
 */
#define A_MODRM		0x0001
#define A_IMM_SHIFT	1
#define A_IMM_MASK	0x001e
#define A_REL		0x0020	/* immediate is a branch displacement */
#define A_INV64		0x0040	/* #UD in 64-bit mode */
#define A_BAD		0x0080	/* #UD in every mode */
#define A_SPECIAL	0x0100	/* opcode needs a look at its ModRM/prefixes */
#define A_STR		0x0200	/* string op: F2/F3 make it a rep loop */
#define A_REGONLY	0x0400	/* ModRM mod field ignored (mov cr/dr/tr) */
#define A_KIND_SHIFT	12

#define I_NONE		0
#define I_B		1	/* imm8 */
#define I_W		2	/* imm16 */
#define I_Z		3	/* 16 or 32 by operand size */
#define I_V		4	/* 16, 32 or 64 by operand size (mov r, imm) */
#define I_WB		5	/* enter: imm16 + imm8 */
#define I_AP		6	/* far pointer: offset16/32 + selector */
#define I_MOFFS		7	/* address-sized offset */
#define I_D		8	/* imm32 (XOP map 0A only, never in a table) */

#define IMM(t)		((t) << A_IMM_SHIFT)
#define KIND(k)		((k) << A_KIND_SHIFT)

/* Short names keep the 16-per-row tables readable. */
#define T_N	0
#define T_M	A_MODRM
#define T_MB	(A_MODRM | IMM(I_B))
#define T_MZ	(A_MODRM | IMM(I_Z))
#define T_MR	(A_MODRM | A_REGONLY)
#define T_B	IMM(I_B)
#define T_W	IMM(I_W)
#define T_Z	IMM(I_Z)
#define T_V	IMM(I_V)
#define T_O	IMM(I_MOFFS)
#define T_X	A_BAD
#define T_I	A_INV64
#define T_S	A_SPECIAL
#define T_STR	A_STR
#define T_J8	(IMM(I_B) | A_REL | KIND(ITRACE_K_JCC))
#define T_JZ	(IMM(I_Z) | A_REL | KIND(ITRACE_K_JCC))
#define T_INT	KIND(ITRACE_K_INT)

/* The one-byte map. Prefix bytes never reach it except 40-4F in 32-bit. */
static const u16 map0[256] = {
/* 00 */ T_M, T_M, T_M, T_M, T_B, T_Z, T_I, T_I, T_M, T_M, T_M, T_M, T_B, T_Z, T_I, T_S,
/* 10 */ T_M, T_M, T_M, T_M, T_B, T_Z, T_I, T_I, T_M, T_M, T_M, T_M, T_B, T_Z, T_I, T_I,
/* 20 */ T_M, T_M, T_M, T_M, T_B, T_Z, T_N, T_I, T_M, T_M, T_M, T_M, T_B, T_Z, T_N, T_I,
/* 30 */ T_M, T_M, T_M, T_M, T_B, T_Z, T_N, T_I, T_M, T_M, T_M, T_M, T_B, T_Z, T_N, T_I,
/* 40 */ T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N,
/* 50 */ T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N,
/* 60 */ T_I, T_I, T_S, T_M, T_N, T_N, T_N, T_N, T_Z, T_MZ, T_B, T_MB,
	 T_STR, T_STR, T_STR, T_STR,
/* 70 */ T_J8, T_J8, T_J8, T_J8, T_J8, T_J8, T_J8, T_J8,
	 T_J8, T_J8, T_J8, T_J8, T_J8, T_J8, T_J8, T_J8,
/* 80 */ T_MB, T_MZ, T_MB | T_I, T_MB, T_M, T_M, T_M, T_M,
	 T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_S,
/* 90 */ T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N,
	 T_N, T_N, IMM(I_AP) | T_I | KIND(ITRACE_K_FAR), T_N, T_N, T_N, T_N, T_N,
/* a0 */ T_O, T_O, T_O, T_O, T_STR, T_STR, T_STR, T_STR,
	 T_B, T_Z, T_STR, T_STR, T_STR, T_STR, T_STR, T_STR,
/* b0 */ T_B, T_B, T_B, T_B, T_B, T_B, T_B, T_B, T_V, T_V, T_V, T_V, T_V, T_V, T_V, T_V,
/* c0 */ T_MB, T_MB, T_W | KIND(ITRACE_K_RET), KIND(ITRACE_K_RET), T_S, T_S, T_S, T_S,
	 IMM(I_WB), T_N, T_W | KIND(ITRACE_K_FAR), KIND(ITRACE_K_FAR),
	 T_INT, T_S, T_I | T_INT, KIND(ITRACE_K_IRET),
/* d0 */ T_M, T_M, T_M, T_M, T_B | T_I, T_B | T_I, T_X, T_N,
	 T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* e0 */ T_J8, T_J8, T_J8, T_J8, T_B, T_B, T_B, T_B,
	 T_Z | A_REL | KIND(ITRACE_K_CALL), T_Z | A_REL | KIND(ITRACE_K_JMP),
	 IMM(I_AP) | T_I | KIND(ITRACE_K_FAR), T_B | A_REL | KIND(ITRACE_K_JMP),
	 T_N, T_N, T_N, T_N,
/* f0 */ T_N, T_INT, T_N, T_N, T_N, T_N, T_S, T_S, T_N, T_N, T_N, T_N, T_N, T_N, T_S, T_S,
};

/*
 * The 0F map. 38 and 3A are escapes handled before the look-up. syscall
 * and sysenter enter the kernel like int 0x80; sysret and sysexit leave it
 * like iret. ud0/ud1/ud2 are INT: they always raise #UD and never fall
 * through, so for the trace they are traps, like int3.
 */
static const u16 map1[256] = {
/* 00 */ T_M, T_S | T_M, T_M, T_M, T_X, KIND(ITRACE_K_SYSCALL), T_N, KIND(ITRACE_K_IRET),
	 T_N, T_N, T_X, T_INT, T_X, T_M, T_N, T_S,
/* 10 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 20 */ T_MR, T_MR, T_MR, T_MR, T_MR | T_I, T_X, T_MR | T_I, T_X,
	 T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 30 */ T_N, T_N, T_N, T_N, KIND(ITRACE_K_SYSCALL), KIND(ITRACE_K_IRET), T_X, T_N,
	 T_X, T_X, T_X, T_X, T_X, T_X, T_X, T_X,
/* 40 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 50 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 60 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 70 */ T_MB, T_MB, T_MB, T_MB, T_M, T_M, T_M, T_N, T_S | T_M, T_S | T_M, T_X, T_X,
	 T_M, T_M, T_M, T_M,
/* 80 */ T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ,
	 T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ, T_JZ,
/* 90 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* a0 */ T_N, T_N, T_N, T_M, T_MB, T_M, T_S | T_M, T_S | T_M,
	 T_N, T_N, T_N, T_M, T_MB, T_M, T_M, T_M,
/* b0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_S | T_M, T_M | T_INT, T_MB, T_M,
	 T_M, T_M, T_M, T_M,
/* c0 */ T_M, T_M, T_MB, T_M, T_MB, T_MB, T_MB, T_M, T_N, T_N, T_N, T_N, T_N, T_N, T_N, T_N,
/* d0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* e0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* f0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
	 T_M | T_INT,
};

/* FF by ModRM reg: inc, dec, call, callf, jmp, jmpf, push, and /7 (#UD) */
static const u16 ff_kind[8] = {
	T_M, T_M, T_M | KIND(ITRACE_K_ICALL), T_M | KIND(ITRACE_K_FAR),
	T_M | KIND(ITRACE_K_IJMP), T_M | KIND(ITRACE_K_FAR), T_M, 0,
};

/*
 * VEX/EVEX map 1 (0F): everything has a ModRM except vzeroupper/vzeroall,
 * and only the shuffles, shifts, compares and word inserts take an imm8.
 * Maps 2, 5 and 6 never take one and map 3 always does.
 */
static const u16 vex_map1[256] = {
/* 00 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 10 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 20 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 30 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 40 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 50 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 60 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 70 */ T_MB, T_MB, T_MB, T_MB, T_M, T_M, T_M, T_N,
	 T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 80 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* 90 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* a0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* b0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* c0 */ T_M, T_M, T_MB, T_M, T_MB, T_MB, T_MB, T_M,
	 T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* d0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* e0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
/* f0 */ T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M, T_M,
};

/*
 * Prefix classes. REX is its own class because it only counts when it is
 * the last byte before the opcode, and only in 64-bit mode.
 */
#define P_SEG	1
#define P_OSZ	2
#define P_ASZ	3
#define P_LOCK	4
#define P_REP	5	/* F2 or F3 */
#define P_REX	6

static const u8 pfx[256] = {
	[0x26] = P_SEG, [0x2e] = P_SEG, [0x36] = P_SEG, [0x3e] = P_SEG,
	[0x40] = P_REX, [0x41] = P_REX, [0x42] = P_REX, [0x43] = P_REX,
	[0x44] = P_REX, [0x45] = P_REX, [0x46] = P_REX, [0x47] = P_REX,
	[0x48] = P_REX, [0x49] = P_REX, [0x4a] = P_REX, [0x4b] = P_REX,
	[0x4c] = P_REX, [0x4d] = P_REX, [0x4e] = P_REX, [0x4f] = P_REX,
	[0x64] = P_SEG, [0x65] = P_SEG, [0x66] = P_OSZ, [0x67] = P_ASZ,
	[0xf0] = P_LOCK, [0xf2] = P_REP, [0xf3] = P_REP,
};

/*
 * 3DNow! puts its opcode after the operands; objdump (and AMD's CPUs) know
 * only these suffixes, so anything else is treated as undefined.
 */
static const u8 now3d_ok[32] = {
	[0x0c >> 3] = 0x30,			/* 0c 0d */
	[0x1c >> 3] = 0x30,			/* 1c 1d */
	[0x88 >> 3] = 0x44,			/* 8a 8e */
	[0x90 >> 3] = 0xd1,			/* 90 94 96 97 */
	[0x98 >> 3] = 0x44,			/* 9a 9e */
	[0xa0 >> 3] = 0xd1,			/* a0 a4 a6 a7 */
	[0xa8 >> 3] = 0x44,			/* aa ae */
	[0xb0 >> 3] = 0xd1,			/* b0 b4 b6 b7 */
	[0xb8 >> 3] = 0x88,			/* bb bf */
};

/*
 * Displacement bytes after a ModRM byte under 32/64-bit addressing, and
 * whether a SIB byte comes first (a SIB with no base adds a disp32).
 */
#define MR_SIB		0x10
#define MR_DISP		0x0f

static const u8 modrm32[256] = {
/* 00 */ 0, 0, 0, 0, MR_SIB, 4, 0, 0, 0, 0, 0, 0, MR_SIB, 4, 0, 0,
/* 10 */ 0, 0, 0, 0, MR_SIB, 4, 0, 0, 0, 0, 0, 0, MR_SIB, 4, 0, 0,
/* 20 */ 0, 0, 0, 0, MR_SIB, 4, 0, 0, 0, 0, 0, 0, MR_SIB, 4, 0, 0,
/* 30 */ 0, 0, 0, 0, MR_SIB, 4, 0, 0, 0, 0, 0, 0, MR_SIB, 4, 0, 0,
/* 40 */ 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1, 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1,
/* 50 */ 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1, 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1,
/* 60 */ 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1, 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1,
/* 70 */ 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1, 1, 1, 1, 1, MR_SIB | 1, 1, 1, 1,
/* 80 */ 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4, 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4,
/* 90 */ 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4, 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4,
/* a0 */ 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4, 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4,
/* b0 */ 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4, 4, 4, 4, 4, MR_SIB | 4, 4, 4, 4,
/* c0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* d0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* e0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* f0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/* 16-bit addressing (32-bit mode under 67): no SIB, disp16 for [bp]. */
static const u8 modrm16[256] = {
/* 00 */ 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0,
/* 10 */ 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0,
/* 20 */ 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0,
/* 30 */ 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2, 0,
/* 40 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
/* 50 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
/* 60 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
/* 70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
/* 80 */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* 90 */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* a0 */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* b0 */ 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
/* c0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* d0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* e0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
/* f0 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

/*
 * Immediate bytes by type and context, so that the hot path has no
 * branches on operand size. Context: bit 0 = 66, bit 1 = REX.W,
 * bit 2 = 67, bit 3 = 64-bit mode. REX.W beats 66.
 */
static const u8 imm_len[I_D + 1][16] = {
	[I_NONE]	= { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 },
	[I_B]		= { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 },
	[I_W]		= { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 },
	[I_Z]		= { 4, 2, 4, 4, 4, 2, 4, 4, 4, 2, 4, 4, 4, 2, 4, 4 },
	[I_V]		= { 4, 2, 8, 8, 4, 2, 8, 8, 4, 2, 8, 8, 4, 2, 8, 8 },
	[I_WB]		= { 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3 },
	[I_AP]		= { 6, 4, 6, 4, 6, 4, 6, 4, 6, 4, 6, 4, 6, 4, 6, 4 },
	[I_MOFFS]	= { 4, 4, 4, 4, 2, 2, 2, 2, 8, 8, 8, 8, 4, 4, 4, 4 },
	[I_D]		= { 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4 },
};

/* Skip ModRM, SIB and displacement starting at buf[p]; -1 if truncated. */
static inline int skip_modrm(const u8 *buf, unsigned int p, unsigned int lim,
			     unsigned int a16)
{
	unsigned int m, e;

	if (p >= lim)
		return -1;
	m = buf[p++];
	if (a16)
		return p + modrm16[m];
	e = modrm32[m];
	if (e & MR_SIB) {
		if (p >= lim)
			return -1;
		if (m < 0x40 && (buf[p] & 7) == 5)
			e += 4;
		p++;
	}
	return p + (e & MR_DISP);
}

int itrace_x86_decode(const u8 *buf, unsigned int avail,
		      enum itrace_x86_mode mode, struct itrace_x86_insn *out)
{
	unsigned int lim = avail < ITRACE_X86_MAX_INSN ? avail : ITRACE_X86_MAX_INSN;
	unsigned int m64 = mode == ITRACE_X86_MODE64;
	unsigned int p = 0, osz = 0, asz = 0, rex = 0, rep = 0, simd = 0;
	unsigned int op, a, m, reg, ilen, map, ef;
	int q;

	/*
	 * Legacy prefixes in any order and number. A REX counts only as the
	 * last byte before the opcode: any legacy prefix after it voids it.
	 * simd remembers the prefixes that make a following VEX, EVEX or
	 * XOP prefix #UD (they would clash with its implied 66/F2/F3/REX).
	 */
	for (;;) {
		if (p >= lim)
			return -1;
		op = buf[p];
		if (!pfx[op])
			break;
		switch (pfx[op]) {
		case P_REX:
			if (!m64)
				goto opcode;	/* inc/dec */
			rex = op;
			p++;
			continue;
		case P_OSZ:
			osz = 1;
			simd = 1;
			break;
		case P_ASZ:
			asz = 1;
			break;
		case P_REP:
			rep = op;	/* the last of F2/F3 is the one that counts */
			simd = 1;
			break;
		case P_LOCK:
			simd = 1;
			break;
		}
		rex = 0;
		p++;
	}

opcode:
	p++;
	ef = op == 0x9c ? ITRACE_X86_EF_PUSH :
	     op == 0x9d || op == 0xcf ? ITRACE_X86_EF_POP : ITRACE_X86_EF_NONE;
	a = map0[op];
	if (!(a & (A_SPECIAL | A_BAD | A_INV64)))
		goto operands;
	if ((a & A_BAD) || ((a & A_INV64) && m64))
		return -1;
	if (!(a & A_SPECIAL))
		goto operands;

	switch (op) {
	case 0x0f:
		if (p >= lim)
			return -1;
		op = buf[p++];
		if (op == 0x38) {
			p++;			/* 0F 38: all ModRM, no imm */
			a = A_MODRM;
			goto operands;
		}
		if (op == 0x3a) {
			p++;			/* 0F 3A: all ModRM + imm8 */
			a = A_MODRM | IMM(I_B);
			goto operands;
		}
		a = map1[op];
		if ((a & A_BAD) || ((a & A_INV64) && m64))
			return -1;
		if (!(a & A_SPECIAL))
			goto operands;
		if (p >= lim)
			return -1;
		m = buf[p];
		reg = (m >> 3) & 7;
		switch (op) {
		case 0x01:
			/* uiret, and FRED's eretu/erets, return like iret */
			if ((m == 0xec && rep == 0xf3) || (m == 0xca && rep))
				a |= KIND(ITRACE_K_IRET);
			if (m == 0xec && rep == 0xf3)
				ef = ITRACE_X86_EF_POP;
			break;
		case 0x0f:
			/* 3DNow!: ModRM, then the real opcode as an imm8 */
			q = skip_modrm(buf, p, lim, !m64 && asz);
			if (q < 0 || (unsigned int)q >= lim)
				return -1;
			if (!(now3d_ok[buf[q] >> 3] & (1 << (buf[q] & 7))))
				return -1;
			p = q;
			a = IMM(I_B);
			break;
		case 0x78:
			/* vmread; 66 makes it extrq and F2 insertq, imm8 imm8 */
			if (rep == 0xf3)
				return -1;
			if (rep == 0xf2 || osz)
				a = T_M | IMM(I_W);
			break;
		case 0x79:
			if (rep == 0xf3)
				return -1;
			break;
		case 0xa6:
			/* VIA/Zhaoxin PadLock: montmul, xsha1, xsha256 */
			if (m < 0xc0 || reg > 2)
				return -1;
			break;
		case 0xa7:
			/* PadLock: xstore, xcrypt-ecb/cbc/ctr/cfb/ofb */
			if (m < 0xc0 || reg > 5)
				return -1;
			break;
		case 0xb8:
			/* popcnt; without F3 it is IA-64's jmpe, #UD here */
			if (rep != 0xf3)
				return -1;
			break;
		}
		goto operands;
	case 0x62:
		/* EVEX; in 32-bit mode only where BOUND would have mod 11 */
		if (p >= lim)
			return -1;
		if (m64 || buf[p] >= 0xc0)
			goto evex;
		a = T_M;
		goto operands;
	case 0xc4:
	case 0xc5:
		/* VEX; in 32-bit mode only where LES/LDS would have mod 11 */
		if (p >= lim)
			return -1;
		if (m64 || buf[p] >= 0xc0)
			goto vex;
		a = T_M;
		goto operands;
	case 0xcd:
		/* int 0x80 is the 32-bit Linux system call gate */
		if (p >= lim)
			return -1;
		out->len = p + 1;
		out->kind = buf[p] == 0x80 ? ITRACE_K_SYSCALL : ITRACE_K_INT;
		out->rep = 0;
		out->has_rel = 0;
		out->rel = 0;
		out->eflags = ITRACE_X86_EF_NONE;
		return 0;
	}

	/* Groups whose operands or kind depend on the ModRM reg field. */
	if (p >= lim)
		return -1;
	m = buf[p];
	reg = (m >> 3) & 7;
	switch (op) {
	case 0x8f:
		/* POP Ev is only /0; other reg values select XOP maps */
		if (reg)
			goto xop;
		a = T_M;
		break;
	case 0xf6:
		a = reg < 2 ? T_MB : T_M;	/* only test takes an imm */
		break;
	case 0xf7:
		a = reg < 2 ? T_MZ : T_M;
		break;
	case 0xc6:
		/* mov Eb, ib; C6 F8 is xabort ib */
		if (reg && m != 0xf8)
			return -1;
		a = T_MB;
		break;
	case 0xc7:
		/* mov Ev, iz; C7 F8 is xbegin rel16/32 (not a branch) */
		if (reg && m != 0xf8)
			return -1;
		a = T_MZ;
		break;
	case 0xfe:
		if (reg > 1)
			return -1;
		a = T_M;
		break;
	case 0xff:
		a = ff_kind[reg];
		if (!a || (m >= 0xc0 && (reg == 3 || reg == 5)))
			return -1;	/* /7, or far call/jmp to a register */
		break;
	}
	goto operands;

vex:
	/* C4 RXBmmmmm WvvvvLpp opcode; C5 RvvvvLpp opcode (map 0F) */
	if (simd || rex)
		return -1;
	if (op == 0xc5) {
		map = 1;
		p++;
	} else {
		map = buf[p] & 0x1f;
		if (map < 1 || map > 3)
			return -1;
		p += 2;
	}
	goto vex_opcode;

evex:
	/* 62 P0 P1 P2 opcode: P0 = RXBR'0mmm, P1 = Wvvvv1pp */
	if (simd || rex || p + 2 >= lim)
		return -1;
	if ((buf[p] & 0x08) || !(buf[p + 1] & 0x04))
		return -1;
	map = buf[p] & 7;
	if (map == 0 || map == 4 || map == 7)	/* 5 and 6 are AVX512-FP16 */
		return -1;
	p += 3;

vex_opcode:
	if (p >= lim)
		return -1;
	op = buf[p++];
	a = A_MODRM;
	if (map == 3)
		a |= IMM(I_B);
	else if (map == 1)
		a = vex_map1[op];
	goto operands;

xop:
	/* 8F RXBmmmmm WvvvvLpp opcode: map 8 takes imm8, map 0A imm32 */
	if (simd || rex)
		return -1;
	map = m & 0x1f;
	if (map < 8 || map > 10)
		return -1;
	p += 3;
	a = A_MODRM | (map == 8 ? IMM(I_B) : map == 10 ? IMM(I_D) : 0);

operands:
	if (a & A_MODRM) {
		if (a & A_REGONLY) {
			p++;		/* mov cr/dr/tr: always a register */
		} else {
			q = skip_modrm(buf, p, lim, !m64 && asz);
			if (q < 0)
				return -1;
			p = q;
		}
	}
	ilen = 0;
	if (a & A_IMM_MASK)	/* most instructions have none: skip the look-up */
		ilen = imm_len[(a & A_IMM_MASK) >> A_IMM_SHIFT]
			      [osz | ((rex >> 2) & 2) | asz << 2 | m64 << 3];
	p += ilen;
	if (p > lim)
		return -1;

	out->len = p;
	out->kind = a >> A_KIND_SHIFT;
	out->rep = rep && (a & A_STR);
	out->has_rel = 0;
	out->rel = 0;
	out->eflags = ef;
	if (a & A_REL) {
		const u8 *d = buf + p - ilen;

		out->has_rel = 1;
		if (ilen == 1)
			out->rel = (s8)d[0];
		else if (ilen == 2)
			out->rel = (s16)(d[0] | d[1] << 8);
		else
			out->rel = (s32)((u32)d[0] | (u32)d[1] << 8 |
					 (u32)d[2] << 16 | (u32)d[3] << 24);
	}
	return 0;
}
