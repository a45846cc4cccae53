/* SPDX-License-Identifier: GPL-2.0 */
/* powerpc per-task tracing state, embedded in the core's struct itrace_slot. */
#ifndef _ITRACE_ARCH_TYPES_H
#define _ITRACE_ARCH_TYPES_H

#include <linux/types.h>
#include <linux/task_work.h>

struct itrace_arch_slot {
	bool branch;	/* the coming trap is a branch-trace (MSR_BE) one */
	bool resv;	/* running a larx..stcx. window under MSR_BE */
	bool foreign_be;	/* a tracer's coming trap is a branch trace */
	bool fault_queued;		/* fault_work is on the task's list */
	bool fault_write;
	unsigned long fault_ea;		/* word a larx window could not touch */
	struct callback_head fault_work;
	bool rearm_queued;		/* rearm_work is on the task's list */
	unsigned long bp_vaddr;		/* the uprobe being handled */
	struct callback_head rearm_work;
};

#endif /* _ITRACE_ARCH_TYPES_H */
