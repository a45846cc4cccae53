// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit test of the POWER instruction classifier
 * (arch/powerpc/lib/insn_class.c): hand-encoded words with their expected
 * kind and fields, an exhaustive sweep of every primary opcode the
 * classifier looks into, checked against rules restated from the ISA,
 * and random words that must never break the classifier's promises.
 *
 * Build and run (from the top of the tree; SRC is this file):
 *   mkdir -p tests/host/build
 *   gcc -O2 -Wall -Wextra -Itests/host -o tests/host/build/test_ppc_class \
 *       SRC arch/powerpc/lib/insn_class.c
 *   tests/host/build/test_ppc_class
 * One PASS/FAIL line per check; the last line is
 * "ppc-class unit: N passed, M failed". Exit status 1 on any failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "arch/powerpc/lib/insn_class.h"
#include "lib/kind.h"

static int checks;

#define T(name, cond) do { checks++; CHECK(name, cond); } while (0)

/* Instruction formats (ISA Book I 1.6), for the hand-encoded words. */
#define OP(po)			((u32)(po) << 26)
#define I_FORM(li, aa, lk)	(OP(18) | ((u32)(li) & 0x03fffffc) |	\
				 (aa) << 1 | (lk))
#define B_FORM(bo, bi, bd, aa, lk) (OP(16) | (bo) << 21 | (bi) << 16 |	\
				 ((u32)(bd) & 0xfffc) | (aa) << 1 | (lk))
#define XL_FORM(bo, bi, bh, xo, lk) (OP(19) | (bo) << 21 | (bi) << 16 |	\
				 (bh) << 11 | (xo) << 1 | (lk))
#define X_FORM(po, rt, ra, rb, xo, rc) (OP(po) | (rt) << 21 | (ra) << 16 | \
				 (rb) << 11 | (xo) << 1 | (rc))
#define D_FORM(po, rt, ra, d)	(OP(po) | (rt) << 21 | (ra) << 16 |	\
				 ((u32)(d) & 0xffff))
#define SC_FORM(lev, b30, b31)	(OP(17) | (lev) << 5 | (b30) << 1 | (b31))
/* ISA 3.1 prefix word: type, subtype bit 8, R bit 11, 18-bit d0/imm0. */
#define PFX(type, st, r, d0)	(OP(1) | (type) << 24 | (st) << 23 |	\
				 (r) << 20 | ((u32)(d0) & 0x3ffff))

/* BO values (ISA Book I 2.4): bit 16 no CR test, 4 no CTR decrement. */
#define BO_DNZF		0	/* --CTR != 0 && CR bit false */
#define BO_DZF		2
#define BO_F		4	/* CR bit false */
#define BO_DNZT		8
#define BO_DZT		10
#define BO_T		12	/* CR bit true */
#define BO_DNZ		16	/* --CTR != 0 */
#define BO_DZ		18
#define BO_ALWAYS	20	/* 1z1zz */
#define CR_EQ		2	/* BI of cr0.eq */

/* Extended opcodes of the instructions the classifier names. */
#define XO_BCLR		16
#define XO_BCCTR	528
#define XO_BCTAR	560

struct tcase {
	const char *name;
	u32 w, next;
	int ret;
	struct itrace_ppc_insn want;
};

#define K(k)	ITRACE_K_##k
#define PLAIN(n, w) \
	{ n, w, 0, 0, { .kind = K(INSN), .len = 4 } }
/* a direct branch: kind, cond, link, AA, displacement */
#define DIRECT(n, w, k, c, l, a, d) \
	{ n, w, 0, 0, { .kind = K(k), .cond = c, .link = l, .direct = 1, \
			.abs = a, .len = 4, .disp = d } }
/* any other 4-byte instruction: kind, cond, link */
#define OTHER(n, w, k, c, l) \
	{ n, w, 0, 0, { .kind = K(k), .cond = c, .link = l, .len = 4 } }
#define LARX(n, w) \
	{ n, w, 0, 0, { .kind = K(INSN), .larx = 1, .len = 4 } }
#define STCX(n, w) \
	{ n, w, 0, 0, { .kind = K(INSN), .stcx = 1, .len = 4 } }
#define PREFIXED(n, w, nx) \
	{ n, w, nx, 0, { .kind = K(INSN), .len = 8 } }
#define BAD(n, w, nx) \
	{ n, w, nx, -1, { 0 } }

