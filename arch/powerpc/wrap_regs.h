/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing a user frame's return MSR and address (step.c, resv.c). Since
 * 5.14 the interrupt exit may return through SRR0/SRR1 still holding the
 * old values unless told (regs_set_return_msr()/_ip() clear the "SRRs
 * valid" cache: ITRACE_PPC_SET_RETURN, read from <asm/ptrace.h> by
 * kdb-itrace/wrap.mk); before, every exit reloaded them from the frame,
 * and a plain store was the whole job. Any context that owns @regs.
 */
#ifndef _ITRACE_PPC_WRAP_REGS_H
#define _ITRACE_PPC_WRAP_REGS_H

#include <asm/ptrace.h>

static inline void itrace_ppc_set_return_msr(struct pt_regs *regs,
					     unsigned long msr)
{
#ifdef ITRACE_PPC_SET_RETURN
	regs_set_return_msr(regs, msr);
#else
	regs->msr = msr;
#endif
}

static inline void itrace_ppc_set_return_ip(struct pt_regs *regs,
					    unsigned long ip)
{
#ifdef ITRACE_PPC_SET_RETURN
	regs_set_return_ip(regs, ip);
#else
	regs->nip = ip;
#endif
}

#endif /* _ITRACE_PPC_WRAP_REGS_H */
