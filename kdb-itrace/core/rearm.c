// SPDX-License-Identifier: GPL-2.0
/*
 * Handing the step bits to uprobes and taking them back: the policy,
 * the same on every arch. uprobes answers a step trap it did not ask for
 * as a debugger's (SIGTRAP), and its out-of-line step ends by clearing
 * the step bits, ours with its own. So when uprobes is about to claim a
 * breakpoint trap on a task we step, the arch drops our bits first
 * (itrace_arch_uprobe_drop()); once uprobes is done with the probe, the
 * re-arm work, in the task's own context on its way back to user mode,
 * logs the probed instruction as an async record and has the arch
 * resume stepping (itrace_arch_uprobe_resume()). Signal delivery on x86
 * re-arms through the same work (itrace_rearm_after()).
 *
 * Contexts: itrace_rearm_pre_notify() runs in the die notifier (IRQs
 * off, ahead of uprobes' notifier); the work runs as the task, after
 * uprobes: do_notify_resume() handles TIF_UPROBE before task_work, and
 * get_signal() runs task_work only after that too.
 */
#include <linux/irqflags.h>
#include <linux/kdebug.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/uprobes.h>
#include "core.h"
#include "lib/kind.h"
#include "testhook.h"
#include "wrap_mm.h"

/* uprobe_pre_sstep_notifier()'s own test: will uprobes take this trap? */
static bool uprobes_will_claim(void)
{
	struct mm_struct *mm = current->mm;

	return mm && (itrace_mm_has_uprobes(mm) ||
		      (current->utask && current->utask->return_instances));
}

/* An out-of-line step is set up and its trap has not been handled yet. */
static bool xol_pending(void)
{
	return current->utask && current->utask->active_uprobe;
}

static void rearm_work(struct callback_head *cb)
{
	struct itrace_slot *s = container_of(cb, struct itrace_slot,
					     rearm_work);
	struct pt_regs *regs = current_pt_regs();
	unsigned long flags, ip;

	itrace_test_hook(ITRACE_TEST_REARM_WORK);
	/* handle_swbp() chose to step out of line: its trap queues us again */
	if (s->task == current && !xol_pending()) {
		/* IRQs off: this CPU's ring is written from traps too */
		local_irq_save(flags);
		if (itrace_state(&s->state) == ITRACE_ARMED &&
		    itrace_slot_stepping(s) && !READ_ONCE(itrace_shutdown)) {
			/*
			 * Still at the probe, the instruction did not run:
			 * uprobes restarts it (a racing unregister), or the
			 * trap was the program's own (SIGTRAP follows).
			 */
			ip = instruction_pointer(regs);
			if (ip != s->rearm_from)
				itrace_emit(s, ITRACE_K_ASYNC, s->rearm_from,
					    ip);
			itrace_arch_uprobe_resume(s, regs);
		} else {
			/*
			 * `off` (or the trigger's end) came meanwhile: no
			 * step bit of ours is left to finish it with a trap.
			 */
			itrace_state_stopped(&s->state);
		}
		local_irq_restore(flags);
	}
	itrace_work_done(&s->rearm_queued);
}

static void queue_rearm(struct itrace_slot *s)
{
	itrace_work_queue(current, &s->rearm_work, &s->rearm_queued,
			  rearm_work, TWA_RESUME);
}

/*
 * Current's slot @s: resume stepping from task_work, logging the move
 * from @from to wherever the task then is (x86 signal delivery: the
 * handler, once its frame is built).
 */
void itrace_rearm_after(struct itrace_slot *s, unsigned long from)
{
	s->rearm_from = from;
	queue_rearm(s);
}

/*
 * Die notifier, ahead of uprobes, for current's slot @s when it is not
 * being stepped: OFF, STOPPING (an `off` while the task stepped toward a
 * probe, or while uprobes held the probe), or waiting for its trigger.
 * A step bit of ours still set at a probe (x86: also one sigreturn
 * restored) would have uprobes answer its step of the probed instruction
 * with SIGTRAP: drop it, and resume nothing. At the trap that ends
 * uprobes' out-of-line step, queue the work anyway: it finishes an `off`
 * that came while uprobes held the task (no trap of ours would). A
 * debugger's step bits are its own.
 */
void itrace_rearm_drop_stray(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs)
{
	unsigned long bp;

	lockdep_assert_irqs_disabled();
	if (val == ITRACE_DIE_XOL_STEP) {
		if (xol_pending())
			queue_rearm(s);
		return;
	}
	if (val != ITRACE_DIE_BREAKPOINT || !uprobes_will_claim() ||
	    itrace_arch_foreign_stepping())
		return;
	if (itrace_arch_uprobe_drop(s, regs, &bp))
		itrace_state_stopped(&s->state);
}

/*
 * Die notifier, ahead of uprobes, for current's armed slot @s. No check
 * that a step bit is set at an out-of-line step's trap: a task whose
 * step was aborted (a signal) lost them without a trap to re-arm from,
 * and the next probe hit brings them back.
 */
void itrace_rearm_pre_notify(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs)
{
	unsigned long bp;

	lockdep_assert_irqs_disabled();
	if (val == ITRACE_DIE_BREAKPOINT && uprobes_will_claim()) {
		if (itrace_arch_uprobe_drop(s, regs, &bp))
			itrace_rearm_after(s, bp);
	} else if (val == ITRACE_DIE_XOL_STEP && xol_pending()) {
		queue_rearm(s);
	}
}
