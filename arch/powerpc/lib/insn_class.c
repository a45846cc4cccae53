// SPDX-License-Identifier: GPL-2.0
/*
 * Control-transfer classifier for POWER instruction words (Power ISA 3.0
 * Book I/III, plus the ISA 3.1 prefixed forms). It runs in the
 * single-step trap handler on every traced instruction, so it is one
 * switch on the primary opcode and at most one more on the extended
 * opcode, with no tables, no allocation and no calls. Only the
 * instructions that change the flow of control, enter or leave the
 * kernel, or take part in a reservation are told apart; everything else
 * is ITRACE_K_INSN. Written from the Power ISA; the host test
 * tests/host/run_ppc_objdump.sh holds it to objdump's decoding.
 *
 * Bit numbers in the comments are the ISA's (0 is the most significant
 * bit of the word); the shifts below count from the other end.
 */
#include "insn_class.h"
#include "lib/kind.h"

#define PO(w)		((w) >> 26)		/* primary opcode, bits 0:5 */
#define XO10(w)		(((w) >> 1) & 0x3ff)	/* X/XL-form opcode, 21:30 */
#define BO(w)		(((w) >> 21) & 0x1f)	/* bits 6:10: BO, or trap TO */
#define LK(w)		((w) & 1)		/* bit 31 */
#define AA(w)		(((w) >> 1) & 1)	/* bit 30 */

/*
 * BO = 1z1zz: neither the CTR test (BO bit 2 set: CTR left alone) nor
 * the CR test (BO bit 0 set: CR ignored) can stop the branch. Every other
 * BO value, including all the decrement-CTR forms, may go on in sequence.
 */
#define BO_ALWAYS(w)	((BO(w) & 0x14) == 0x14)

/* TO = 31 traps on every comparison result: the trap is unconditional. */
#define TO_ALWAYS	31

/*
 * Prefix word (ISA 3.1 section 1.6.3): type in bits 6:7, and bit 8 the
 * subtype, which is 0 in every defined prefix except the MMA one.
 */
#define PFX_TYPE(w)	(((w) >> 24) & 3)
#define PFX_ST		0x00800000u
#define PFX_8_11(w)	(((w) >> 20) & 0xf)
#define PFX_MMA		9	/* bits 8:11 of an MMA (pmxv*ger*) prefix */

#define OPC(n)		(1ull << (n))
/*
 * Suffix primary opcodes allowed after each prefix type. 8LS: plwa,
 * plxsd, plxssp, pstxsd, pstxssp, plxv, pstxv (the opcode's low bit is
 * TX), plq, pld, plxvp, pstq, pstd, pstxvp.
 */
#define SUF_8LS	(OPC(41) | OPC(42) | OPC(43) | OPC(46) | OPC(47) |	\
		 OPC(50) | OPC(51) | OPC(54) | OPC(55) | OPC(56) |	\
		 OPC(57) | OPC(58) | OPC(60) | OPC(61) | OPC(62))
/* 8RR: xxsplti32dx/xxspltiw/xxspltidp, xxblendv*, xxpermx/xxeval. */
#define SUF_8RR	(OPC(32) | OPC(33) | OPC(34))
/*
 * MLS: paddi (pli, pla) and the non-update D-form loads and stores
 * plwz, plbz, pstw, pstb, plhz, plha, psth, plfs, plfd, pstfs, pstfd.
 */
#define SUF_MLS	(OPC(14) | OPC(32) | OPC(34) | OPC(36) | OPC(38) |	\
		 OPC(40) | OPC(42) | OPC(44) | OPC(48) | OPC(50) |	\
		 OPC(52) | OPC(54))

/*
 * The primary opcodes that need a closer look: branches, sc, traps, the
 * prefix, opcode 31 (traps and reservations) and the unused ones. All
 * other opcodes hold only plain instructions, most of what runs.
 */
#define PO_SPECIAL	(OPC(0) | OPC(1) | OPC(2) | OPC(3) | OPC(5) |	\
			 OPC(9) | OPC(16) | OPC(17) | OPC(18) | OPC(19) |	\
			 OPC(22) | OPC(31))
/*
 * Opcode 31: the XO values named below all end in 4, 20 or 22 (mod 32),
 * which few of the common opcode-31 instructions (or, add, cmp, mfspr,
 * the indexed loads and stores) do; the switch only sees those.
 */
#define XO31_SPECIAL(w)	((0x00500010u >> (XO10(w) & 31)) & 1)

/*
 * Is @w followed by @next one valid prefixed instruction? The suffix
 * decides: a prefix in front of anything else (a branch above all) is an
 * illegal instruction, and the CPU never runs the two words as one.
 */
static bool prefix_ok(u32 w, u32 next)
{
	unsigned int sop = PO(next);

	switch (PFX_TYPE(w)) {
	case 0:
		return !(w & PFX_ST) && ((SUF_8LS >> sop) & 1);
	case 1:
		return !(w & PFX_ST) && ((SUF_8RR >> sop) & 1);
	case 2:
		return !(w & PFX_ST) && ((SUF_MLS >> sop) & 1);
	default:
		/*
		 * MMIRR: the MMA outer products (suffix opcode 59), and pnop,
		 * whose suffix the ISA gives as zeros; objdump accepts any
		 * suffix with bits 0:4 clear there, so opcode 1 passes too.
		 */
		if (PFX_8_11(w) == PFX_MMA)
			return sop == 59;
		return PFX_8_11(w) == 0 && sop <= 1;
	}
}