static const struct tcase cases[] = {
	/* I-form: b, ba, bl, bla; LI is 24 bits, times 4, sign-extended */
	DIRECT("b .+0x1000", I_FORM(0x1000, 0, 0), JMP, 0, 0, 0, 0x1000),
	DIRECT("b .-0x1000", I_FORM(-0x1000, 0, 0), JMP, 0, 0, 0, -0x1000),
	DIRECT("b . (0x48000000)", 0x48000000, JMP, 0, 0, 0, 0),
	DIRECT("b .+0x1fffffc (max)", I_FORM(0x1fffffc, 0, 0), JMP, 0, 0, 0,
	       0x1fffffc),
	DIRECT("b .-0x2000000 (min)", I_FORM(-0x2000000, 0, 0), JMP, 0, 0, 0,
	       -0x2000000),
	DIRECT("b .-4 (0x4bfffffc)", 0x4bfffffc, JMP, 0, 0, 0, -4),
	DIRECT("bl .+0x100", I_FORM(0x100, 0, 1), CALL, 0, 1, 0, 0x100),
	DIRECT("bl .-4 (0x4bfffffd)", 0x4bfffffd, CALL, 0, 1, 0, -4),
	DIRECT("ba 0x100", I_FORM(0x100, 1, 0), JMP, 0, 0, 1, 0x100),
	DIRECT("bla 0x1000", I_FORM(0x1000, 1, 1), CALL, 0, 1, 1, 0x1000),
	DIRECT("ba -0x2000000 (0x4a000002)", 0x4a000002, JMP, 0, 0, 1,
	       -0x2000000),
	DIRECT("bla 0x1fffffc", I_FORM(0x1fffffc, 1, 1), CALL, 0, 1, 1,
	       0x1fffffc),

	/* B-form, CR bit tests: conditional, JCC (CALL when linking) */
	DIRECT("beq .+8 (0x41820008)", 0x41820008, JCC, 1, 0, 0, 8),
	DIRECT("bne .-8 (0x4082fff8)", 0x4082fff8, JCC, 1, 0, 0, -8),
	DIRECT("beq cr7,.+0x7ffc (max)", B_FORM(BO_T, 30, 0x7ffc, 0, 0), JCC,
	       1, 0, 0, 0x7ffc),
	DIRECT("bne cr1,.-0x8000 (min)", B_FORM(BO_F, 6, -0x8000, 0, 0), JCC,
	       1, 0, 0, -0x8000),
	DIRECT("blt+ (BO 01111)", B_FORM(15, 0, 16, 0, 0), JCC, 1, 0, 0, 16),
	DIRECT("bgt- (BO 01110)", B_FORM(14, 1, 16, 0, 0), JCC, 1, 0, 0, 16),
	DIRECT("bge- (BO 00110)", B_FORM(6, 0, 16, 0, 0), JCC, 1, 0, 0, 16),
	DIRECT("bns+ (BO 00111)", B_FORM(7, 3, 16, 0, 0), JCC, 1, 0, 0, 16),
	DIRECT("bso .+12 (0x4183000c)", 0x4183000c, JCC, 1, 0, 0, 12),
	DIRECT("beql .+0x20", B_FORM(BO_T, CR_EQ, 0x20, 0, 1), CALL, 1, 1, 0,
	       0x20),
	DIRECT("beqa 0x100", B_FORM(BO_T, CR_EQ, 0x100, 1, 0), JCC, 1, 0, 1,
	       0x100),
	DIRECT("bnela 0x40 (0x40820043)", 0x40820043, CALL, 1, 1, 1, 0x40),
	DIRECT("bca 12,2,-0x8000", B_FORM(BO_T, CR_EQ, -0x8000, 1, 0), JCC, 1,
	       0, 1, -0x8000),

	/* B-form, CTR decrement (with and without CR test): conditional */
	DIRECT("bdnz .-32 (0x4200ffe0)", 0x4200ffe0, JCC, 1, 0, 0, -32),
	DIRECT("bdz .+32", B_FORM(BO_DZ, 0, 32, 0, 0), JCC, 1, 0, 0, 32),
	DIRECT("bdnz+ .-4 (BO 11001)", B_FORM(25, 0, -4, 0, 0), JCC, 1, 0, 0,
	       -4),
	DIRECT("bdz- .+4 (BO 11010)", B_FORM(26, 0, 4, 0, 0), JCC, 1, 0, 0, 4),
	DIRECT("bdnzt eq,.-8", B_FORM(BO_DNZT, CR_EQ, -8, 0, 0), JCC, 1, 0, 0,
	       -8),
	DIRECT("bdnzf gt,.-8", B_FORM(BO_DNZF, 1, -8, 0, 0), JCC, 1, 0, 0, -8),
	DIRECT("bdzt lt,.-8", B_FORM(BO_DZT, 0, -8, 0, 0), JCC, 1, 0, 0, -8),
	DIRECT("bdzf so,.-8", B_FORM(BO_DZF, 3, -8, 0, 0), JCC, 1, 0, 0, -8),
	DIRECT("bdnzl .+8", B_FORM(BO_DNZ, 0, 8, 0, 1), CALL, 1, 1, 0, 8),
	DIRECT("bdzla 0x40", B_FORM(BO_DZ, 0, 0x40, 1, 1), CALL, 1, 1, 1,
	       0x40),

	/* B-form, BO = 1z1zz: branch always, unconditional JMP/CALL */
	DIRECT("bc 20,0,.+0x40", B_FORM(BO_ALWAYS, 0, 0x40, 0, 0), JMP, 0, 0,
	       0, 0x40),
	DIRECT("bc 20,31,.-0x40", B_FORM(BO_ALWAYS, 31, -0x40, 0, 0), JMP, 0,
	       0, 0, -0x40),
	DIRECT("bc 21 (z bit set)", B_FORM(21, 0, 8, 0, 0), JMP, 0, 0, 0, 8),
	DIRECT("bc 31 (all z bits set)", B_FORM(31, 0, 8, 0, 0), JMP, 0, 0, 0,
	       8),
	DIRECT("bc 28", B_FORM(28, 0, 8, 0, 0), JMP, 0, 0, 0, 8),
	DIRECT("bcl 20,31,$+4 get-PC (0x429f0005)", 0x429f0005, CALL, 0, 1, 0,
	       4),
	DIRECT("bcl 12,2,.+0x20", B_FORM(BO_T, CR_EQ, 0x20, 0, 1), CALL, 1, 1,
	       0, 0x20),
	DIRECT("bca 20,0,0x7ffc", B_FORM(BO_ALWAYS, 0, 0x7ffc, 1, 0), JMP, 0,
	       0, 1, 0x7ffc),
	DIRECT("bcla 20,0,-0x8000", B_FORM(BO_ALWAYS, 0, -0x8000, 1, 1), CALL,
	       0, 1, 1, -0x8000),

	/* bclr: RET, or ICALL when linking */
	OTHER("blr (0x4e800020)", 0x4e800020, RET, 0, 0),
	OTHER("blrl (0x4e800021)", 0x4e800021, ICALL, 0, 1),
	OTHER("beqlr (0x4d820020)", 0x4d820020, RET, 1, 0),
	OTHER("bnelr+", XL_FORM(7, CR_EQ, 0, XO_BCLR, 0), RET, 1, 0),
	OTHER("bltlr cr7", XL_FORM(BO_T, 28, 0, XO_BCLR, 0), RET, 1, 0),
	OTHER("bdnzlr", XL_FORM(BO_DNZ, 0, 0, XO_BCLR, 0), RET, 1, 0),
	OTHER("bdzlrl", XL_FORM(BO_DZ, 0, 0, XO_BCLR, 1), ICALL, 1, 1),
	OTHER("beqlrl", XL_FORM(BO_T, CR_EQ, 0, XO_BCLR, 1), ICALL, 1, 1),
	OTHER("bclr 20,0,1 (BH=1)", XL_FORM(BO_ALWAYS, 0, 1, XO_BCLR, 0), RET,
	      0, 0),
	OTHER("bclrl 20,31,1", XL_FORM(BO_ALWAYS, 31, 1, XO_BCLR, 1), ICALL, 0,
	      1),
	OTHER("bclr 23 (z bits)", XL_FORM(23, 0, 0, XO_BCLR, 0), RET, 0, 0),

	/* bcctr: IJMP, or ICALL when linking */
	OTHER("bctr (0x4e800420)", 0x4e800420, IJMP, 0, 0),
	OTHER("bctrl (0x4e800421)", 0x4e800421, ICALL, 0, 1),
	OTHER("bnectr", XL_FORM(BO_F, CR_EQ, 0, XO_BCCTR, 0), IJMP, 1, 0),
	OTHER("beqctrl cr1", XL_FORM(BO_T, 6, 0, XO_BCCTR, 1), ICALL, 1, 1),
	OTHER("bcctr 16 (invalid form, decrements)",
	      XL_FORM(BO_DNZ, 0, 0, XO_BCCTR, 0), IJMP, 1, 0),

	/* bctar: IJMP, or ICALL when linking */
	OTHER("btar (0x4e800460)", 0x4e800460, IJMP, 0, 0),
	OTHER("btarl (0x4e800461)", 0x4e800461, ICALL, 0, 1),
	OTHER("beqtar", XL_FORM(BO_T, CR_EQ, 0, XO_BCTAR, 0), IJMP, 1, 0),
	OTHER("bdnztarl", XL_FORM(BO_DNZ, 0, 0, XO_BCTAR, 1), ICALL, 1, 1),

	/* sc, scv (which sets LR) */
	OTHER("sc (0x44000002)", 0x44000002, SYSCALL, 0, 0),
	OTHER("sc 1 (0x44000022)", 0x44000022, SYSCALL, 0, 0),
	OTHER("sc 127", SC_FORM(127, 1, 0), SYSCALL, 0, 0),
	OTHER("sc, reserved bit 31 set", SC_FORM(0, 1, 1), SYSCALL, 0, 0),
	OTHER("scv 0 (0x44000001)", 0x44000001, SYSCALL, 0, 1),
	OTHER("scv 127 (0x44000fe1)", 0x44000fe1, SYSCALL, 0, 1),

	/* interrupt returns */
	OTHER("rfid (0x4c000024)", 0x4c000024, IRET, 0, 0),
	OTHER("hrfid (0x4c000224)", 0x4c000224, IRET, 0, 0),
	OTHER("rfscv (0x4c0000a4)", 0x4c0000a4, IRET, 0, 0),
	OTHER("rfebb 0 (0x4c000124)", 0x4c000124, IRET, 0, 0),
	OTHER("rfebb 1 (0x4c000924)", 0x4c000924, IRET, 0, 0),
	OTHER("rfi (0x4c000064)", 0x4c000064, IRET, 0, 0),
	OTHER("urfid (0x4c000264)", 0x4c000264, IRET, 0, 0),
	OTHER("rfci", XL_FORM(0, 0, 0, 51, 0), IRET, 0, 0),
	OTHER("rfmci", XL_FORM(0, 0, 0, 38, 0), IRET, 0, 0),
	OTHER("rfdi", XL_FORM(0, 0, 0, 39, 0), IRET, 0, 0),
	OTHER("rfgi", XL_FORM(0, 0, 0, 102, 0), IRET, 0, 0),

	/* traps: INT, unconditional only with TO = 31 */
	OTHER("trap (0x7fe00008)", 0x7fe00008, INT, 0, 0),
	OTHER("tw 31,3,4 (twu)", X_FORM(31, 31, 3, 4, 4, 0), INT, 0, 0),
	OTHER("tweq 3,4", X_FORM(31, 4, 3, 4, 4, 0), INT, 1, 0),
	OTHER("twlt 3,4", X_FORM(31, 16, 3, 4, 4, 0), INT, 1, 0),
	OTHER("tw 0,3,4 (never traps)", X_FORM(31, 0, 3, 4, 4, 0), INT, 1, 0),
	OTHER("twi 31,3,5", D_FORM(3, 31, 3, 5), INT, 0, 0),
	OTHER("twnei 3,0 (0x0f030000)", 0x0f030000, INT, 1, 0),
	OTHER("td 31,3,4 (tdu)", X_FORM(31, 31, 3, 4, 68, 0), INT, 0, 0),
	OTHER("tdne 3,4", X_FORM(31, 24, 3, 4, 68, 0), INT, 1, 0),
	OTHER("tdlgt 3,4", X_FORM(31, 1, 3, 4, 68, 0), INT, 1, 0),
	OTHER("tdi 31,3,0", D_FORM(2, 31, 3, 0), INT, 0, 0),
	OTHER("tdeqi 3,0 (0x08830000)", 0x08830000, INT, 1, 0),
	OTHER("tdllti 3,16", D_FORM(2, 2, 3, 16), INT, 1, 0),

	/* reservations: every size, with and without the EH hint */
	LARX("lbarx 9,0,3 (0x7d201868)", 0x7d201868),
	LARX("lharx 9,0,3 (0x7d2018e8)", 0x7d2018e8),
	LARX("lwarx 9,0,3 (0x7d201828)", 0x7d201828),
	LARX("ldarx 9,0,3 (0x7d2018a8)", 0x7d2018a8),
	LARX("lqarx 8,0,3 (0x7d001a28)", 0x7d001a28),
	LARX("lwarx 9,0,3,1 (EH)", 0x7d201829),
	LARX("ldarx 9,4,3,1 (EH)", X_FORM(31, 9, 4, 3, 84, 1)),
	STCX("stbcx. 10,0,3 (0x7d401d6d)", 0x7d401d6d),
	STCX("sthcx. 10,0,3 (0x7d401dad)", 0x7d401dad),
	STCX("stwcx. 10,0,3 (0x7d40192d)", 0x7d40192d),
	STCX("stdcx. 10,0,3 (0x7d4019ad)", 0x7d4019ad),
	STCX("stqcx. 8,0,3 (0x7d00196d)", 0x7d00196d),
	/* Rc = 0: not a store conditional (XO 182 is Book E's wchkall) */
	PLAIN("stwcx without Rc", 0x7d40192c),
	PLAIN("XO 182 Rc=0 (wchkall)", X_FORM(31, 0, 0, 0, 182, 0)),

	/* plain instructions, some next to the ones above */
	PLAIN("nop (0x60000000)", 0x60000000),
	PLAIN("mflr 0 (0x7c0802a6)", 0x7c0802a6),
	PLAIN("mtlr 0 (0x7c0803a6)", 0x7c0803a6),
	PLAIN("mtctr 12 (0x7d8903a6)", 0x7d8903a6),
	PLAIN("li 3,0 (0x38600000)", 0x38600000),
	PLAIN("ld 2,24(1) (0xe8410018)", 0xe8410018),
	PLAIN("std 0,16(1) (0xf8010010)", 0xf8010010),
	PLAIN("add 3,4,5 (0x7c642a14)", 0x7c642a14),
	PLAIN("mr 31,1 (0x7c3f0b78)", 0x7c3f0b78),
	PLAIN("isync (0x4c00012c)", 0x4c00012c),
	PLAIN("lnia 3 (0x4c600004)", 0x4c600004),
	PLAIN("addpcis 3,0x1234 (0x4c7a1204)", 0x4c7a1204),
	PLAIN("mcrf 1,2 (0x4c880000)", 0x4c880000),
	PLAIN("crclr 6 (0x4cc63182)", 0x4cc63182),
	PLAIN("cmpwi 3,0 (0x2c030000)", 0x2c030000),
	PLAIN("lxvp 32,0(3) (opcode 6, ISA 3.1)", 0x18230000),
	PLAIN("slwi 3,4,2 (0x5483103a)", 0x5483103a),
	PLAIN("fadd 1,2,3 (0xfc22182a)", 0xfc22182a),
	PLAIN("vaddubm 1,2,3 (0x10221800)", 0x10221800),
	PLAIN("xxmr 32,33 (0xf0010c97)", 0xf0010c97),
	PLAIN("lq 8,0(3) (0xe1030000)", 0xe1030000),
	PLAIN("stq 8,0(3) (0xf9030002)", 0xf9030002),
	PLAIN("iseleq 3,4,5 (0x7c64289e)", 0x7c64289e),
	PLAIN("hwsync (0x7c0004ac)", 0x7c0004ac),
	PLAIN("lwsync (0x7c2004ac)", 0x7c2004ac),
	PLAIN("dcbtct 0,3 (0x7c001a2c)", 0x7c001a2c),
	PLAIN("dcbz 0,3 (0x7c001fec)", 0x7c001fec),
	PLAIN("sradi 3,4,63 (0x7c83fe76)", 0x7c83fe76),
	PLAIN("mfxer 3 (0x7c6102a6)", 0x7c6102a6),
	PLAIN("ldbrx (XO 532, ends in 20 mod 32)", X_FORM(31, 3, 0, 4, 532, 0)),
	PLAIN("lwbrx (XO 534, ends in 22 mod 32)", X_FORM(31, 3, 0, 4, 534, 0)),
	PLAIN("mcrxrx (XO 576, not named here)",
	      X_FORM(31, 0, 0, 0, 576, 0)),

	/* ISA 3.1 prefixed instructions: one 8-byte INSN */
	PREFIXED("pld 3,8(4)", 0x04000000, 0xe4640008),
	PREFIXED("pstd 3,-8(4)", 0x0403ffff, 0xf464fff8),
	PREFIXED("pli 3,0x12345", 0x06000001, 0x38602345),
	PREFIXED("paddi 3,4,-1", 0x0603ffff, 0x3864ffff),
	PREFIXED("pla 3,0x40 (R=1)", 0x06100000, 0x38600040),
	PREFIXED("plwz 3,0(4)", 0x06000000, 0x80640000),
	PREFIXED("pstxv 34,16(5)", 0x04000000, 0xdc450010),
	PREFIXED("plxvp 34,32(5)", 0x04000000, 0xe8650020),
	PREFIXED("pstxvp 34,32(5)", 0x04000000, 0xf8650020),
	PREFIXED("plq 8,0(3)", 0x04000000, 0xe1030000),
	PREFIXED("plwa 3,0(4)", PFX(0, 0, 0, 0), D_FORM(41, 3, 4, 0)),
	PREFIXED("pstfd 1,0(4)", PFX(2, 0, 0, 0), D_FORM(54, 1, 4, 0)),
	PREFIXED("xxspltiw 3,5", 0x05000000, 0x80660005),
	PREFIXED("xxsplti32dx 1,0,5", 0x05000000, 0x80200005),
	PREFIXED("xxpermx 1,2,3,4,5", 0x05000005, 0x88221900),
	PREFIXED("xxblendvd 1,2,3,4", 0x05000000, 0x84221930),
	PREFIXED("xxeval 1,2,3,4,5", 0x05000005, 0x88221910),
	PREFIXED("pmxvi4ger8 (MMA)", 0x07900534, 0xec00091e),
	PREFIXED("pnop (0x07000000 0)", 0x07000000, 0x00000000),

	/* invalid words */
	BAD("all zeros", 0x00000000, 0),
	BAD("attn (0x00000200, Book IV)", 0x00000200, 0),
	BAD("opcode 5", OP(5), 0),
	BAD("opcode 9 (POWER dozi)", OP(9) | 0x1234, 0),
	BAD("opcode 22 (POWER rlmi)", OP(22), 0),
	BAD("opcode 17, bits 30-31 clear (POWER svc)", SC_FORM(0, 0, 0), 0),
	BAD("prefix, next unknown (0)", 0x04000000, 0),
	BAD("prefix + branch", 0x04000000, I_FORM(8, 0, 0)),
	BAD("prefix + bc", 0x06000000, B_FORM(BO_T, 2, 8, 0, 0)),
	BAD("prefix + sc", 0x06000000, 0x44000002),
	BAD("8LS prefix + li", PFX(0, 0, 0, 0), D_FORM(14, 3, 0, 0)),
	BAD("8LS prefix + lwz (MLS-only suffix)", PFX(0, 0, 0, 0),
	    D_FORM(32, 3, 4, 0)),
	BAD("MLS prefix + ld (8LS-only suffix)", PFX(2, 0, 0, 0),
	    D_FORM(58, 3, 4, 0)),
	BAD("MLS prefix + lwzu (update form)", PFX(2, 0, 0, 0),
	    D_FORM(33, 3, 4, 0)),
	BAD("8LS prefix with ST=1 + pld suffix", PFX(0, 1, 0, 0), 0xe4640008),
	BAD("MLS prefix with ST=1 + addi", PFX(2, 1, 0, 0), 0x38600000),
	BAD("8RR prefix + addi", PFX(1, 0, 0, 0), 0x38600000),
	BAD("MMIRR prefix, bits 8-11 = 1", 0x07100000, 0x00000000),
	BAD("MMA prefix + non-59 suffix", 0x07900534, 0xfc00091e),
	BAD("pnop prefix + li", 0x07000000, 0x38600000),
	BAD("pnop prefix + b", 0x07000000, 0x48000000),
};

