// SPDX-License-Identifier: GPL-2.0
/*
 * Living with uprobes on x86. uprobes takes a TF it did not set for a
 * debugger's and answers it with SIGTRAP (after emulating the probed
 * instruction, or after its out-of-line step), and it drops BTF. So
 * before uprobes sees its int3 on a task we step, TF is handed back;
 * once uprobes is done with the probe, a task_work in the task's own
 * context logs the probed instruction and sets TF again. Signal
 * delivery (sigframe.c) re-arms through the same task_work.
 */
#include <linux/kdebug.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>
#include <linux/uprobes.h>
#include "../../kdb-itrace/itrace.h"
#include "../../kdb-itrace/kind.h"
#include "x86.h"

/* uprobe_pre_sstep_notifier()'s own test: will uprobes take this int3? */
static bool uprobes_will_claim(void)
{
	struct mm_struct *mm = current->mm;

	return mm && (test_bit(MMF_HAS_UPROBES, &mm->flags) ||
		      (current->utask && current->utask->return_instances));
}

static void rearm_work(struct callback_head *cb)
{
	struct itrace_arch_slot *a =
		container_of(cb, struct itrace_arch_slot, rearm_work);
	struct itrace_slot *s = container_of(a, struct itrace_slot, arch);
	struct pt_regs *regs = current_pt_regs();
	/* an out-of-line step still to come: its #DB queues us again */
	bool xol = current->utask && current->utask->active_uprobe;
	unsigned long flags;

	if (s->task == current && !xol) {
		/* IRQs off: this CPU's ring is written from traps too */
		local_irq_save(flags);
		if (atomic_read(&s->state) == ITRACE_ARMED &&
		    !READ_ONCE(itrace_shutdown)) {
			/* the probed instruction, or signal delivery */
			itrace_emit(s, ITRACE_K_ASYNC, a->bp_vaddr, regs->ip);
			itrace_arch_arm_current(s);
		}
		local_irq_restore(flags);
	}
	itrace_work_done(&a->rearm_queued);
}

static void queue_rearm(struct itrace_slot *s)
{
	itrace_work_queue(current, &s->arch.rearm_work, &s->arch.rearm_queued,
			  rearm_work, TWA_RESUME);
}

/*
 * Signal delivery: handle_signal() clears TF for the handler. Set it
 * again from task_work, which runs after the frame is built, so the
 * handler is traced; the record goes from @from (where the signal came
 * in) to the handler.
 */
void itrace_x86_rearm_after(struct itrace_slot *s, unsigned long from)
{
	s->arch.bp_vaddr = from;
	queue_rearm(s);
}

void itrace_arch_pre_notify(struct itrace_slot *s, unsigned long val,
			    void *data)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	if (val == DIE_INT3 && (regs->flags & X86_EFLAGS_TF) &&
	    uprobes_will_claim()) {
		regs->flags &= ~X86_EFLAGS_TF;
		if (test_thread_flag(TIF_BLOCKSTEP))
			itrace_x86_set_btf(false);
		s->arch.btf = false;
		s->arch.bp_vaddr = regs->ip - 1;
		queue_rearm(s);
	} else if (val == DIE_DEBUG && current->utask &&
		   current->utask->active_uprobe) {
		queue_rearm(s);
	}
}
