/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc per-task tracing state, embedded in the core's struct itrace_slot. */
#ifndef _ITRACE_ARCH_TYPES_H
#define _ITRACE_ARCH_TYPES_H

#include <linux/types.h>
#include <linux/task_work.h>

/* Every instruction is 4 bytes; bl's return address is the next. */
#define ITRACE_CALL_LEN_MAX	4

/* Bytes of user text read at once (text.c): never crosses a page. */
#define ITRACE_PPC_TEXT		64

/* A block of the task's instruction words, and the trap that read it. */
struct itrace_ppc_text {
	unsigned long base;	/* user address of w[0]; 1: nothing read */
	u64 trap;		/* itrace_arch_slot.traps when it was read */
	union {
		u64 dw[ITRACE_PPC_TEXT / 8];	/* as loaded */
		u32 w[ITRACE_PPC_TEXT / 4];	/* the words, as in memory */
	};
};

struct itrace_arch_slot {
	bool branch;	/* the coming trap is a branch-trace (MSR_BE) one */
	bool resv;	/* running a larx..stcx. window under MSR_BE */
	bool foreign_be;	/* a tracer's coming trap is a branch trace */
	bool fault_queued;		/* fault_work is on the task's list */
	bool fault_write;
	unsigned long fault_ea;		/* word a larx window could not touch */
	struct callback_head fault_work;
	u64 traps;			/* our trap-path entries, never reset */
	struct itrace_ppc_text text;
};

/* The die events of the uprobes hand-off (kdb-itrace/core/rearm.c). */
#define ITRACE_DIE_BREAKPOINT	DIE_BPT
#define ITRACE_DIE_XOL_STEP	DIE_SSTEP

/* step.c: resv.c's fault-in may still be queued on the slot's task */
bool itrace_arch_slot_busy(const struct itrace_arch_slot *a);
#define itrace_arch_slot_busy itrace_arch_slot_busy

/* regs.c: ELFv2 local entry points (kdb-itrace/core/arch.h) */
unsigned long itrace_arch_func_entry(unsigned long addr);
#define itrace_arch_func_entry itrace_arch_func_entry

#endif /* _ITRACE_ARCH_TYPES_H */
