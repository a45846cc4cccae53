// SPDX-License-Identifier: GPL-2.0
/*
 * Arming and disarming x86 stepping for a traced task: EFLAGS.TF in the
 * task's user frame, plus DEBUGCTL.BTF and TIF_BLOCKSTEP for hardware
 * block stepping where the CPU honours BTF. Unlike the ptrace helpers in
 * arch/x86/kernel/step.c this never sleeps and never sets TIF_SINGLESTEP
 * or SYSCALL_EXIT_TRAP (both would send an untraced task a SIGTRAP).
 * Everything that sets a bit runs in the task's own context, or on a
 * stopped task under stop_machine.
 */
#include <linux/irqflags.h>
#include <linux/sched.h>
#include <linux/ptrace.h>
#include <linux/sched/task_stack.h>
#include <linux/uaccess.h>
#include <asm/debugreg.h>
#include <asm/processor.h>
#include <asm/ptrace.h>
#include <asm/segment.h>
#include "core/arch_api.h"
#include "wrap_msr.h"
#include "x86.h"

/* Does writing DEBUGCTL.BTF stick? (TCG and KVM drop it.) */
static bool btf_ok;
/* Latched when BTF sticks but traps show it is ignored anyway. */
bool itrace_x86_btf_broken;

int itrace_arch_init(void)
{
	unsigned long flags;
	u64 v, chk = 0;

	local_irq_save(flags);
	if (!itrace_rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &v) &&
	    !itrace_wrmsr_safe(MSR_IA32_DEBUGCTLMSR, v | DEBUGCTLMSR_BTF) &&
	    !itrace_rdmsr_safe(MSR_IA32_DEBUGCTLMSR, &chk)) {
		btf_ok = !!(chk & DEBUGCTLMSR_BTF);
		itrace_wrmsr_safe(MSR_IA32_DEBUGCTLMSR, v);
	}
	local_irq_restore(flags);
	return itrace_x86_fetch_init();
}

void itrace_arch_exit(void)
{
	itrace_x86_fetch_exit();
}

bool itrace_x86_use_btf(void)
{
	return btf_ok && !READ_ONCE(itrace_x86_btf_broken);
}

/*
 * Block mode steps by hardware BTF unless the program's own TF is in
 * play (sigframe.c: pushf, popf and sigreturn must be seen one by one).
 */
bool itrace_x86_want_btf(const struct itrace_slot *s)
{
	return s->mode == ITRACE_MODE_BLOCK && !s->arch.soft &&
	       !s->arch.utf && itrace_x86_use_btf();
}

const char *itrace_arch_block_impl(void)
{
	if (!btf_ok)
		return "software: BTF not honoured";
	if (READ_ONCE(itrace_x86_btf_broken))
		return "software: BTF ignored by this CPU";
	return "hardware BTF";
}

bool itrace_arch_can_trace(struct task_struct *p, char *why, size_t len)
{
	struct pt_regs frame, *regs = &frame;

	/*
	 * Outside kdb @p can die meanwhile: RCU keeps its task_struct, not
	 * its stack (p->stack goes NULL when the stack is freed or cached).
	 */
	if (copy_from_kernel_nofault(&frame, task_pt_regs(p), sizeof(frame))) {
		strscpy(why, "is exiting", len);
		return false;
	}
	if (v8086_mode(regs)) {
		strscpy(why, "runs in vm86 mode", len);
		return false;
	}
	if (regs->cs != __USER_CS && regs->cs != __USER32_CS) {
		strscpy(why, "runs on an LDT code segment", len);
		return false;
	}
	if (regs->flags & X86_EFLAGS_TF) {
		strscpy(why, "already has the trap flag set (single-stepped by a debugger?)",
			len);
		return false;
	}
	return true;
}

bool itrace_arch_foreign_stepping(void)
{
	return test_thread_flag(TIF_SINGLESTEP);
}

/* BTF is per-CPU state that follows TIF_BLOCKSTEP: only touch current. */
void itrace_x86_set_btf(bool on)
{
	unsigned long v = get_debugctlmsr();

	if (on) {
		set_thread_flag(TIF_BLOCKSTEP);
		update_debugctlmsr(v | DEBUGCTLMSR_BTF);
	} else {
		clear_thread_flag(TIF_BLOCKSTEP);
		if (v & DEBUGCTLMSR_BTF)
			update_debugctlmsr(v & ~DEBUGCTLMSR_BTF);
	}
}

/*
 * A tracer is stepping current already. TIF_FORCED_TF says ptrace set TF
 * and makes user_disable_single_step() clear it when the tracer stops
 * stepping: TF is ours too from now on, so drop the flag. ptrace's own
 * BTF goes as well: a tracer's block step is a single step while we
 * trace, as enable_step() makes it when we came first, and so its traps
 * decode the same.
 */
