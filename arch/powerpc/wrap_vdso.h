/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Telling the vDSO's mapping apart (regs.c, for image.c's map walk).
 * Before 5.11 powerpc mapped it with install_special_mapping(), whose
 * vm_ops give no name: /proc/pid/maps names it through arch_vma_name()
 * (not exported), which compares the mapping's start with
 * mm->context.vdso_base (ITRACE_PPC_VDSO_BASE, read from
 * <asm/book3s/64/mmu.h> by kdb-itrace/wrap.mk). Since 5.11 the mapping's
 * own name op says "[vdso]" and this says nothing. Own context, the
 * mmap lock held.
 */
#ifndef _ITRACE_PPC_WRAP_VDSO_H
#define _ITRACE_PPC_WRAP_VDSO_H

#include <linux/mm_types.h>

static inline bool itrace_ppc_vma_is_vdso(const struct vm_area_struct *vma)
{
#ifdef ITRACE_PPC_VDSO_BASE
	return vma->vm_mm && vma->vm_start == vma->vm_mm->context.vdso_base;
#else
	return false;
#endif
}

#endif /* _ITRACE_PPC_WRAP_VDSO_H */
