/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one x86 single step was, from the decoded instruction and where
 * the task went: the record kind of a trap in insn mode (and of the
 * software block step). Pure C, shared with host tests and benchmarks.
 */
#ifndef _ITRACE_X86_STEP_KIND_H
#define _ITRACE_X86_STEP_KIND_H

#include "insn_decode.h"
#include "lib/kind.h"

/*
 * The instruction @d at @from ran and the task is now at @to. Returns
 * an enum itrace_kind, or ITRACE_K_NR for no record: a rep string
 * iteration leaves the ip in place. An ip that moved otherwise than @d
 * can move it is ITRACE_K_ASYNC (a signal, a restart). Not for system
 * calls: the trap after one comes an instruction later.
 */
static inline unsigned int itrace_x86_step_kind(const struct itrace_x86_insn *d,
						u64 from, u64 to)
{
	u64 next = from + d->len;

	switch (d->kind) {
	case ITRACE_K_INSN:
		if (to == next)
			return ITRACE_K_INSN;
		return to == from && d->rep ? ITRACE_K_NR : ITRACE_K_ASYNC;
	case ITRACE_K_JCC:
		if (to == next)
			return ITRACE_K_JCC_NT;
		return to == next + d->rel ? ITRACE_K_JCC : ITRACE_K_ASYNC;
	default:
		return d->kind;
	}
}

#endif /* _ITRACE_X86_STEP_KIND_H */
