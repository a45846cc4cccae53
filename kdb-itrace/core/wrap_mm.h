/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mm API across the kernels the module builds for (rearm.c,
 * trigger.c), chosen by kdb-itrace/wrap.mk from <linux/mm.h>:
 * - mm->flags: an unsigned long read with test_bit() until 7.2; on 7.3
 *   a bitmap type, read through mm_flags_test() (ITRACE_MM_FLAGS_T),
 *   with the MMF_ bits moved from <linux/sched/coredump.h> to
 *   <linux/mm_types.h>;
 * - vma_lookup() (5.15, ITRACE_HAVE_VMA_LOOKUP): on 5.10 the same
 *   answer from find_vma_intersection() over one byte.
 * Any context: both only read; the lookup wants the mmap lock held.
 */
#ifndef _ITRACE_WRAP_MM_H
#define _ITRACE_WRAP_MM_H

#include <linux/mm.h>
#include <linux/sched/coredump.h>

/* Does @mm hold a uprobe (the uprobe core's own MMF_HAS_UPROBES)? */
static inline bool itrace_mm_has_uprobes(const struct mm_struct *mm)
{
#ifdef ITRACE_MM_FLAGS_T
	return mm_flags_test(MMF_HAS_UPROBES, mm);
#else
	return test_bit(MMF_HAS_UPROBES, &mm->flags);
#endif
}

/* The vma holding @addr, or NULL; the mmap lock held. */
static inline struct vm_area_struct *itrace_vma_lookup(struct mm_struct *mm,
						       unsigned long addr)
{
#ifdef ITRACE_HAVE_VMA_LOOKUP
	return vma_lookup(mm, addr);
#else
	return find_vma_intersection(mm, addr, addr + 1);
#endif
}

#endif /* _ITRACE_WRAP_MM_H */
