// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_x86_decode.c - host unit test of arch/x86/lib/insn_decode.c:
 * hand-written encodings with their expected length and itrace kind, every
 * truncation of each, and random buffers that must never break the
 * decoder's promises. Every decode reads from bytes that end right at an
 * unmapped page, so reading past avail crashes the test.
 *
 * Build and run (from the top of the tree):
 *   mkdir -p tests/host/build
 *   gcc -O2 -Wall -Wextra -o tests/host/build/test_x86_decode \
 *       tests/host/test_x86_decode.c arch/x86/lib/insn_decode.c
 *   tests/host/build/test_x86_decode
 * The last line of output is "x86-decode unit: N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "arch/x86/lib/insn_decode.h"
#include "lib/kind.h"

#define M64 ITRACE_X86_MODE64
#define M32 ITRACE_X86_MODE32

struct tcase {
	int mode;
	const char *hex;	/* the instruction, then any trailing bytes */
	int ret;		/* 0 or -1 */
	int len;
	int kind;
	int rep;
	int has_rel;
	int rel;
};

#define K(k)			ITRACE_K_##k
/* ok: decodes to len bytes of kind k, nothing else set */
#define OK(m, h, l, k)		{ m, h, 0, l, K(k), 0, 0, 0 }
/* a direct relative branch with displacement r */
#define REL(m, h, l, k, r)	{ m, h, 0, l, K(k), 0, 1, r }
/* a string instruction under F2/F3 */
#define REP(m, h, l)		{ m, h, 0, l, K(INSN), 1, 0, 0 }
/* invalid in that mode */
#define BAD(m, h)		{ m, h, -1, 0, 0, 0, 0, 0 }