static void show(const char *what, const struct itrace_ppc_insn *p)
{
	printf("      %s: kind %u cond %u link %u direct %u abs %u",
	       what, p->kind, p->cond, p->link, p->direct, p->abs);
	printf(" larx %u stcx %u len %u disp %d\n",
	       p->larx, p->stcx, p->len, p->disp);
}

static int same(const struct itrace_ppc_insn *a,
		const struct itrace_ppc_insn *b)
{
	return a->kind == b->kind && a->cond == b->cond &&
	       a->link == b->link && a->direct == b->direct &&
	       a->abs == b->abs && a->larx == b->larx &&
	       a->stcx == b->stcx && a->len == b->len && a->disp == b->disp;
}

static void run_cases(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct tcase *c = &cases[i];
		struct itrace_ppc_insn got;
		char name[160];
		int r;

		memset(&got, 0xa5, sizeof(got));
		r = itrace_ppc_classify(c->w, c->next, &got);
		snprintf(name, sizeof(name), "ppc-class %s [%08x%s%.0x]",
			 c->name, c->w, c->next ? " " : "", c->next);
		if (c->ret) {
			T(name, r == -1);
			if (r != -1)
				show("got", &got);
			continue;
		}
		T(name, r == 0 && same(&got, &c->want));
		if (r != 0) {
			printf("      rejected\n");
		} else if (!same(&got, &c->want)) {
			show("got ", &got);
			show("want", &c->want);
		}
	}
}

