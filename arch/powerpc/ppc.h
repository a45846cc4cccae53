/* SPDX-License-Identifier: GPL-2.0 */
/* Shared between powerpc arming (step.c) and trap decoding (trap.c). */
#ifndef _ITRACE_PPC_H
#define _ITRACE_PPC_H

#include <linux/atomic.h>
#include <linux/types.h>

struct pt_regs;
struct itrace_slot;

/* Set the trace bits the slot's mode (or a larx window) wants in @regs. */
void itrace_ppc_set_trace(struct itrace_slot *s, struct pt_regs *regs);
/*
 * Trace on from @regs->nip, running a larx window there first (trap.c);
 * interrupts off.
 */
void itrace_ppc_resume(struct itrace_slot *s, struct pt_regs *regs);
/* Drop MSR_SE and MSR_BE from @regs. */
void itrace_ppc_clear_trace(struct pt_regs *regs);
/* Run the larx..stcx. window at @regs->nip without trapping (resv.c). */
extern atomic_long_t itrace_ppc_resv_ok, itrace_ppc_resv_fail;
extern const char *itrace_ppc_resv_why;
bool itrace_ppc_emulate_resv(struct itrace_slot *s, struct pt_regs *regs);
/* The instruction word at user address @ip, or false if unreadable. */
bool itrace_ppc_fetch(unsigned long ip, u32 *w);

#endif /* _ITRACE_PPC_H */
