/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Triggers: `on <pid> func F` runs the task untraced (no step bit, full
 * speed) until it enters F, steps it inside F and what F calls until
 * that call returns, then untraced again until the next entry;
 * `start A stop B` the same from reaching A to reaching B; `stop B`
 * alone steps it from the arming to B (trigger.c). Entries, starts and
 * stops are uprobes; a function's end is seen in the step trap.
 *
 *   NONE                  no trigger: traced from the arming on
 *   SETUP -> WAITING      the arming work found the places and
 *                         registered the uprobes (func, start)
 *   SETUP -> INSIDE       ... (stop alone): traced from now on
 *   SETUP -> FAILED       no such place, or no uprobe
 * A place in a library not loaded yet ("libm.so.6:fmax") is pending:
 * the state goes on as if it were there (WAITING for an entry), and a
 * third uprobe, on the dynamic linker's _dl_debug_state (called at
 * every change of the loaded objects: dlopen, dlclose), has the task
 * look for it again, in its own context (trigger.c, late_work).
 *   WAITING -> INSIDE     the entry's uprobe handler (the stepping
 *                         starts from task_work, as after any uprobe)
 *   INSIDE -> WAITING     func: the step trap after the return (or a
 *                         longjmp) out of the entry's frame; start: the
 *                         stop's uprobe handler
 *   INSIDE -> DONE        the same, for the last entry `count N` allows,
 *                         or a stop without start: the uprobes' next
 *                         hits take them out of the mm
 * An entry while INSIDE (a recursion) only adds to the depth (`status`
 * says "inside at depth N"); one while WAITING where the `if` condition
 * is false is counted as skipped; a stop while WAITING changes nothing.
 * Only the slot's own task writes these, in its uprobe handlers,
 * task_work or step trap.
 */
#ifndef _ITRACE_TRIGGER_H
#define _ITRACE_TRIGGER_H

#include <linux/compiler.h>
#include <linux/uprobes.h>
#include <linux/workqueue.h>
#include "arch.h"
#include "lib/cond.h"
#include "wrap_uprobes.h"

enum itrace_trig_state {
	ITRACE_TRIG_NONE,	/* no func: traced from the arming on */
	ITRACE_TRIG_SETUP,
	ITRACE_TRIG_WAITING,
	ITRACE_TRIG_INSIDE,
	ITRACE_TRIG_FAILED,
	ITRACE_TRIG_DONE,	/* `count N` entries done: no more */
};

/*
 * The trigger's uprobes: its entry (func F or start A) and stop B, and
 * while one of them is pending, the dynamic linker's watch.
 */
enum {
	ITRACE_PROBE_ENTRY,
	ITRACE_PROBE_STOP,
	ITRACE_PROBE_WATCH,
	ITRACE_NR_PROBES
};

#define ITRACE_TRIG_FRAMES 8

/* An invocation of F: its stack pointer at entry, its return address. */
struct itrace_trig_frame {
	unsigned long sp;
	unsigned long ret_ip;
};

struct itrace_probe {
	bool registered;		/* until unreg ran */
	bool pending;			/* its library not loaded yet */
	unsigned long ip;		/* where it sits in the task */
	struct uprobe_consumer uc;
	struct itrace_uprobe up;
	char where[48];			/* "tp_trig+0x1136" */
};

struct itrace_trigger {
	u8 state;			/* enum itrace_trig_state */
	bool by_frame;			/* func: ends at its return */
	u64 entries;			/* entries that started tracing */
	u64 skipped;			/* entries where `if` was false */
	u64 faults;			/* ... because a load faulted */
	/*
	 * func: the invocation's frame, then those of recursive calls of
	 * F inside it (the first ITRACE_TRIG_FRAMES); depth counts them
	 * all. Deeper calls are not kept: they end at the latest with the
	 * innermost one kept, which lies below them on the stack.
	 */
	u32 depth;
	struct itrace_trig_frame frame[ITRACE_TRIG_FRAMES];
	struct mm_struct *mm;		/* the task's: compared, not used */
	struct itrace_probe probe[ITRACE_NR_PROBES];
	struct work_struct unreg;
	/* a pending place looked for again (trigger.c), as the task */
	struct callback_head late_work;
	bool late_queued;
	char why[64];			/* why the setup failed */
	struct itrace_cond cond;	/* `if`: nr 0 for none */
	/* the handler's registers, for the condition (the task's own) */
	struct itrace_reg regs[ITRACE_REGS_MAX];
	u64 vals[ITRACE_REGS_MAX];
};

/* Is a uprobe of @t still registered (its unregistration to come)? */
static inline bool itrace_trig_registered(const struct itrace_trigger *t)
{
	return READ_ONCE(t->probe[ITRACE_PROBE_ENTRY].registered) ||
	       READ_ONCE(t->probe[ITRACE_PROBE_STOP].registered) ||
	       READ_ONCE(t->probe[ITRACE_PROBE_WATCH].registered);
}

#endif /* _ITRACE_TRIGGER_H */
