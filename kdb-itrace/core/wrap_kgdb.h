/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kgdb_breakpoint(), which only a kernel with CONFIG_KGDB has (Debian's
 * do; a kernel without it has no kdb to enter): `break` calls it through
 * this, and keep.c asks itrace_ksym_kgdb_ready() first.
 */
#ifndef _ITRACE_WRAP_KGDB_H
#define _ITRACE_WRAP_KGDB_H

#include <linux/kgdb.h>

static inline void itrace_kgdb_breakpoint(void)
{
#ifdef CONFIG_KGDB
	kgdb_breakpoint();
#endif
}

#endif /* _ITRACE_WRAP_KGDB_H */
