// SPDX-License-Identifier: GPL-2.0
/*
 * The powerpc half of the uprobes hand-off (the policy is the core's,
 * kdb-itrace/core/rearm.c). uprobes either emulates the probed instruction,
 * or steps it out of line under its own MSR_SE and then clears MSR_SE
 * and MSR_BE, which would end our tracing.
 */
#include <linux/ptrace.h>
#include <linux/sched.h>
#include "core/arch_api.h"
#include "ppc.h"

/*
 * Die notifier (DIE_BPT), IRQs off. No check that SE/BE are set: a task
 * whose out-of-line step was aborted (a signal) lost them without a
 * trap to re-arm from, and the next probe hit brings them back. Left
 * set, SE would survive an emulated probe and trap only after the next
 * instruction: two in one record.
 */
bool itrace_arch_uprobe_drop(struct itrace_slot *s, struct pt_regs *regs,
			     unsigned long *bp)
{
	itrace_ppc_clear_trace(regs);
	*bp = regs->nip;
	return true;
}

/* task_work, IRQs off: the probe's own trap word sat in the text. */
void itrace_arch_uprobe_resume(struct itrace_slot *s, struct pt_regs *regs)
{
	itrace_ppc_text_forget(s);
	itrace_ppc_resume(s, regs);
}