/*
 * The expected result for any word, restated from the ISA with named BO
 * bits rather than the classifier's mask tests. Returns -1 for words
 * the classifier must reject, 1 for ones this model does not predict
 * (the prefixes, checked by table above and by check_prefix_matrix).
 */
static int model(u32 w, struct itrace_ppc_insn *m)
{
	unsigned int po = w >> 26, xo = (w >> 1) & 0x3ff, bo = (w >> 21) & 31;
	unsigned int lk = w & 1, aa = (w >> 1) & 1;
	/* BO bit 0 (16): skip the CR test; BO bit 2 (4): leave CTR alone */
	int tests_cr = !(bo & 16), decrements = !(bo & 4);
	int cond = tests_cr || decrements;
	s64 li;

	memset(m, 0, sizeof(*m));
	m->kind = ITRACE_K_INSN;
	m->len = 4;
	switch (po) {
	case 0: case 5: case 9: case 22:
		return -1;
	case 1:
		return 1;
	case 2: case 3:
		m->kind = ITRACE_K_INT;
		m->cond = bo != 31;
		return 0;
	case 16:
		m->direct = 1;
		m->abs = aa;
		m->link = lk;
		m->cond = cond;
		m->disp = (s16)(w & 0xfffc);
		m->kind = lk ? ITRACE_K_CALL :
			  cond ? ITRACE_K_JCC : ITRACE_K_JMP;
		return 0;
	case 17:
		if ((w & 3) == 0)
			return -1;
		m->kind = ITRACE_K_SYSCALL;
		m->link = (w & 3) == 1;
		return 0;
	case 18:
		li = w & 0x03fffffc;
		if (li & 0x02000000)
			li -= 0x04000000;
		m->direct = 1;
		m->abs = aa;
		m->link = lk;
		m->disp = (s32)li;
		m->kind = lk ? ITRACE_K_CALL : ITRACE_K_JMP;
		return 0;
	case 19:
		if (xo == 16 || xo == 528 || xo == 560) {
			m->link = lk;
			m->cond = cond;
			m->kind = lk ? ITRACE_K_ICALL :
				  xo == 16 ? ITRACE_K_RET : ITRACE_K_IJMP;
		} else if (xo == 18 || xo == 274 || xo == 82 || xo == 146 ||
			   xo == 306 || xo == 50 || xo == 51 || xo == 38 ||
			   xo == 39 || xo == 102) {
			m->kind = ITRACE_K_IRET;
		}
		return 0;
	case 31:
		if (xo == 4 || xo == 68) {
			m->kind = ITRACE_K_INT;
			m->cond = bo != 31;
		}
		m->larx = xo == 52 || xo == 116 || xo == 20 || xo == 84 ||
			  xo == 276;
		m->stcx = lk && (xo == 694 || xo == 726 || xo == 150 ||
				 xo == 214 || xo == 182);
		return 0;
	}
	return 0;
}