static const struct tcase cases[] = {
	/* plain instructions and ModRM/SIB/displacement forms */
	OK(M64, "90", 1, INSN),
	OK(M64, "48 89 e5", 3, INSN),
	OK(M64, "8b c0", 2, INSN),
	OK(M64, "8b 00", 2, INSN),
	OK(M64, "8b 04 24", 3, INSN),
	OK(M64, "8b 05 00 00 00 00", 6, INSN),		/* RIP-relative */
	OK(M64, "8b 04 25 00 10 00 00", 7, INSN),	/* SIB, no base */
	OK(M64, "8b 0c 2d 00 00 00 00", 7, INSN),
	OK(M64, "8b 04 05 00 00 00 00", 7, INSN),
	OK(M64, "8b 44 24 08", 4, INSN),
	OK(M64, "8b 84 24 00 01 00 00", 7, INSN),
	OK(M64, "8b 45 00", 3, INSN),
	OK(M64, "8b 40 08", 3, INSN),
	OK(M64, "8b 80 00 01 00 00", 6, INSN),
	OK(M64, "41 8b 04 24", 4, INSN),
	OK(M64, "41 8b 45 00", 4, INSN),
	OK(M64, "67 8b 04 24", 4, INSN),		/* 67: still 32-bit SIB */
	OK(M64, "67 8b 05 00 00 00 00", 7, INSN),	/* EIP-relative */
	OK(M64, "8d 4c 8d 00", 4, INSN),
	OK(M64, "0f 1f 44 00 00", 5, INSN),
	OK(M64, "0f 1f 80 00 00 00 00", 7, INSN),
	OK(M64, "66 0f 1f 84 00 00 00 00 00", 9, INSN),
	OK(M64, "d8 c1", 2, INSN),
	OK(M64, "dd 5c 24 08", 4, INSN),
	OK(M64, "9b df e0", 1, INSN),			/* fwait runs alone */
	OK(M64, "63 c7", 2, INSN),			/* movsxd */

	/* legacy prefixes, in any order and number */
	OK(M64, "66 2e 0f 1f 84 00 00 00 00 00", 10, INSN),
	OK(M64, "66 66 2e 0f 1f 84 00 00 00 00 00", 11, INSN),
	OK(M64, "66 66 66 66 66 66 2e 0f 1f 84 00 00 00 00 00", 15, INSN),
	BAD(M64, "66 66 66 66 66 66 66 2e 0f 1f 84 00 00 00 00 00"),
	BAD(M64, "2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 90"),
	OK(M64, "2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 2e 90", 15, INSN),
	OK(M64, "f0 48 0f b1 11", 5, INSN),		/* lock cmpxchg */
	OK(M64, "64 48 8b 04 25 28 00 00 00", 9, INSN),
	OK(M64, "f0 66 67 2e 81 00 11 22", 8, INSN),
	OK(M64, "f3 0f 1e fa", 4, INSN),		/* endbr64 */
	OK(M64, "f3 90", 2, INSN),			/* pause */

	/* REX: only right before the opcode */
	OK(M64, "48 b8 11 22 33 44 55 66 77 88", 10, INSN),
	OK(M64, "49 bb 11 22 33 44 55 66 77 88", 10, INSN),
	OK(M64, "41 b8 11 22 33 44", 6, INSN),
	OK(M64, "66 b8 11 22", 4, INSN),
	OK(M64, "66 48 b8 11 22 33 44 55 66 77 88", 11, INSN),
	OK(M64, "48 66 b8 11 22", 5, INSN),		/* REX dropped */
	OK(M64, "41 2e b8 11 22 33 44", 7, INSN),
	OK(M64, "48 66 90", 3, INSN),
	OK(M64, "4f 4f 4f 90", 4, INSN),
	OK(M64, "48 81 c0 11 22 33 44", 7, INSN),	/* iz stays 32 */
	OK(M64, "48 c7 c0 11 22 33 44", 7, INSN),
	OK(M64, "48 69 c0 11 22 33 44", 7, INSN),
	OK(M64, "48 68 11 22 33 44", 6, INSN),

	/* 66 with immediates */
	OK(M64, "66 81 c0 11 22", 5, INSN),
	OK(M64, "66 83 c0 11", 4, INSN),
	OK(M64, "66 05 11 22", 4, INSN),
	OK(M64, "66 68 11 22", 4, INSN),
	OK(M64, "66 6a 11", 3, INSN),
	OK(M64, "66 c7 00 11 22", 5, INSN),
	OK(M64, "66 c7 40 08 11 22", 6, INSN),
	OK(M64, "66 69 c0 11 22", 5, INSN),
	OK(M64, "66 a9 11 22", 4, INSN),
	OK(M64, "66 f7 c0 11 22", 5, INSN),
	OK(M64, "66 c2 08 00", 4, RET),
	OK(M64, "c8 10 00 01", 4, INSN),		/* enter iw, ib */
	OK(M64, "66 c8 10 00 01", 5, INSN),

	/* F6/F7: only /0 and /1 (test) take an immediate */
	OK(M64, "f6 c0 01", 3, INSN),
	OK(M64, "f6 c8 01", 3, INSN),
	OK(M64, "f6 d0", 2, INSN),
	OK(M64, "f6 e1", 2, INSN),
	OK(M64, "f6 44 24 08 01", 5, INSN),
	OK(M64, "f7 c0 11 22 33 44", 6, INSN),
	OK(M64, "f7 40 08 11 22 33 44", 7, INSN),
	OK(M64, "f7 d8", 2, INSN),
	OK(M64, "48 f7 f1", 3, INSN),
	OK(M64, "f7 3c 24", 3, INSN),

	/* moffs: address-sized */
	OK(M64, "a0 11 22 33 44 55 66 77 88", 9, INSN),
	OK(M64, "48 a1 11 22 33 44 55 66 77 88", 10, INSN),
	OK(M64, "66 a3 11 22 33 44 55 66 77 88", 10, INSN),
	OK(M64, "67 a0 11 22 33 44", 6, INSN),
	OK(M64, "67 48 a3 11 22 33 44", 7, INSN),
	OK(M32, "a0 11 22 33 44", 5, INSN),
	OK(M32, "67 a1 11 22", 4, INSN),
	OK(M32, "66 a3 11 22 33 44", 6, INSN),

	/* conditional branches */
	REL(M64, "74 05", 2, JCC, 5),
	REL(M64, "7f fe", 2, JCC, -2),
	REL(M64, "0f 84 10 00 00 00", 6, JCC, 16),
	REL(M64, "0f 8f f0 ff ff ff", 6, JCC, -16),
	REL(M64, "2e 74 00", 3, JCC, 0),		/* branch hints */
	REL(M64, "3e 0f 85 00 01 00 00", 7, JCC, 256),
	REL(M64, "e0 00", 2, JCC, 0),			/* loopne */
	REL(M64, "e1 01", 2, JCC, 1),			/* loope */
	REL(M64, "e2 f0", 2, JCC, -16),			/* loop */
	REL(M64, "e3 fe", 2, JCC, -2),			/* jrcxz */
	REL(M64, "67 e3 10", 3, JCC, 16),		/* jecxz */
	REL(M64, "66 0f 84 11 22", 5, JCC, 0x2211),
	REL(M64, "66 48 0f 84 00 00 00 80", 8, JCC, (int)0x80000000),

	/* direct jumps and calls */
	REL(M64, "eb fe", 2, JMP, -2),
	REL(M64, "e9 00 01 00 00", 5, JMP, 256),
	REL(M64, "f2 e9 00 00 00 00", 6, JMP, 0),	/* bnd jmp */
	REL(M64, "e8 fb ff ff ff", 5, CALL, -5),
	REL(M64, "67 e8 10 00 00 00", 6, CALL, 16),	/* addr32 call */
	REL(M64, "f2 e8 00 00 00 00", 6, CALL, 0),
	REL(M64, "66 e8 11 f2", 4, CALL, (short)0xf211),
	REL(M64, "66 e9 00 80", 4, JMP, -32768),

	/* indirect */
	OK(M64, "ff d0", 2, ICALL),
	OK(M64, "41 ff d3", 3, ICALL),
	OK(M64, "ff 15 00 00 00 00", 6, ICALL),
	OK(M64, "ff 14 c5 00 00 00 00", 7, ICALL),
	OK(M64, "3e ff d0", 3, ICALL),			/* notrack call */
	OK(M64, "ff e0", 2, IJMP),
	OK(M64, "3e ff e0", 3, IJMP),
	OK(M64, "f2 ff e0", 3, IJMP),
	OK(M64, "ff 24 c5 00 00 00 00", 7, IJMP),
	OK(M64, "ff 64 24 08", 4, IJMP),
	OK(M64, "ff 25 00 00 00 00", 6, IJMP),
	OK(M64, "ff 30", 2, INSN),			/* push */
	OK(M64, "ff c0", 2, INSN),			/* inc */
	OK(M64, "fe c8", 2, INSN),

	/* far transfers */
	OK(M64, "ff 18", 2, FAR),
	OK(M64, "ff 28", 2, FAR),
	OK(M64, "48 ff 5c 24 08", 5, FAR),
	OK(M64, "cb", 1, FAR),
	OK(M64, "48 cb", 2, FAR),
	OK(M64, "ca 08 00", 3, FAR),
	OK(M32, "9a 11 22 33 44 55 66", 7, FAR),
	OK(M32, "66 9a 11 22 33 44", 6, FAR),
	OK(M32, "ea 11 22 33 44 55 66", 7, FAR),
	OK(M32, "ff 1d 00 00 00 00", 6, FAR),

	/* returns */
	OK(M64, "c3", 1, RET),
	OK(M64, "c2 08 00", 3, RET),
	OK(M64, "f3 c3", 2, RET),
	OK(M64, "f2 c3", 2, RET),

	/* interrupt returns */
	OK(M64, "cf", 1, IRET),
	OK(M64, "48 cf", 2, IRET),
	OK(M64, "66 cf", 2, IRET),
	OK(M64, "0f 07", 2, IRET),			/* sysret */
	OK(M64, "48 0f 07", 3, IRET),
	OK(M64, "0f 35", 2, IRET),			/* sysexit */
	OK(M64, "f3 0f 01 ec", 4, IRET),		/* uiret */
	OK(M64, "f3 0f 01 ca", 4, IRET),		/* eretu */
	OK(M64, "f2 0f 01 ca", 4, IRET),		/* erets */
	OK(M64, "0f 01 ca", 3, INSN),			/* clac */
	OK(M64, "0f 01 cb", 3, INSN),			/* stac */

	/* traps */
	OK(M64, "cc", 1, INT),
	OK(M64, "cd 03", 2, INT),
	OK(M64, "cd 81", 2, INT),
	OK(M64, "f1", 1, INT),				/* int1 */
	OK(M64, "0f 0b", 2, INT),			/* ud2 */
	OK(M64, "0f b9 c0", 3, INT),			/* ud1 */
	OK(M64, "0f b9 44 24 08", 5, INT),
	OK(M64, "0f ff 00", 3, INT),			/* ud0 */
	OK(M32, "ce", 1, INT),				/* into */

	/* system calls */
	OK(M64, "0f 05", 2, SYSCALL),
	OK(M64, "0f 34", 2, SYSCALL),
	OK(M64, "cd 80", 2, SYSCALL),
	OK(M32, "cd 80", 2, SYSCALL),
	OK(M32, "0f 34", 2, SYSCALL),

	/* string instructions: rep only with F2/F3 */
	REP(M64, "f3 a4", 2),
	REP(M64, "f3 48 a5", 3),
	REP(M64, "f2 ae", 2),
	REP(M64, "f3 ab", 2),
	REP(M64, "f3 48 ab", 3),
	REP(M64, "f3 aa", 2),
	REP(M64, "66 f3 a5", 3),
	REP(M64, "f3 6c", 2),
	REP(M64, "f3 6f", 2),
	REP(M64, "f3 ac", 2),
	REP(M64, "f3 a6", 2),
	REP(M64, "f3 67 a4", 3),
	REP(M32, "f3 a5", 2),
	OK(M64, "a4", 1, INSN),
	OK(M64, "48 ab", 2, INSN),
	OK(M64, "f3 0f b8 c0", 4, INSN),		/* popcnt */

	/* 0F 38 / 0F 3A */
	OK(M64, "66 0f 38 00 c1", 5, INSN),
	OK(M64, "66 0f 38 17 04 24", 6, INSN),
	OK(M64, "0f 38 f0 06", 4, INSN),		/* movbe */
	OK(M64, "f2 0f 38 f1 c1", 5, INSN),		/* crc32 */
	OK(M64, "66 0f 3a 0f c1 08", 6, INSN),		/* palignr */
	OK(M64, "66 0f 3a 63 0c 24 1a", 7, INSN),	/* pcmpistri */
	OK(M64, "66 48 0f 3a 16 c0 01", 7, INSN),
	OK(M64, "66 0f 3a 0f 05 00 00 00 00 08", 10, INSN),

	/* other 0F quirks */
	OK(M64, "0f 20 c0", 3, INSN),
	OK(M64, "0f 22 05", 3, INSN),			/* mod ignored */
	OK(M64, "0f 20 84", 3, INSN),
	OK(M64, "0f 78 c0", 3, INSN),			/* vmread */
	OK(M64, "0f 79 04 24", 4, INSN),		/* vmwrite */
	OK(M64, "66 0f 78 c0 01 02", 6, INSN),		/* extrq */
	OK(M64, "f2 0f 78 c1 02 03", 6, INSN),		/* insertq */
	OK(M64, "66 0f 79 c1", 4, INSN),
	OK(M64, "f2 0f 79 c1", 4, INSN),
	OK(M64, "0f ba e0 05", 4, INSN),		/* bt imm */
	OK(M64, "0f a4 c0 05", 4, INSN),		/* shld imm */
	OK(M64, "0f c2 c1 00", 4, INSN),
	OK(M64, "66 0f 71 d0 05", 5, INSN),
	OK(M64, "0f 01 d0", 3, INSN),			/* xgetbv */
	OK(M64, "0f 01 f8", 3, INSN),			/* swapgs */
	OK(M64, "0f 01 04 24", 4, INSN),		/* sgdt */
	OK(M64, "0f ae f0", 3, INSN),			/* mfence */
	OK(M64, "0f c7 0f", 3, INSN),			/* cmpxchg8b */
	OK(M64, "0f c8", 2, INSN),			/* bswap */
	OK(M64, "0f a2", 2, INSN),			/* cpuid */
	OK(M64, "0f 77", 2, INSN),			/* emms */
	OK(M64, "f3 0f a7 c8", 4, INSN),		/* rep xcrypt-ecb */
	OK(M64, "0f a7 c0", 3, INSN),			/* xstore */
	OK(M64, "0f a6 d0", 3, INSN),			/* xsha256 */
	OK(M64, "c6 f8 05", 3, INSN),			/* xabort */
	OK(M64, "c7 f8 11 22 33 44", 6, INSN),		/* xbegin */
	OK(M64, "66 c7 f8 11 22", 5, INSN),

	/* 3DNow!: the opcode is a trailing imm8 */
	OK(M64, "0f 0f c1 b4", 4, INSN),		/* pfmul */
	OK(M64, "0f 0f 40 08 9e", 5, INSN),		/* pfadd */
	OK(M64, "0f 0f 04 24 bf", 5, INSN),

	/* VEX */
	OK(M64, "c5 f8 77", 3, INSN),			/* vzeroupper */
	OK(M64, "c5 fc 77", 3, INSN),			/* vzeroall */
	OK(M64, "c4 e1 78 77", 4, INSN),
	OK(M64, "c5 fd 6f 06", 4, INSN),
	OK(M64, "c5 f9 70 c1 1b", 5, INSN),		/* vpshufd */
	OK(M64, "c5 f8 c2 c1 00", 5, INSN),		/* vcmpps */
	OK(M64, "c5 fd 74 0f", 4, INSN),
	OK(M64, "c5 fd d7 c1", 4, INSN),
	OK(M64, "c4 c1 7e 6f 44 24 20", 7, INSN),
	OK(M64, "c4 e2 7d 00 c1", 5, INSN),		/* vpshufb */
	OK(M64, "c4 e2 78 f2 c0", 5, INSN),		/* andn */
	OK(M64, "c4 e3 7d 19 c1 01", 6, INSN),
	OK(M64, "c4 e3 fb f0 c0 05", 6, INSN),		/* rorx */
	OK(M64, "c5 fe 6f 05 00 00 00 00", 8, INSN),

	/* EVEX */
	OK(M64, "62 f1 7c 48 10 00", 6, INSN),
	OK(M64, "62 f1 fe 48 6f 44 24 01", 8, INSN),	/* disp8*N */
	OK(M64, "62 f1 7c 48 28 05 00 00 00 00", 10, INSN),
	OK(M64, "62 f3 7d 48 3e c1 00", 7, INSN),	/* vpcmpub */
	OK(M64, "62 f1 7d 48 72 e0 05", 7, INSN),	/* vpsrad imm */
	OK(M64, "62 b2 7d 48 64 c1", 6, INSN),
	OK(M64, "62 f5 7c 48 58 c1", 6, INSN),		/* vaddph, map 5 */
	OK(M64, "62 f6 7d 48 98 c1", 6, INSN),		/* map 6 */
	OK(M64, "62 f2 7d 48 7a c0", 6, INSN),

	/* XOP */
	OK(M64, "8f e8 78 a2 c0 c0", 6, INSN),		/* vpcmov */
	OK(M64, "8f e9 78 80 c0", 5, INSN),		/* vfrczps */
	OK(M64, "8f ea 78 10 00 11 22 33 44", 9, INSN),	/* bextr imm32 */
	OK(M64, "8f c0", 2, INSN),			/* pop */
	OK(M64, "8f 44 24 08", 4, INSN),

	/* invalid in 64-bit mode */
	BAD(M64, "06"), BAD(M64, "07"), BAD(M64, "0e"), BAD(M64, "16"),
	BAD(M64, "17"), BAD(M64, "1e"), BAD(M64, "1f"), BAD(M64, "27"),
	BAD(M64, "2f"), BAD(M64, "37"), BAD(M64, "3f"), BAD(M64, "60"),
	BAD(M64, "61"), BAD(M64, "ce"), BAD(M64, "d6"),
	BAD(M64, "82 c0 01"),
	BAD(M64, "d4 0a"), BAD(M64, "d5 0a"),
	BAD(M64, "9a 11 22 33 44 55 66"),
	BAD(M64, "ea 11 22 33 44 55 66"),
	BAD(M64, "0f 24 00"), BAD(M64, "0f 26 00"),

	/* invalid anywhere */
	BAD(M64, "ff f8"), BAD(M64, "ff 38"),		/* ff /7 */
	BAD(M64, "ff d8"), BAD(M64, "ff e8"),		/* far with a register */
	BAD(M64, "fe d0"), BAD(M64, "fe 10"),
	BAD(M64, "c6 c8 00"), BAD(M64, "c7 c8 00 00 00 00"),
	BAD(M64, "c6 f9 00"),
	BAD(M64, "0f 04"), BAD(M64, "0f 0a"), BAD(M64, "0f 0c"),
	BAD(M64, "0f 36"), BAD(M64, "0f 39"), BAD(M64, "0f 7a 00"),
	BAD(M64, "0f 25 00"),
	BAD(M64, "0f b8 c0 00 00 00 00"),		/* jmpe */
	BAD(M64, "f3 0f 78 c0"), BAD(M64, "f3 0f 79 c0"),
	BAD(M64, "0f a6 00"), BAD(M64, "0f a6 d8"), BAD(M64, "0f a7 f0"),
	BAD(M64, "0f 0f c0 ff"),			/* no such 3DNow! op */
	BAD(M32, "d6"),

	/* VEX/EVEX/XOP: bad maps, bad fixed bits, prefixes before them */
	BAD(M64, "66 c5 f8 77"), BAD(M64, "f0 c5 f8 77"),
	BAD(M64, "f3 c5 f8 77"), BAD(M64, "48 c5 f8 77"),
	BAD(M64, "40 c4 e1 78 77"),
	BAD(M64, "66 62 f1 7c 48 10 00"),
	BAD(M64, "66 8f e8 78 a2 c0 c0"),
	BAD(M64, "c4 e0 78 77"), BAD(M64, "c4 e4 78 77"),
	BAD(M64, "62 f9 7c 48 10 c0"),			/* P0 bit 3 set */
	BAD(M64, "62 f1 78 48 10 c0"),			/* P1 bit 2 clear */
	BAD(M64, "62 f4 7c 48 10 c0"),			/* map 4 */
	BAD(M64, "62 f0 7c 48 10 c0"),
	BAD(M64, "8f eb 78 a2 c0 c0"),			/* XOP map 0B */
	BAD(M64, "8f e7 78 a2 c0 c0"),

	/* 32-bit mode basics */
	OK(M32, "40", 1, INSN),				/* inc, not REX */
	OK(M32, "48", 1, INSN),
	OK(M32, "4f 90", 1, INSN),
	OK(M32, "b8 11 22 33 44", 5, INSN),
	OK(M32, "66 b8 11 22", 4, INSN),
	OK(M32, "8b 05 00 00 00 00", 6, INSN),		/* absolute disp32 */
	OK(M32, "8b 04 24", 3, INSN),
	OK(M32, "ff 15 00 10 00 00", 6, ICALL),
	OK(M32, "ff d0", 2, ICALL),
	OK(M32, "ff 24 85 00 00 00 00", 7, IJMP),
	REL(M32, "e8 00 01 00 00", 5, CALL, 256),
	REL(M32, "66 e8 11 22", 4, CALL, 0x2211),
	REL(M32, "e9 fb ff ff ff", 5, JMP, -5),
	REL(M32, "66 0f 84 fe ff", 5, JCC, -2),
	REL(M32, "e3 02", 2, JCC, 2),			/* jecxz */
	REL(M32, "67 e3 02", 3, JCC, 2),		/* jcxz */
	OK(M32, "c3", 1, RET),
	OK(M32, "cf", 1, IRET),
	OK(M32, "06", 1, INSN),				/* push es */
	OK(M32, "1f", 1, INSN),
	OK(M32, "27", 1, INSN),
	OK(M32, "60", 1, INSN),
	OK(M32, "d4 0a", 2, INSN),			/* aam */
	OK(M32, "82 c0 01", 3, INSN),
	OK(M32, "63 c0", 2, INSN),			/* arpl */
	OK(M32, "0f 20 c0", 3, INSN),
	OK(M32, "0f 24 05", 3, INSN),			/* mov from tr */
	OK(M32, "c5 06", 2, INSN),			/* lds, not VEX */
	OK(M32, "c4 06", 2, INSN),			/* les */
	OK(M32, "c4 84 24 00 01 00 00", 7, INSN),
	OK(M32, "62 06", 2, INSN),			/* bound */
	OK(M32, "c5 f8 77", 3, INSN),			/* VEX */
	OK(M32, "c4 e2 7d 00 c1", 5, INSN),
	OK(M32, "62 f1 7c 48 10 00", 6, INSN),		/* EVEX */
	OK(M32, "8f e8 78 a2 c0 c0", 6, INSN),		/* XOP */
	OK(M32, "0f 05", 2, SYSCALL),
	OK(M32, "0f 07", 2, IRET),
	/* 16-bit addressing under 67 */
	OK(M32, "67 8b 06 01 02", 5, INSN),		/* [disp16] */
	OK(M32, "67 8b 47 01", 4, INSN),
	OK(M32, "67 8b 87 01 02", 5, INSN),
	OK(M32, "67 8b 00", 3, INSN),
	OK(M32, "67 8b 04", 3, INSN),			/* [si]: no SIB */
	OK(M32, "67 8b 44 01", 4, INSN),
	OK(M32, "67 8b 46 00", 4, INSN),		/* [bp+0] */
	OK(M32, "67 66 c7 06 11 22 33 44", 8, INSN),
	OK(M32, "67 ff 16 00 10", 5, ICALL),
	BAD(M32, "ff 1d"),
	BAD(M32, "c5"),
	BAD(M32, "62 c0 7c"),
};

