/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kdb front-end: the `itrace` command at the kdb prompt (kdb_cmd.c),
 * built only on kernels with kdb (CONFIG_KGDB_KDB). A front-end uses the
 * executor (exec/exec.h), the core's public header and the pure-C
 * library, never another front-end. Load and unload, process context.
 */
#ifndef _ITRACE_FRONTEND_KDB_H
#define _ITRACE_FRONTEND_KDB_H

#include <linux/errno.h>
#include <linux/kconfig.h>

#if IS_ENABLED(CONFIG_KGDB_KDB)
int itrace_kdb_init(void);
void itrace_kdb_exit(void);
#else
static inline int itrace_kdb_init(void)
{
	return -ENODEV;
}

static inline void itrace_kdb_exit(void)
{
}
#endif

#endif /* _ITRACE_FRONTEND_KDB_H */
