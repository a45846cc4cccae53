/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What programs that trap or single-step themselves share: a function
 * that runs the arch's breakpoint at a known label, for a SIGTRAP
 * handler to check the ip against (step_int3, step_int3_hdl); and on
 * x86 the record of where the program's own TF traps came, read back as
 * a sequence of label numbers (step_tf_sig, step_tf_syscall).
 */
#ifndef _TT_STEP_H
#define _TT_STEP_H

#include "tt.h"

extern char tt_bp_where[];

/*
 * @v + 1, with the arch's breakpoint (TT_TRAP_INSN) on the way: its
 * SIGTRAP reports the ip tt_bp_where (x86: after the int3; POWER: the
 * trap word itself, TT_TRAP_SKIP to go on).
 */
static __attribute__((noinline, noclone, unused)) long tt_bp(long v)
{
#if defined(__x86_64__)
	asm volatile(TT_TRAP_INSN "\n"
		     ".globl tt_bp_where\n"
		     "tt_bp_where:\n\t"
		     "add $1, %0"
		     : "+r"(v) : : "cc", "memory");
#elif defined(__powerpc64__)
	asm volatile(".globl tt_bp_where\n"
		     "tt_bp_where:\n\t"
		     TT_TRAP_INSN "\n\t"
		     "addi %0, %0, 1"
		     : "+b"(v) : : "memory");
#endif
	return v;
}

#if defined(__x86_64__)
#define TT_TF	0x100UL		/* EFLAGS.TF */

/* the ips of the program's own TF traps: the first 64, and the count */
struct tt_traps {
	volatile unsigned long ip[64];
	volatile int n;
};

/* in the SIGTRAP handler: note the trap at @ip */
static inline void tt_traps_note(struct tt_traps *t, unsigned long ip)
{
	if (t->n < 64)
		t->ip[t->n] = ip;
	t->n++;
}

/*
 * The traps noted as the label numbers @label_of gives their ips,
 * " 1 2 3", into @seq; returns how many did not rise over the one before.
 */
static inline int tt_traps_seq(const struct tt_traps *t, char *seq,
			       int size, int (*label_of)(unsigned long))
{
	int i, n = 0, prev = 0, bad = 0;

	seq[0] = 0;
	for (i = 0; i < t->n && i < 64; i++) {
		int l = label_of(t->ip[i]);

		n += snprintf(seq + n, size - n, " %d", l);
		if (l <= prev)
			bad++;
		prev = l;
	}
	return bad;
}
#endif

#endif /* _TT_STEP_H */
