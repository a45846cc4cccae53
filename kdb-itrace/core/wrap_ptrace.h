/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Is a ptrace stop frozen (lifecycle.c's probe_waking)? The tracer has
 * waited for the stopped task to be off-CPU and nobody else can wake it.
 * Since 5.19 ptrace_freeze_traced() says so with JOBCTL_PTRACE_FROZEN
 * (ITRACE_PTRACE_FROZEN, read from <linux/sched/jobctl.h> by
 * kdb-itrace/wrap.mk); before, it set the task's state to __TASK_TRACED
 * alone (TASK_TRACED less TASK_WAKEKILL) and woke it from that state.
 * Any context: one read of the task.
 */
#ifndef _ITRACE_WRAP_PTRACE_H
#define _ITRACE_WRAP_PTRACE_H

#include <linux/sched.h>
#include <linux/sched/jobctl.h>

static inline bool itrace_ptrace_frozen(const struct task_struct *p)
{
#ifdef ITRACE_PTRACE_FROZEN
	return READ_ONCE(p->jobctl) & JOBCTL_PTRACE_FROZEN;
#else
	return READ_ONCE(p->state) == __TASK_TRACED;
#endif
}

#endif /* _ITRACE_WRAP_PTRACE_H */
