/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the debugfs glue files: who may open them, and the
 * read-only files debugfs_read.c and capture.c provide to debugfs.c.
 */
#ifndef _ITRACE_DEBUGFS_H
#define _ITRACE_DEBUGFS_H

#include <linux/fs.h>

/* 0, or why the caller may not open an itrace debugfs file. */
int itrace_debugfs_may_open(void);

extern const struct file_operations itrace_log_fops;
extern const struct file_operations itrace_stream_fops;
/* capture.c */
extern const struct file_operations itrace_maps_fops;

#endif /* _ITRACE_DEBUGFS_H */