/*
 * Every decode reads from a copy of its bytes that ends at the start of an
 * unmapped page: a read past avail faults instead of passing quietly.
 */
static unsigned char *guard_end;

static void guard_init(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	unsigned char *m = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED || mprotect(m + pg, pg, PROT_NONE)) {
		perror("mmap");
		exit(2);
	}
	guard_end = m + pg;
}

static int decode_guarded(const unsigned char *b, unsigned int n, int mode,
			  struct itrace_x86_insn *out)
{
	unsigned char *p = guard_end - n;

	memcpy(p, b, n);
	return itrace_x86_decode(p, n, mode, out);
}

static int parse_hex(const char *s, unsigned char *b, int max)
{
	int n = 0;
	unsigned int v;
	int used;

	while (*s) {
		if (*s == ' ') {
			s++;
			continue;
		}
		if (n == max || sscanf(s, "%2x%n", &v, &used) != 1 || used != 2)
			return -1;
		b[n++] = v;
		s += 2;
	}
	return n;
}

static int passed, failed;

static void check(int ok, const char *fmt, const char *hex, int mode,
		  unsigned int avail)
{
	if (ok) {
		passed++;
		return;
	}
	failed++;
	if (failed <= 50) {
		printf("FAIL: %s: [%s] mode %d avail %u\n", fmt, hex,
		       mode == M64 ? 64 : 32, avail);
	}
}