/*
 * bclr, bcctr, bctar: the target comes from a register. Through LR
 * without linking is a return; linking makes any of them an indirect
 * call (blrl, bctrl, btarl).
 */
static void branch_reg(u32 w, u8 nolink_kind, struct itrace_ppc_insn *out)
{
	out->kind = LK(w) ? ITRACE_K_ICALL : nolink_kind;
	out->link = LK(w);
	out->cond = !BO_ALWAYS(w);
}

int itrace_ppc_classify(u32 w, u32 next, struct itrace_ppc_insn *out)
{
	static const struct itrace_ppc_insn plain = {
		.kind = ITRACE_K_INSN, .len = 4
	};

	/*
	 * Start from a plain 4-byte instruction (two stores) and return
	 * straight away for the opcodes that hold nothing else; the cases
	 * below overwrite only the fields they set.
	 */
	*out = plain;
	if (likely(!((PO_SPECIAL >> PO(w)) & 1)))
		return 0;
	switch (PO(w)) {
	case 0:
		/*
		 * Illegal by definition (an all-zero word always is); POWER9's
		 * attn lives here but is Book IV, disabled under Linux, and
		 * then raises the same illegal-instruction interrupt.
		 */
	case 5:
	case 9:
	case 22:
		/* Unused by ISA 3.0 and 3.1 (9 and 22 were POWER's dozi, rlmi). */
		return -1;
	case 1:
		/* ISA 3.1 prefix: one 8-byte instruction with its suffix. */
		if (!prefix_ok(w, next))
			return -1;
		out->len = 8;
		break;
	case 2:		/* tdi */
	case 3:		/* twi */
		out->kind = ITRACE_K_INT;
		out->cond = BO(w) != TO_ALWAYS;
		break;
	case 16:	/* bc, bca, bcl, bcla */
		out->disp = (s16)(w & 0xfffc);
		out->direct = 1;
		out->abs = AA(w);
		out->link = LK(w);
		out->cond = !BO_ALWAYS(w);
		/* bcl 20,31,$+4 (the get-PC idiom) is an unconditional call. */
		if (LK(w))
			out->kind = ITRACE_K_CALL;
		else
			out->kind = BO_ALWAYS(w) ? ITRACE_K_JMP : ITRACE_K_JCC;
		break;
	case 17:
		/*
		 * sc has bit 30 set (bit 31 is reserved); scv has bit 30 clear
		 * and bit 31 set, and, unlike sc, saves the return address in
		 * LR, hence link. Both clear is POWER's svc: illegal now.
		 */
		if (!(w & 3))
			return -1;
		out->kind = ITRACE_K_SYSCALL;
		out->link = (w & 3) == 1;
		break;
	case 18:	/* b, ba, bl, bla: 24-bit LI, sign-extended, times 4 */
		out->disp = ((s32)(w << 6) >> 6) & ~3;
		out->direct = 1;
		out->abs = AA(w);
		out->link = LK(w);
		out->kind = LK(w) ? ITRACE_K_CALL : ITRACE_K_JMP;
		break;
	case 19:
		switch (XO10(w)) {
		case 16:	/* bclr */
			branch_reg(w, ITRACE_K_RET, out);
			break;
		case 528:	/* bcctr */
		case 560:	/* bctar */
			branch_reg(w, ITRACE_K_IJMP, out);
			break;
		case 18:	/* rfid */
		case 274:	/* hrfid */
		case 82:	/* rfscv */
		case 146:	/* rfebb */
		case 306:	/* urfid (ultravisor) */
		case 50:	/* rfi (32-bit) */
		case 51:	/* rfci (Book E) */
		case 38:	/* rfmci (Book E) */
		case 39:	/* rfdi (Book E) */
		case 102:	/* rfgi (Book E) */
			out->kind = ITRACE_K_IRET;
			break;
		}
		break;
	case 31:
		/*
		 * The 10-bit XO is exact for these X-forms: no XO-form (9-bit XO
		 * plus OE), XS-form or isel (5-bit XO) shares its values.
		 */
		if (!XO31_SPECIAL(w))
			break;
		switch (XO10(w)) {
		case 4:		/* tw */
		case 68:	/* td */
			out->kind = ITRACE_K_INT;
			out->cond = BO(w) != TO_ALWAYS;
			break;
		case 52:	/* lbarx */
		case 116:	/* lharx */
		case 20:	/* lwarx */
		case 84:	/* ldarx */
		case 276:	/* lqarx */
			out->larx = 1;
			break;
		case 694:	/* stbcx. */
		case 726:	/* sthcx. */
		case 150:	/* stwcx. */
		case 214:	/* stdcx. */
		case 182:	/* stqcx. */
			/*
			 * These are defined with Rc = 1 only. XO 182 with Rc = 0
			 * is another (Book E) instruction; the rest with Rc = 0
			 * are unassigned, left to the CPU to reject.
			 */
			out->stcx = w & 1;
			break;
		}
		break;
	}
	return 0;
}