/*
 * Every word of the primary opcodes the classifier looks into (2^26 each)
 * against the model, with a fixed odd next word.
 */
static void sweep_opcode(unsigned int po)
{
	unsigned long long bad = 0;
	u32 low, first = 0;
	char name[80];

	for (low = 0; low < (1u << 26); low++) {
		u32 w = OP(po) | low;
		struct itrace_ppc_insn got, want;
		int e = model(w, &want);
		int r = itrace_ppc_classify(w, 0x38600000, &got);

		if (e == -1 ? r != -1 : (r != 0 || !same(&got, &want))) {
			if (!bad++)
				first = w;
		}
	}
	snprintf(name, sizeof(name),
		 "ppc-class every word of primary opcode %u matches the ISA model",
		 po);
	T(name, bad == 0);
	if (bad)
		printf("      %llu words differ, first %08x\n", bad, first);
}

/*
 * Every prefix type/subtype against every suffix primary opcode, with
 * the suffix sets restated from ISA 3.1 (Book I 1.6.3 and the
 * instruction descriptions).
 */
static void check_prefix_matrix(void)
{
	static const unsigned char ls8[] = {
		41, 42, 43, 46, 47, 50, 51, 54, 55, 56, 57, 58, 60, 61, 62
	};
	static const unsigned char rr8[] = { 32, 33, 34 };
	static const unsigned char mls[] = {
		14, 32, 34, 36, 38, 40, 42, 44, 48, 50, 52, 54
	};
	unsigned int type, st, sop, i, bad = 0;

	for (type = 0; type < 4; type++) {
		for (st = 0; st < 16; st++) {
			u32 p = OP(1) | type << 24 | st << 20 | 0x1234;

			for (sop = 0; sop < 64; sop++) {
				struct itrace_ppc_insn got;
				int ok = 0, r;

				if (type == 0 && st < 8) {
					for (i = 0; i < sizeof(ls8); i++)
						ok |= sop == ls8[i];
				} else if (type == 1 && st < 8) {
					for (i = 0; i < sizeof(rr8); i++)
						ok |= sop == rr8[i];
				} else if (type == 2 && st < 8) {
					for (i = 0; i < sizeof(mls); i++)
						ok |= sop == mls[i];
				} else if (type == 3) {
					/* pnop, MMA */
					ok = (st == 0 && sop <= 1) ||
					     (st == 9 && sop == 59);
				}
				r = itrace_ppc_classify(p, OP(sop) | 0x123456,
							&got);
				if (ok ? (r != 0 || got.len != 8 ||
					  got.kind != ITRACE_K_INSN ||
					  got.direct || got.cond)
				       : r != -1) {
					if (bad++ < 5)
						printf("      prefix %08x suffix opcode %u: %d\n",
						       p, sop, r);
				}
			}
		}
	}
	T("ppc-class prefix type x subtype x suffix opcode matrix", bad == 0);
}

