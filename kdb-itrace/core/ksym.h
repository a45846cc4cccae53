/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksym.c: the one place that reaches kernel functions mainline does not
 * export to modules. Everything else the module calls is exported by
 * mainline 6.1 and 6.12.
 */
#ifndef _ITRACE_KSYM_H
#define _ITRACE_KSYM_H

#include <linux/task_work.h>

/* Load time, process context: resolve them all, or say which is missing. */
int itrace_ksym_init(void);

/*
 * task_work_add(), which Debian's kernels export (for a modular binder)
 * and mainline, Fedora and RHEL do not. Any context; the same contract.
 */
int itrace_task_work_add(struct task_struct *p, struct callback_head *work,
			 enum task_work_notify_mode mode);

/* Has kgdb an I/O driver (kgdboc), so that kdb can be entered? Any context. */
bool itrace_ksym_kgdb_ready(void);

#endif /* _ITRACE_KSYM_H */
