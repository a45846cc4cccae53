// SPDX-License-Identifier: GPL-2.0
/*
 * The x86 half of the uprobes hand-off (the policy is the core's,
 * kdb-itrace/core/rearm.c): which bits are ours to drop before uprobes takes
 * its int3, and how stepping resumes after. uprobes takes a TF it did
 * not set for a debugger's and answers it with SIGTRAP (after emulating
 * the probed instruction, or after its out-of-line step), and it drops
 * BTF.
 */
#include <linux/ptrace.h>
#include <linux/sched.h>
#include "core/arch_api.h"
#include "x86.h"

/* Die notifier (DIE_INT3), IRQs off: the int3 has advanced ip past it. */
bool itrace_arch_uprobe_drop(struct itrace_slot *s, struct pt_regs *regs,
			     unsigned long *bp)
{
	if (!s->arch.tf)
		return false;
	itrace_x86_drop_tf(s, regs);
	*bp = regs->ip - 1;
	return true;
}

/* task_work, IRQs off: TF (and BTF in block mode) back on current. */
void itrace_arch_uprobe_resume(struct itrace_slot *s, struct pt_regs *regs)
{
	itrace_x86_arm(s);
}