static void run_cases(void)
{
	unsigned int i, n, a;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct tcase *c = &cases[i];
		unsigned char b[32];
		struct itrace_x86_insn in;
		int r, len;

		len = parse_hex(c->hex, b, 32);
		if (len < 0) {
			check(0, "bad hex in test table", c->hex, c->mode, 0);
			continue;
		}
		n = len;
		memset(&in, 0xa5, sizeof(in));
		r = decode_guarded(b, n, c->mode, &in);
		if (c->ret) {
			check(r == -1, "decoded an invalid instruction",
			      c->hex, c->mode, n);
			if (r == 0)
				printf("      got len %u kind %u\n", in.len,
				       in.kind);
			continue;
		}
		check(r == 0, "rejected", c->hex, c->mode, n);
		if (r)
			continue;
		check(in.len == c->len, "length", c->hex, c->mode, n);
		check(in.kind == c->kind, "kind", c->hex, c->mode, n);
		check(in.rep == c->rep, "rep", c->hex, c->mode, n);
		check(in.has_rel == c->has_rel, "has_rel", c->hex, c->mode, n);
		check(in.rel == c->rel, "rel", c->hex, c->mode, n);
		if (in.len != c->len || in.kind != c->kind || in.rel != c->rel)
			printf("      got len %u kind %u rel %d\n", in.len,
			       in.kind, in.rel);

		/* Every shorter buffer must be refused, never over-read. */
		for (a = 0; a < (unsigned int)c->len; a++) {
			r = decode_guarded(b, a, c->mode, &in);
			check(r == -1, "accepted a truncated instruction",
			      c->hex, c->mode, a);
		}
	}
}

