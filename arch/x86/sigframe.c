// SPDX-License-Identifier: GPL-2.0
/*
 * x86 signal frames that hold our TF. setup_rt_frame() saves EFLAGS, TF
 * included, in the frame and sigreturn restores it, so a task that is in
 * a handler when its tracing ends gets TF back at sigreturn. While we
 * are loaded the OFF state swallows that trap; after an unload nobody
 * would, and the task would die of SIGTRAP. So each frame saved with our
 * TF pins the module until it is gone: popped (sigreturn, or a longjmp
 * past it: the stack pointer is back where the signal came in), or its
 * task execs or exits. rmmod meanwhile fails with "in use" and changes
 * nothing. ppc needs none of this: its sigreturn restores only MSR_LE.
 *
 * The handler itself is traced too: TF is set again once its frame is
 * built (handle_signal() clears it).
 *
 * All of it runs as the task itself (signal delivery with siglock held,
 * its step traps, its exit/exec), so the per-slot stack needs no lock.
 */
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include "../../kdb-itrace/itrace.h"
#include "x86.h"

/* Frames pinning the module, over all tasks (for `itrace status`). */
atomic_t itrace_x86_frames;

static void pin(struct itrace_arch_slot *a, unsigned long lo,
		unsigned long hi)
{
	if (a->nframes < ITRACE_X86_FRAMES) {
		a->frame[a->nframes].lo = lo;
		a->frame[a->nframes].hi = hi;
	}
	a->nframes++;
	atomic_inc(&itrace_x86_frames);
}

static void unpin_top(struct itrace_arch_slot *a)
{
	a->nframes--;
	atomic_dec(&itrace_x86_frames);
	module_put(THIS_MODULE);
}

/*
 * signal_deliver, before the frame is built. The frame lands on the
 * signal stack if the handler asks for it and the task is not already
 * on it; else below the interrupted stack pointer.
 */
void itrace_arch_signal(struct itrace_slot *s, const struct k_sigaction *ka)
{
	struct pt_regs *regs = current_pt_regs();
	struct itrace_arch_slot *a = &s->arch;
	unsigned long sp = regs->sp;

	if (ka->sa.sa_handler == SIG_DFL || ka->sa.sa_handler == SIG_IGN ||
	    !(regs->flags & X86_EFLAGS_TF) ||
	    test_thread_flag(TIF_SINGLESTEP))
		return;
	if (READ_ONCE(itrace_shutdown) || !try_module_get(THIS_MODULE)) {
		/* unloading: no frame may keep our TF */
		regs->flags &= ~X86_EFLAGS_TF;
		return;
	}
	/* get_sigframe()'s choice */
	if ((ka->sa.sa_flags & SA_ONSTACK) && !sas_ss_flags(sp))
		pin(a, current->sas_ss_sp,
		    current->sas_ss_sp + current->sas_ss_size);
	else
		pin(a, sp, ULONG_MAX);
	if (itrace_state(&s->state) == ITRACE_ARMED)
		itrace_rearm_after(s, regs->ip);
}

/*
 * Step trap (or the OFF trap after sigreturn): drop the frames the
 * stack pointer has left. Frames beyond the tracked depth stay pinned
 * until exit or exec.
 */
void itrace_x86_frames_pop(struct itrace_slot *s, unsigned long sp)
{
	struct itrace_arch_slot *a = &s->arch;

	while (a->nframes && a->nframes <= ITRACE_X86_FRAMES) {
		const struct itrace_x86_frame *f = &a->frame[a->nframes - 1];
		bool gone = f->hi == ULONG_MAX ? sp >= f->lo :
						 sp < f->lo || sp >= f->hi;

		if (!gone)
			break;
		unpin_top(a);
	}
}

/* The task execs or exits (or is released at unload): its frames die. */
void itrace_arch_slot_release(struct itrace_slot *s)
{
	while (s->arch.nframes)
		unpin_top(&s->arch);
}
