// SPDX-License-Identifier: GPL-2.0
/*
 * Living with uprobes on powerpc. uprobes either emulates the probed
 * instruction, or steps it out of line under its own MSR_SE and then
 * clears MSR_SE and MSR_BE, which would end our tracing. So when uprobes
 * is about to take its trap on a task we step, our bits are dropped
 * first; once uprobes is done with the probe, a task_work in the task's
 * own context logs the probed instruction and turns tracing on again.
 */
#include <linux/kdebug.h>
#include <linux/irqflags.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/task_stack.h>
#include <linux/task_work.h>
#include <linux/uprobes.h>
#include "../../kdb-itrace/itrace.h"
#include "../../kdb-itrace/kind.h"
#include "ppc.h"

/* uprobe_pre_sstep_notifier()'s own test: will uprobes take this trap? */
static bool uprobes_will_claim(void)
{
	struct mm_struct *mm = current->mm;

	return mm && (test_bit(MMF_HAS_UPROBES, &mm->flags) ||
		      (current->utask && current->utask->return_instances));
}

/* An out-of-line step is set up and its trap has not been handled yet. */
static bool xol_pending(void)
{
	return current->utask && current->utask->active_uprobe;
}

/*
 * Runs after uprobes in the same return to user mode: do_notify_resume()
 * handles TIF_UPROBE before signals and TIF_NOTIFY_RESUME, and
 * get_signal() runs task_work only after that too.
 */
static void rearm_work(struct callback_head *cb)
{
	struct itrace_arch_slot *a =
		container_of(cb, struct itrace_arch_slot, rearm_work);
	struct itrace_slot *s = container_of(a, struct itrace_slot, arch);
	struct pt_regs *regs = current_pt_regs();
	unsigned long flags;

	/* handle_swbp() chose to step out of line: its trap queues us again */
	if (s->task == current && !xol_pending()) {
		/* IRQs off: this CPU's ring is written from traps too */
		local_irq_save(flags);
		if (atomic_read(&s->state) == ITRACE_ARMED &&
		    !READ_ONCE(itrace_shutdown)) {
			/*
			 * Still at the probe, the instruction did not run:
			 * uprobes restarts it (a racing unregister), or the
			 * trap was the program's own (SIGTRAP follows).
			 */
			if (regs->nip != a->bp_vaddr)
				itrace_emit(s, ITRACE_K_ASYNC, a->bp_vaddr,
					    regs->nip);
			itrace_ppc_resume(s, regs);
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
 * Runs before uprobes' notifier. No check that SE/BE are set at the trap:
 * a task whose out-of-line step was aborted (a signal) lost them without
 * a trap to re-arm from, and the next probe hit brings them back.
 */
void itrace_arch_pre_notify(struct itrace_slot *s, unsigned long val,
			    void *data)
{
	struct die_args *a = data;
	struct pt_regs *regs = a->regs;

	if (val == DIE_BPT && uprobes_will_claim()) {
		/*
		 * Left set, SE would survive an emulated probe and trap only
		 * after the next instruction: two in one record.
		 */
		itrace_ppc_clear_trace(regs);
		s->arch.bp_vaddr = regs->nip;
		queue_rearm(s);
	} else if (val == DIE_SSTEP && xol_pending()) {
		queue_rearm(s);
	}
}