/*
 * What each instruction does with EFLAGS as a whole (the trap handler's
 * own TF bookkeeping): only pushf stores it, only popf, iret and uiret
 * load it; lookalikes (pushfq's neighbours, int3, 0F 01 forms) do neither.
 */
static const struct {
	int mode;
	const char *hex;
	unsigned int ef;
} ef_cases[] = {
	{ M64, "9c", ITRACE_X86_EF_PUSH },
	{ M64, "66 9c", ITRACE_X86_EF_PUSH },
	{ M32, "9c", ITRACE_X86_EF_PUSH },
	{ M64, "9d", ITRACE_X86_EF_POP },
	{ M64, "66 9d", ITRACE_X86_EF_POP },
	{ M64, "48 9d", ITRACE_X86_EF_POP },
	{ M32, "9d", ITRACE_X86_EF_POP },
	{ M64, "48 cf", ITRACE_X86_EF_POP },		/* iretq */
	{ M64, "cf", ITRACE_X86_EF_POP },
	{ M32, "cf", ITRACE_X86_EF_POP },
	{ M64, "f3 0f 01 ec", ITRACE_X86_EF_POP },	/* uiret */
	{ M64, "9b", ITRACE_X86_EF_NONE },		/* fwait */
	{ M64, "9e", ITRACE_X86_EF_NONE },		/* sahf */
	{ M64, "9f", ITRACE_X86_EF_NONE },		/* lahf */
	{ M64, "cc", ITRACE_X86_EF_NONE },
	{ M64, "cd 80", ITRACE_X86_EF_NONE },
	{ M32, "ce", ITRACE_X86_EF_NONE },		/* into */
	{ M64, "0f 01 ca", ITRACE_X86_EF_NONE },	/* clac */
	{ M64, "0f 05", ITRACE_X86_EF_NONE },
	{ M64, "ff 34 24", ITRACE_X86_EF_NONE },	/* push [rsp] */
	{ M64, "8f 04 24", ITRACE_X86_EF_NONE },	/* pop [rsp] */
	{ M64, "c5 f8 77", ITRACE_X86_EF_NONE },	/* vzeroupper */
};

