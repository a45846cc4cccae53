// SPDX-License-Identifier: GPL-2.0
/*
 * Arming and disarming powerpc (Book3S-64) stepping for a traced task:
 * MSR_SE for instruction stepping, MSR_BE for branch tracing, always set
 * through regs_set_return_msr() (wrap_regs.h) so the fast
 * interrupt-return path does not reuse a stale SRR1. Every write happens in the task's own context
 * (task_work or its trap), on a stopped task under stop_machine, or on
 * a task a ptrace tracer holds off-CPU, so the remote-CPU srr_valid
 * problem never arises. Never sets TIF_SINGLESTEP (ptrace's flag: it
 * would send the task SIGTRAPs).
 */
#include <linux/irqflags.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/cputable.h>
#include <asm/reg.h>
#include "core/arch_api.h"
#include "ppc.h"
#include "wrap_regs.h"

int itrace_arch_init(void)
{
	/* BookE's debug registers (DBCR0) are a different mechanism */
	if (IS_ENABLED(CONFIG_PPC_ADV_DEBUG_REGS) || !IS_ENABLED(CONFIG_PPC64))
		return -ENODEV;
	return 0;
}

void itrace_arch_exit(void)
{
}

const char *itrace_arch_block_impl(void)
{
	return cpu_has_feature(CPU_FTR_CFAR) ? "MSR_BE branch trace, CFAR" :
					       "MSR_BE branch trace";
}

bool itrace_arch_can_trace(struct task_struct *p, char *why, size_t len)
{
	struct pt_regs *regs = READ_ONCE(task_pt_regs(p));
	unsigned long msr;

	if (!regs) {
		strscpy(why, "has no user register frame", len);
		return false;
	}
	/*
	 * Outside kdb @p can die meanwhile: RCU keeps its task_struct, not
	 * the stack its frame is on.
	 */
	if (copy_from_kernel_nofault(&msr, &regs->msr, sizeof(msr))) {
		strscpy(why, "is exiting", len);
		return false;
	}
	if (msr & (MSR_SE | MSR_BE)) {
		strscpy(why, "is already being stepped (MSR_SE/BE set; a debugger?)",
			len);
		return false;
	}
	return true;
}

bool itrace_arch_slot_busy(const struct itrace_arch_slot *a)
{
	return READ_ONCE(a->fault_queued);
}

bool itrace_arch_foreign_stepping(void)
{
	return test_thread_flag(TIF_SINGLESTEP);
}

bool itrace_ppc_fetch(unsigned long ip, u32 *w)
{
	return !copy_from_user_nofault(w, (const void __user *)ip, sizeof(*w));
}

void itrace_ppc_clear_trace(struct pt_regs *regs)
{
	itrace_ppc_set_return_msr(regs, regs->msr & ~(MSR_SE | MSR_BE));
}

void itrace_ppc_set_trace(struct itrace_slot *s, struct pt_regs *regs)
{
	unsigned long msr = regs->msr & ~(MSR_SE | MSR_BE);

	s->arch.branch = s->mode == ITRACE_MODE_BLOCK || s->arch.resv;
	itrace_ppc_set_return_msr(regs, msr | (s->arch.branch ? MSR_BE : MSR_SE));
}

void itrace_arch_arm_current(struct itrace_slot *s)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned long flags;

	/* IRQs off: atomic against the stop_machine disarm at unload. */
	local_irq_save(flags);
	if (!READ_ONCE(itrace_shutdown)) {
		s->prev_ip = regs->nip;
		s->arch.resv = false;
		itrace_ppc_text_forget(s);
		itrace_ppc_set_trace(s, regs);
	}
	local_irq_restore(flags);
}

void itrace_arch_disarm_current(struct itrace_slot *s)
{
	unsigned long flags;

	local_irq_save(flags);
	itrace_ppc_clear_trace(current_pt_regs());
	local_irq_restore(flags);
}

/*
 * ptrace's step helpers (arch/powerpc/kernel/ptrace/ptrace-noadv.c) own
 * MSR_SE and MSR_BE as much as we do: PTRACE_SINGLESTEP/SINGLEBLOCK
 * replace our bit with the tracer's and set TIF_SINGLESTEP, PTRACE_CONT
 * and PTRACE_DETACH clear both bits and the flag, and our stepping would
 * silently end there. So while the tracer steps, remember which kind of
 * trap it asked for; once it stops stepping, set our bit again. @p is
 * off-CPU, and its switch-in invalidates the SRR cache of whatever CPU
 * it next runs on, so it will return to user mode with this MSR.
 */
bool itrace_arch_ptrace_resume(struct itrace_slot *s, struct task_struct *p,
			       bool rearm)
{
	struct pt_regs *regs = task_pt_regs(p);

	if (!regs)
		return false;
	if (test_tsk_thread_flag(p, TIF_SINGLESTEP)) {
		s->arch.foreign_be = regs->msr & MSR_BE;
		return true;
	}
	if (rearm)
		itrace_ppc_set_trace(s, regs);
	return regs->msr & (MSR_SE | MSR_BE);
}

/* @p is switched out: __switch_to() already invalidated the SRR cache. */
void itrace_arch_disarm_stopped(struct itrace_slot *s)
{
	struct pt_regs *regs = task_pt_regs(s->task);

	if (regs)
		regs->msr &= ~(MSR_SE | MSR_BE);
}

/*
 * signal_deliver, before a handler's frame is built: the frame saves the
 * MSR, and a handler that reads its context must not find our SE/BE
 * there. (ppc's sigreturn restores only MSR_LE from the frame: nothing
 * of ours could come back from it.)
 */
bool itrace_arch_signal(struct itrace_slot *s)
{
	struct pt_regs *regs = current_pt_regs();

	lockdep_assert_irqs_disabled();
	if (!(regs->msr & (MSR_SE | MSR_BE)))
		return false;
	itrace_ppc_clear_trace(regs);
	return true;
}

void itrace_arch_slot_release(struct itrace_slot *s)
{
}

/* copy_process() -> user_disable_single_step() clears SE/BE already. */
void itrace_arch_fork_child(struct itrace_slot *parent,
			    struct task_struct *child)
{
}
