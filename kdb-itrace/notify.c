// SPDX-License-Identifier: GPL-2.0
/*
 * Die-notifier glue: the one place step traps enter the module. It runs
 * at the lowest priority so kgdb, hw_breakpoint and uprobes see their own
 * traps first, and claims only traps of tasks in our table that we armed.
 */
#include <linux/kdebug.h>
#include <linux/notifier.h>
#include "itrace.h"

static int itrace_die(struct notifier_block *nb, unsigned long val,
		      void *data)
{
	struct itrace_slot *s;
	bool armed;
	int st;

	if (!itrace_arch_is_step_trap(val, data))
		return NOTIFY_DONE;
	s = itrace_slot_of(current);
	if (!s)
		return NOTIFY_DONE;
	st = atomic_read(&s->state);
	/* PENDING: we have not set TF yet, so this step is someone else's. */
	if (st == ITRACE_PENDING || st == ITRACE_FREE)
		return NOTIFY_DONE;
	if (itrace_arch_foreign_stepping())
		return itrace_arch_foreign_step(s, data);

	armed = st == ITRACE_ARMED && !READ_ONCE(itrace_shutdown);
	/* LINGER: a stray TF (e.g. restored by sigreturn): swallow, no log */
	st = itrace_arch_step(s, data, st != ITRACE_LINGER, armed);
	if (!armed)
		atomic_cmpxchg(&s->state, ITRACE_OFF, ITRACE_LINGER);
	return st;
}

static struct notifier_block itrace_die_nb = {
	.notifier_call = itrace_die,
	.priority = -1,
};

int itrace_notify_init(void)
{
	return register_die_notifier(&itrace_die_nb);
}

void itrace_notify_exit(void)
{
	unregister_die_notifier(&itrace_die_nb);
}
