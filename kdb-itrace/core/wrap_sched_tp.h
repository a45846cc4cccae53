/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scheduler tracepoints' prototypes the module's probes must match
 * (lifecycle.c): a probe is called through its tracepoint's own
 * prototype, which kCFI kernels check. 7.3's sched_process_exit also
 * passes whether the thread group died with the task
 * (ITRACE_TP_EXIT_GROUP, read from <trace/events/sched.h> by
 * kdb-itrace/wrap.mk), which the module does not need.
 */
#ifndef _ITRACE_WRAP_SCHED_TP_H
#define _ITRACE_WRAP_SCHED_TP_H

#include <linux/types.h>

struct task_struct;

#ifdef ITRACE_TP_EXIT_GROUP
#define ITRACE_TP_EXIT_ARGS void *data, struct task_struct *p, bool group_dead
#else
#define ITRACE_TP_EXIT_ARGS void *data, struct task_struct *p
#endif

#endif /* _ITRACE_WRAP_SCHED_TP_H */
