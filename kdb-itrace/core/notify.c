// SPDX-License-Identifier: GPL-2.0
/*
 * Die-notifier glue: the one place step traps enter the module. It claims
 * only user-mode step traps of tasks in our table that we armed, and runs
 * after hw_breakpoint (INT_MAX) and uprobes (INT_MAX - 1), which claim
 * their own, but before kgdb (0): while kdb single-steps the kernel
 * (`ss`), kgdb's x86 notifier takes *every* user-mode step trap on any
 * CPU for its own, clears TF from that task's registers and so would
 * silently end our tracing.
 */
#include <linux/kdebug.h>
#include <linux/limits.h>
#include <linux/ptrace.h>
#include <linux/notifier.h>
#include "core.h"

static int itrace_die(struct notifier_block *nb, unsigned long val,
		      void *data)
{
	struct die_args *a = data;
	struct itrace_slot *s;
	bool armed, inside, rearm;
	int st;

	if (!itrace_arch_is_step_trap(val, data))
		return NOTIFY_DONE;
	s = itrace_slot_of_current();
	if (!s)
		return NOTIFY_DONE;
	st = itrace_state(&s->state);
	/* PENDING: we have not set TF yet, so this step is someone else's. */
	if (st == ITRACE_PENDING || st == ITRACE_FREE)
		return NOTIFY_DONE;
	/* not waiting for its function (`func`): to be traced now */
	inside = itrace_slot_stepping(s);
	/* a tracer's step: logged, but the trap and the step bits are its */
	if (itrace_arch_foreign_stepping())
		return itrace_arch_foreign_step(s, data,
						st != ITRACE_OFF && inside);

	armed = st == ITRACE_ARMED && !READ_ONCE(itrace_shutdown);
	/* the step that returned out of the function's call: logged, last */
	rearm = armed && inside && !itrace_trigger_left(s, a->regs);
	/*
	 * OFF, STOPPING, or waiting for the function: the arch knows
	 * whether a step bit of ours is still set (the trap that drops
	 * it); a trap with none of ours set is the program's own or a
	 * debugger's, and passes. No log then. kinds none logs nothing:
	 * the bare cost of the trap.
	 */
	st = itrace_arch_step(s, data, st != ITRACE_OFF && inside && s->kinds,
			      rearm);
	/*
	 * No step bit of ours is left: finish an `off`. Also when armed was
	 * read before the `off` and the trigger ended here: else STOPPING
	 * would wait for a trap that never comes.
	 */
	if (!rearm)
		itrace_state_stopped(&s->state);
	return st;
}

static struct notifier_block itrace_die_nb = {
	.notifier_call = itrace_die,
	.priority = 1,
};

/*
 * Runs first (after hw_breakpoint and kprobes, which registered at the
 * same priority earlier), before uprobes: never claims anything.
 */
static int itrace_die_hi(struct notifier_block *nb, unsigned long val,
			 void *data)
{
	struct die_args *a = data;
	struct itrace_slot *s;
	int st;

	if (!user_mode(a->regs) || READ_ONCE(itrace_shutdown))
		return NOTIFY_DONE;
	s = itrace_slot_of_current();
	if (!s)
		return NOTIFY_DONE;
	st = itrace_state(&s->state);
	if (st == ITRACE_ARMED && itrace_slot_stepping(s))
		itrace_rearm_pre_notify(s, val, a->regs);
	else if (st == ITRACE_ARMED || st == ITRACE_STOPPING ||
		 st == ITRACE_OFF)
		itrace_rearm_drop_stray(s, val, a->regs);
	return NOTIFY_DONE;
}

static struct notifier_block itrace_die_hi_nb = {
	.notifier_call = itrace_die_hi,
	.priority = INT_MAX,
};

int itrace_notify_init(void)
{
	int ret = register_die_notifier(&itrace_die_nb);

	if (ret)
		return ret;
	ret = register_die_notifier(&itrace_die_hi_nb);
	if (ret)
		unregister_die_notifier(&itrace_die_nb);
	return ret;
}

void itrace_notify_exit(void)
{
	unregister_die_notifier(&itrace_die_hi_nb);
	unregister_die_notifier(&itrace_die_nb);
}