static void share_with_ptrace(void)
{
	clear_thread_flag(TIF_FORCED_TF);
	if (test_thread_flag(TIF_BLOCKSTEP))
		itrace_x86_set_btf(false);
}

/*
 * Own context (task_work), IRQs off (atomic against the stop_machine
 * disarm at unload): TF, and BTF in block mode where it is honoured and
 * nothing asks for software stepping, from the task's next instruction.
 */
void itrace_x86_arm(struct itrace_slot *s)
{
	struct pt_regs *regs = current_pt_regs();

	lockdep_assert_irqs_disabled();
	if (READ_ONCE(itrace_shutdown))
		return;
	s->prev_ip = regs->ip;
	s->arch.btf_miss = 0;
	s->arch.line = false;
	if (test_thread_flag(TIF_SINGLESTEP))
		share_with_ptrace();
	s->arch.btf = itrace_x86_want_btf(s) &&
		      !test_thread_flag(TIF_SINGLESTEP);
	if (s->arch.btf)
		itrace_x86_set_btf(true);
	regs->flags |= X86_EFLAGS_TF;
	s->arch.tf = true;
}

/*
 * The first arming of a task (or of its new image): a TF already set and
 * not a tracer's is the program's own (it set it after `on` was typed).
 */
void itrace_arch_arm_current(struct itrace_slot *s)
{
	struct pt_regs *regs = current_pt_regs();
	unsigned long flags;

	local_irq_save(flags);
	s->arch.utf = (regs->flags & X86_EFLAGS_TF) &&
		      !test_thread_flag(TIF_SINGLESTEP);
	s->arch.soft = s->arch.utf;
	itrace_x86_arm(s);
	local_irq_restore(flags);
}

/*
 * Step trap, task_work or signal delivery, as current: our step bits go,
 * the program's own TF stays.
 */
void itrace_x86_drop_tf(struct itrace_slot *s, struct pt_regs *regs)
{
	if (!s->arch.utf)
		regs->flags &= ~X86_EFLAGS_TF;
	if (test_thread_flag(TIF_BLOCKSTEP))
		itrace_x86_set_btf(false);
	s->arch.btf = false;
	s->arch.tf = false;
}

void itrace_arch_disarm_current(struct itrace_slot *s)
{
	unsigned long flags;

	local_irq_save(flags);
	itrace_x86_drop_tf(s, current_pt_regs());
	local_irq_restore(flags);
}

/*
 * @s's task is off-CPU, so its DEBUGCTL.BTF was already switched out;
 * clearing TIF_BLOCKSTEP keeps __switch_to_xtra from setting it again.
 */
void itrace_arch_disarm_stopped(struct itrace_slot *s)
{
	struct task_struct *p = s->task;

	if (!s->arch.utf)
		task_pt_regs(p)->flags &= ~X86_EFLAGS_TF;
	clear_tsk_thread_flag(p, TIF_BLOCKSTEP);
	s->arch.btf = false;
	s->arch.tf = false;
}

/*
 * ptrace leaves a TF it did not set alone (TIF_FORCED_TF, see
 * share_with_ptrace()), but clears TIF_BLOCKSTEP whenever it resumes a
 * task. If we had armed BTF, the coming trap is a plain step after the
 * straight line BTF ran so far: decode it as that (else three such
 * traps would convict BTF of being ignored by the CPU). A tracer that
 * wrote the flags without TF (PTRACE_SETREGS, POKEUSER) took ours: it
 * goes back if @rearm, else we have no bit left.
 */
bool itrace_arch_ptrace_resume(struct itrace_slot *s, struct task_struct *p,
			       bool rearm)
{
	struct pt_regs *regs = task_pt_regs(p);

	if (s->arch.btf && !test_tsk_thread_flag(p, TIF_BLOCKSTEP)) {
		s->arch.btf = false;
		s->arch.line = true;
	}
	if (rearm && s->arch.tf)
		regs->flags |= X86_EFLAGS_TF;
	else if (!(regs->flags & X86_EFLAGS_TF))
		s->arch.tf = false;
	return regs->flags & X86_EFLAGS_TF;
}

/*
 * copy_thread() copied the parent's TF into the child and
 * user_disable_single_step() leaves it there (it only clears TF under
 * TIF_FORCED_TF). The child inherits the program's own TF (a self-stepping
 * parent's child traps as it would untraced), never ours: without this its
 * first instruction would SIGTRAP it. A followed child's slot takes its TF
 * for the program's when it is armed.
 */
void itrace_arch_fork_child(struct itrace_slot *parent,
			    struct task_struct *child)
{
	if (!parent->arch.utf)
		task_pt_regs(child)->flags &= ~X86_EFLAGS_TF;
}
