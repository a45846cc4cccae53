/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The uprobes API across the kernels the module builds for, behind one
 * interface (trigger.c).
 * 5.10 and 6.1: uprobe_register() returns 0 or -errno and
 * uprobe_unregister() takes the inode and offset again; the filter gets
 * a context word.
 * 6.12 on (ITRACE_UPROBE_HANDLE): uprobe_register() returns the uprobe
 * (or an ERR_PTR), which uprobe_unregister_nosync() takes, and
 * uprobe_unregister_sync() waits for handlers still running; the filter
 * has no context word.
 * 7.3 (ITRACE_UPROBE_DATA): the handler also gets a word of per-hit
 * data for its return handler, which the module has none of.
 * All of them are exported (GPL). Which one a kernel has, Kbuild reads
 * from its <linux/uprobes.h> (kdb-itrace/wrap.mk), not from its version:
 * a distribution may backport. Checked on 5.10, 6.1, 6.12 and 7.3.
 * Process context: every call here may sleep.
 */
#ifndef _ITRACE_WRAP_UPROBES_H
#define _ITRACE_WRAP_UPROBES_H

#include <linux/err.h>
#include <linux/uprobes.h>

struct itrace_uprobe {
	struct inode *inode;	/* held (ihold) while registered */
	loff_t off;
#ifdef ITRACE_UPROBE_HANDLE
	struct uprobe *uprobe;
#endif
};

/* The filter's parameters: uc and mm, and 6.1's context word. */
#ifdef ITRACE_UPROBE_HANDLE
#define ITRACE_UPROBE_FILTER_ARGS					\
	struct uprobe_consumer *uc, struct mm_struct *mm
#else
#define ITRACE_UPROBE_FILTER_ARGS					\
	struct uprobe_consumer *uc, enum uprobe_filter_ctx ctx,	\
	struct mm_struct *mm
#endif

/* The handler's parameters: uc and regs, and 7.3's data word. */
#ifdef ITRACE_UPROBE_DATA
#define ITRACE_UPROBE_HANDLER_ARGS					\
	struct uprobe_consumer *uc, struct pt_regs *regs, __u64 *data
#else
#define ITRACE_UPROBE_HANDLER_ARGS					\
	struct uprobe_consumer *uc, struct pt_regs *regs
#endif

static inline int itrace_uprobe_register(struct itrace_uprobe *u,
					 struct inode *inode, loff_t off,
					 struct uprobe_consumer *uc)
{
#ifdef ITRACE_UPROBE_HANDLE
	struct uprobe *up = uprobe_register(inode, off, 0, uc);

	if (IS_ERR(up))
		return PTR_ERR(up);
	u->uprobe = up;
#else
	int ret = uprobe_register(inode, off, uc);

	if (ret)
		return ret;
#endif
	u->inode = inode;
	u->off = off;
	return 0;
}

/* Returns once no handler of @uc runs any more. */
static inline void itrace_uprobe_unregister(struct itrace_uprobe *u,
					    struct uprobe_consumer *uc)
{
#ifdef ITRACE_UPROBE_HANDLE
	uprobe_unregister_nosync(u->uprobe, uc);
	uprobe_unregister_sync();
#else
	uprobe_unregister(u->inode, u->off, uc);
#endif
}

#endif /* _ITRACE_WRAP_UPROBES_H */