static void run_ef_cases(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(ef_cases) / sizeof(ef_cases[0]); i++) {
		struct itrace_x86_insn in;
		unsigned char b[32];
		int n = parse_hex(ef_cases[i].hex, b, 32);

		memset(&in, 0xa5, sizeof(in));
		check(n > 0 && decode_guarded(b, n, ef_cases[i].mode, &in) == 0 &&
		      in.len == n && in.eflags == ef_cases[i].ef,
		      "eflags op", ef_cases[i].hex, ef_cases[i].mode, n);
	}
}

/* xorshift64*: fixed seed, same sequence on every host */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static unsigned int rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (unsigned int)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* Bytes that steer the decoder into its less travelled paths. */
static const unsigned char spicy[] = {
	0x26, 0x2e, 0x36, 0x3e, 0x64, 0x65, 0x66, 0x67, 0xf0, 0xf2, 0xf3,
	0x40, 0x48, 0x4f, 0x0f, 0x0f, 0x38, 0x3a, 0xc4, 0xc5, 0x62, 0x8f,
	0xf6, 0xf7, 0xfe, 0xff, 0xc6, 0xc7, 0xa0, 0xa3, 0xb8, 0xcd, 0x9b,
	0x04, 0x05, 0x44, 0x84, 0x24, 0x25, 0xc0, 0xf8, 0x78, 0x79, 0xe8,
};

