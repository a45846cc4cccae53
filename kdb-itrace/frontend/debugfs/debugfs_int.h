/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to the debugfs front-end's files: who may open them, and the
 * read-only files debugfs_read.c and debugfs_maps.c provide to
 * debugfs.c, which makes the folder.
 */
#ifndef _ITRACE_FRONTEND_DEBUGFS_INT_H
#define _ITRACE_FRONTEND_DEBUGFS_INT_H

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/security.h>

/*
 * 0, or why the caller may not open an itrace debugfs file. debugfs
 * itself, under lockdown, refuses only files that can be written: the
 * log of another task's control flow is not for everyone either. The
 * capability is checked first so that unprivileged callers do not fill
 * the kernel log with lockdown messages. (An inline: every file of the
 * debugfs glue asks, none owns it.)
 */
static inline int itrace_debugfs_may_open(void)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return security_locked_down(LOCKDOWN_DEBUGFS);
}

extern const struct file_operations itrace_log_fops;
extern const struct file_operations itrace_stream_fops;
extern const struct file_operations itrace_records_fops;
/* debugfs_maps.c */
extern const struct file_operations itrace_maps_fops;

#endif /* _ITRACE_FRONTEND_DEBUGFS_INT_H */
