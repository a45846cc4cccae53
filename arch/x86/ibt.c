// SPDX-License-Identifier: GPL-2.0
/*
 * Calls into kernel functions found by name (kdb-itrace/core/ksym.c). A
 * kernel built with CONFIG_X86_KERNEL_IBT has objtool seal every
 * function whose address the kernel never takes: its ENDBR becomes a
 * NOP, and on a CPU enforcing IBT an indirect call to it raises #CP.
 * Mainline never takes task_work_add's address, so around such a
 * call this CPU stops checking ENDBR
 * (supervisor CET, MSR_IA32_S_CET.ENDBR_EN). IRQs are off in between, so
 * nothing else runs on this CPU unchecked; the kernel's own ibt_save()
 * does the same for EFI calls, but is not exported.
 * Kernels before 5.18 have no kernel IBT, nor its constants in
 * <asm/msr-index.h>: there CET_ENDBR_EN is undefined and both calls do
 * nothing (the constant is its own probe).
 * Any context with IRQs off: kdb, the trap path, process context.
 */
#include <linux/lockdep.h>
#include <asm/cpufeature.h>
#include <asm/msr-index.h>
#include "core/arch.h"
#include "wrap_msr.h"

#ifdef CET_ENDBR_EN
u64 itrace_arch_foreign_call_begin(void)
{
	u64 cet;

	lockdep_assert_irqs_disabled();
	/* constant false on kernels without CONFIG_X86_KERNEL_IBT */
	if (!cpu_feature_enabled(X86_FEATURE_IBT))
		return 0;
	itrace_rdmsr(MSR_IA32_S_CET, cet);
	if (!(cet & CET_ENDBR_EN))
		return 0;
	itrace_wrmsr(MSR_IA32_S_CET, cet & ~CET_ENDBR_EN);
	return cet;
}

void itrace_arch_foreign_call_end(u64 saved)
{
	lockdep_assert_irqs_disabled();
	if (saved & CET_ENDBR_EN)
		itrace_wrmsr(MSR_IA32_S_CET, saved);
}
#else
u64 itrace_arch_foreign_call_begin(void)
{
	lockdep_assert_irqs_disabled();
	return 0;
}

void itrace_arch_foreign_call_end(u64 saved)
{
	lockdep_assert_irqs_disabled();
}
#endif
