/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `on <pid> func F`: a traced task that runs untraced (no step bit, full
 * speed) until it enters F, is stepped inside F and what F calls until
 * that call returns, then runs untraced again until the next entry
 * (trigger.c). The entry is a uprobe; the end is seen in the step trap.
 *
 *   SETUP -> WAITING      the arming work found F and registered the
 *   SETUP -> FAILED       uprobe / no such function, or no uprobe
 *   WAITING -> INSIDE     the uprobe handler: an entry (the stepping
 *                         starts from task_work, as after any uprobe)
 *   INSIDE -> WAITING     the step trap after the return (or a longjmp)
 *                         out of the entry's frame
 *   INSIDE -> DONE        the same, for the last entry `count N` allows:
 *                         the uprobe's next hit takes it out of the mm
 * An entry while INSIDE (recursion) changes nothing; nor does one while
 * WAITING where the `if` condition is false (counted as skipped). Only
 * the slot's own task writes these, in its uprobe handler, task_work or
 * step trap.
 */
#ifndef _ITRACE_TRIGGER_H
#define _ITRACE_TRIGGER_H

#include <linux/uprobes.h>
#include <linux/workqueue.h>
#include "arch.h"
#include "cond.h"
#include "wrap_uprobes.h"

enum itrace_trig_state {
	ITRACE_TRIG_NONE,	/* no func: traced from the arming on */
	ITRACE_TRIG_SETUP,
	ITRACE_TRIG_WAITING,
	ITRACE_TRIG_INSIDE,
	ITRACE_TRIG_FAILED,
	ITRACE_TRIG_DONE,	/* `count N` entries done: no more */
};

struct itrace_trigger {
	u8 state;			/* enum itrace_trig_state */
	bool registered;		/* the uprobe, until unreg ran */
	u64 entries;			/* entries that started tracing */
	u64 skipped;			/* entries where `if` was false */
	u64 faults;			/* ... because a load faulted */
	unsigned long entry_ip;		/* where the uprobe sits */
	unsigned long entry_sp;		/* the invocation's frame ... */
	unsigned long ret_ip;		/* ... and where it returns to */
	struct mm_struct *mm;		/* the task's: compared, not used */
	struct uprobe_consumer uc;
	struct itrace_uprobe up;
	struct work_struct unreg;
	char where[48];			/* "tp_trig+0x1136", or why it failed */
	struct itrace_cond cond;	/* `if`: nr 0 for none */
	/* the handler's registers, for the condition (the task's own) */
	struct itrace_reg regs[ITRACE_REGS_MAX];
	u64 vals[ITRACE_REGS_MAX];
};

#endif /* _ITRACE_TRIGGER_H */
