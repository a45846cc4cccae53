/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a ptrace stepper has to stop a powerpc larx..stcx. window that
 * it lets run at full speed. Any trap between the two drops the
 * reservation: a single-stepped stcx. always fails, and so does a
 * block-stepped one after a branch inside the window, so stepping such a
 * loop never ends. As gdb does (ppc_deal_with_atomic_sequence), the
 * window runs to its exits: the word after the stcx. and every target
 * outside the window that a conditional branch in it jumps to.
 */
#ifndef _TP_PPC_ATOMIC_H
#define _TP_PPC_ATOMIC_H

#include <sys/types.h>

#define WINDOW_MAX	16	/* instructions from the larx to the stcx. */
#define EXITS_MAX	(WINDOW_MAX + 1)
#define TRAP_INSN	0x7fe00008u	/* tw 31,0,0: SIGTRAP at its address */

static inline unsigned int x31_xo(unsigned int insn)
{
	return insn >> 26 == 31 ? (insn >> 1) & 0x3ff : 0;
}

/* lbarx, lharx, lwarx, ldarx, lqarx */
static inline int is_larx(unsigned int insn)
{
	unsigned int xo = x31_xo(insn);

	return xo == 52 || xo == 116 || xo == 20 || xo == 84 || xo == 276;
}

/* stbcx., sthcx., stwcx., stdcx., stqcx. */
static inline int is_stcx(unsigned int insn)
{
	unsigned int xo = x31_xo(insn);

	return (insn & 1) &&
	       (xo == 694 || xo == 726 || xo == 150 || xo == 214 || xo == 182);
}

/*
 * The exits of the window whose larx is at @ip, into @exits (room for
 * EXITS_MAX): their number, or 0 if the window is not one to run this
 * way (no stcx. near, or a branch other than a relative bc in it).
 */
static inline int window_exits(unsigned int (*peek)(pid_t, unsigned long),
			       pid_t pid, unsigned long ip,
			       unsigned long *exits)
{
	unsigned long a, end = 0;
	int n = 0;

	for (a = ip + 4; a < ip + 4 * WINDOW_MAX && !end; a += 4)
		if (is_stcx(peek(pid, a)))
			end = a;
	if (!end)
		return 0;
	for (a = ip + 4; a < end; a += 4) {
		unsigned int insn = peek(pid, a);
		unsigned long to;

		if (insn >> 26 == 18 || insn >> 26 == 19 ||
		    (insn >> 26 == 16 && (insn & 2)))
			return 0;
		if (insn >> 26 != 16)
			continue;
		to = a + (long)(short)(insn & 0xfffc);
		if (to < ip || to > end)
			exits[n++] = to;
	}
	exits[n++] = end + 4;
	return n;
}

#endif /* _TP_PPC_ATOMIC_H */
