/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What one powerpc step was, from the classified instruction and where
 * the task went: the record kind of a single-step trap, and of the
 * branch behind a branch-trace trap. Pure C, shared with host tests and
 * benchmarks.
 */
#ifndef _ITRACE_PPC_STEP_KIND_H
#define _ITRACE_PPC_STEP_KIND_H

#include "insn_class.h"
#include "lib/kind.h"

/* Where the direct branch @d at @ip goes when taken. */
static inline u64 itrace_ppc_target(u64 ip, const struct itrace_ppc_insn *d)
{
	return d->abs ? (u64)(s64)d->disp : ip + d->disp;
}

/*
 * The branch @d at @ip took the task to @to: not taken (fell through),
 * taken, or somewhere its word cannot send it (async: a signal).
 */
static inline unsigned int itrace_ppc_branch_kind(u64 ip,
						  const struct itrace_ppc_insn *d,
						  u64 to)
{
	if (d->cond && to == ip + d->len)
		return ITRACE_K_JCC_NT;
	if (d->direct && to != itrace_ppc_target(ip, d))
		return ITRACE_K_ASYNC;
	return d->kind;
}

/*
 * A single step over @d from @from left the task at @to. Not for system
 * calls: the trap after one comes an instruction later. A trap word
 * that did not trap is a plain instruction.
 */
static inline unsigned int itrace_ppc_step_kind(const struct itrace_ppc_insn *d,
						u64 from, u64 to)
{
	if (d->kind == ITRACE_K_INSN || d->kind == ITRACE_K_INT)
		return to == from + d->len ? ITRACE_K_INSN : ITRACE_K_ASYNC;
	return itrace_ppc_branch_kind(from, d, to);
}

#endif /* _ITRACE_PPC_STEP_KIND_H */
