/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debugfs front-end: /sys/kernel/debug/itrace/ (control, log,
 * stream, records, maps), for a root shell without kdb. A front-end uses the
 * executor (exec/exec.h), the core's public header and the pure-C
 * library, never another front-end. Load and unload, process context.
 */
#ifndef _ITRACE_FRONTEND_DEBUGFS_H
#define _ITRACE_FRONTEND_DEBUGFS_H

/* 0, or why there are no debugfs files (lockdown, ...) */
int itrace_debugfs_init(void);
void itrace_debugfs_exit(void);

#endif /* _ITRACE_FRONTEND_DEBUGFS_H */
