/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Registering kdb commands across the kernels the module builds for
 * (kdb_cmd.c). Since 5.15 kdb_register() takes a kdbtab_t, which kdb
 * links into its list for as long as the command is registered, and
 * kdb_unregister() takes it back (ITRACE_KDB_TAB, read from
 * <linux/kdb.h> by kdb-itrace/wrap.mk); 5.10 has no kdbtab_t in its
 * headers, and registers by kdb_register_flags() with the same six
 * fields, unregistering by name. Module init and exit only.
 */
#ifndef _ITRACE_WRAP_KDB_H
#define _ITRACE_WRAP_KDB_H

#include <linux/kdb.h>

/* One command, as every kernel's kdb wants it. Static: kdb keeps it. */
struct itrace_kdb_cmd {
	char *name;
	kdb_func_t func;
	char *usage;
	char *help;
	short minlen;
	kdb_cmdflags_t flags;
#ifdef ITRACE_KDB_TAB
	kdbtab_t tab;	/* on kdb's list while registered */
#endif
};

/* 0, or non-zero if kdb has a command of that name already. */
static inline int itrace_kdb_register(struct itrace_kdb_cmd *c)
{
#ifdef ITRACE_KDB_TAB
	c->tab = (kdbtab_t) {
		.name = c->name, .func = c->func, .usage = c->usage,
		.help = c->help, .minlen = c->minlen, .flags = c->flags,
	};
	return kdb_register(&c->tab);
#else
	return kdb_register_flags(c->name, c->func, c->usage, c->help,
				  c->minlen, c->flags);
#endif
}

static inline void itrace_kdb_unregister(struct itrace_kdb_cmd *c)
{
#ifdef ITRACE_KDB_TAB
	kdb_unregister(&c->tab);
#else
	kdb_unregister(c->name);
#endif
}

#endif /* _ITRACE_WRAP_KDB_H */
