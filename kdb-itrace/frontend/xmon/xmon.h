/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The xmon front-end (POWER's console monitor), built only on kernels
 * with xmon (CONFIG_XMON): the entry points xmon's `p` command calls
 * (xmon.c), and their load-time buffer. A front-end uses the executor
 * (exec/exec.h), the core's public header and the pure-C library, never
 * another front-end. The entry points run inside xmon: stopped machine,
 * and a fault longjmps out of them.
 */
#ifndef _ITRACE_FRONTEND_XMON_H
#define _ITRACE_FRONTEND_XMON_H

#include <linux/errno.h>
#include <linux/kconfig.h>

#if IS_ENABLED(CONFIG_XMON)
int itrace_xmon_init(void);
void itrace_xmon_exit(void);
long itrace_xmon_on(unsigned long pid, unsigned long mode,
		    unsigned long flags, unsigned long kinds);
long itrace_xmon_off(unsigned long pid);
long itrace_xmon_log(unsigned long pid, unsigned long count,
		     unsigned long raw);
long itrace_xmon_calls(unsigned long pid, unsigned long count);
long itrace_xmon_top(unsigned long pid, unsigned long count);
long itrace_xmon_stack(unsigned long pid);
long itrace_xmon_regs(unsigned long pid);
long itrace_xmon_status(void);
long itrace_xmon_clear(void);
long itrace_xmon_help(void);
#else
static inline int itrace_xmon_init(void)
{
	return -ENODEV;
}

static inline void itrace_xmon_exit(void)
{
}
#endif

#endif /* _ITRACE_FRONTEND_XMON_H */