/*
 * Random buffers: a success must have 1 <= len <= min(avail, 15), and the
 * answer must not depend on avail once avail covers the instruction.
 */
static void run_random(unsigned int count, int biased)
{
	unsigned int i, j, a;
	int mode;
	unsigned long long bad = 0;

	for (i = 0; i < count; i++) {
		unsigned char b[ITRACE_X86_MAX_INSN];

		for (j = 0; j < sizeof(b); j++) {
			unsigned int r = rng();

			if (biased && (r & 1))
				b[j] = spicy[(r >> 8) % sizeof(spicy)];
			else
				b[j] = r >> 8;
		}
		for (mode = M64; mode <= M32; mode++) {
			struct itrace_x86_insn full, in;
			int rf = decode_guarded(b, sizeof(b), mode, &full);

			if (rf == 0 && (full.len == 0 ||
					full.len > ITRACE_X86_MAX_INSN ||
					full.kind >= ITRACE_K_NR ||
					full.rep > 1 || full.has_rel > 1))
				bad++;
			for (a = 0; a < sizeof(b); a++) {
				int r = decode_guarded(b, a, mode, &in);

				if (r == 0 && (in.len == 0 || in.len > a))
					bad++;
				else if (rf == 0 && a >= full.len &&
					 (r != 0 || in.len != full.len ||
					  in.kind != full.kind ||
					  in.rel != full.rel))
					bad++;
				else if (rf != 0 && r == 0)
					bad++;	/* more bytes made it invalid */
			}
		}
	}
	check(bad == 0, biased ? "random (biased) invariants"
			       : "random invariants", "", M64, 0);
	if (bad)
		printf("      %llu violations\n", bad);
}

int main(void)
{
	guard_init();
	run_cases();
	run_ef_cases();
	run_random(1000000, 0);
	run_random(1000000, 1);
	printf("x86-decode unit: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