/* xorshift64*: fixed seed, same sequence on every host */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ULL;

static u32 rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (u32)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/*
 * Random words and next words: every success is well formed, and only a
 * prefix's result may depend on the next word.
 */
static void run_random(unsigned int count)
{
	unsigned long long bad = 0, ok = 0;
	unsigned int i;

	for (i = 0; i < count; i++) {
		u32 w = rng(), n1 = rng(), n2 = rng();
		struct itrace_ppc_insn a, b;
		int ra, rb;

		/* make a quarter of them prefixes */
		if (!(i & 3))
			w = (w & 0x03ffffff) | OP(1);
		ra = itrace_ppc_classify(w, n1, &a);
		rb = itrace_ppc_classify(w, n2, &b);
		if (w >> 26 != 1 && (ra != rb || (ra == 0 && !same(&a, &b))))
			bad++;
		if (ra != 0)
			continue;
		ok++;
		if (a.kind >= ITRACE_K_NR || a.kind == ITRACE_K_JCC_NT ||
		    a.kind == ITRACE_K_FAR || a.kind == ITRACE_K_ASYNC ||
		    a.cond > 1 || a.link > 1 || a.direct > 1 || a.abs > 1 ||
		    a.larx > 1 || a.stcx > 1 ||
		    a.len != (w >> 26 == 1 ? 8 : 4) ||
		    (a.direct && a.disp & 3) ||
		    (!a.direct && (a.disp || a.abs)) ||
		    (a.abs && !a.direct) ||
		    ((a.larx || a.stcx) && w >> 26 != 31) ||
		    (a.larx && a.stcx))
			bad++;
	}
	T("ppc-class random words: results well formed, next used by prefixes only",
	  bad == 0 && ok > count / 2);
	if (bad)
		printf("      %llu violations\n", bad);
}

int main(void)
{
	static const unsigned int swept[] = { 0, 1, 2, 3, 5, 9, 16, 17, 18,
					      19, 22, 31 };
	unsigned int i;

	run_cases();
	for (i = 0; i < ARRAY_SIZE(swept); i++)
		if (swept[i] != 1)
			sweep_opcode(swept[i]);
	check_prefix_matrix();
	run_random(4000000);
	printf("ppc-class unit: %d passed, %d failed\n",
	       checks - check_failed, check_failed);
	return check_failed ? 1 : 0;
}
