// SPDX-License-Identifier: GPL-2.0
/*
 * The program's own TF, kept apart from ours. A traced task runs with
 * EFLAGS.TF set for us, but what it can see of TF, and the traps it asks
 * for by setting TF itself, must stay as if we were not there. The slot
 * keeps utf, the TF the program believes it has, and at each of our
 * single-step traps (itrace_x86_utf_step()):
 *  - a trap after an instruction begun with utf set is the program's
 *    too: the die notifier passes it on and it gets its SIGTRAP;
 *  - pushf stored our TF: its word gets utf instead;
 *  - popf, iret, uiret loaded a TF: that is utf now, and ours is set again.
 * Signal delivery (itrace_arch_signal()): the frame saves utf, not our
 * TF, so no frame holds our TF at rest: a child forked in a handler, a
 * frame abandoned by longjmp or edited by the handler, an unload while a
 * handler runs: none leaves a stray TF behind. The handler starts with
 * utf clear, as the kernel clears TF for it. Sigreturn then restores
 * utf and stepping would end there: so just before a sigreturn's
 * system call, the task's own work (sigret_work()) reads the program's
 * TF from the frame into sigret_tf and puts ours into the frame; the
 * trap after the sigreturn takes sigret_tf for utf. From that write to
 * that trap the frame holds our TF and the module stays pinned (a task
 * stopped right there keeps rmmod failing with "in use").
 *
 * Hardware BTF traps only at branches: pushf, popf and sigreturn inside
 * a block are not seen one by one. So a task that sets TF itself or
 * takes a signal while traced is block-stepped in software from then on
 * (soft), and what BTF ran before that is the README's one exception.
 *
 * All of it runs as the task itself: its step traps (IRQs off), signal
 * delivery (siglock held, IRQs off), its task_work. No lock needed.
 */
#include <linux/module.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task_stack.h>
#include <linux/signal.h>
#include <linux/uaccess.h>
#include <asm/sigframe.h>
#include <asm/unistd.h>
#include "core/arch_api.h"
#include "lib/kind.h"
#include "lib/insn_decode.h"
#include "x86.h"

/* Sigreturns in flight whose frame holds our TF (for `itrace status`). */
atomic_t itrace_x86_sigrets;
/* pushf words we could not give the program's TF back (not writable). */
atomic_long_t itrace_x86_pushf_missed;

/* Where a sigreturn's frame keeps the saved EFLAGS and ip, each @size bytes. */
struct sigret_at {
	unsigned long flags;
	unsigned long ip;
	unsigned int size;
};

/* A field of a frame's sigcontext, as an offset into the frame. */
#define SC_OFF(frame, sc, field)	offsetof(struct frame, sc.field)

/* The frame at @base, its saved EFLAGS and ip at these offsets. */
static bool sigret_at(struct sigret_at *at, unsigned long base,
		      size_t flags, size_t ip, unsigned int size)
{
	at->flags = base + flags;
	at->ip = base + ip;
	at->size = size;
	return true;
}

/*
 * Where the frame a sigreturn at @regs will restore lives: right above
 * the stack pointer (the handler's return popped pretcode; the ia32
 * sigreturn stub popped the signal number too). False if @regs is not
 * at a sigreturn of a kind we know the frame of.
 */
static bool sigret_frame(struct pt_regs *regs, struct sigret_at *at)
{
	unsigned long nr = regs->ax;

	if (user_64bit_mode(regs)) {
		if (nr == __NR_rt_sigreturn)
			return sigret_at(at, regs->sp - 8,
					 SC_OFF(rt_sigframe, uc.uc_mcontext, flags),
					 SC_OFF(rt_sigframe, uc.uc_mcontext, ip), 8);
#ifdef CONFIG_X86_X32_ABI
		if (nr == ITRACE_NR_X32_RT_SIGRETURN)
			return sigret_at(at, regs->sp - 8,
					 SC_OFF(rt_sigframe_x32, uc.uc_mcontext, flags),
					 SC_OFF(rt_sigframe_x32, uc.uc_mcontext, ip), 8);
#endif
		return false;
	}
#ifdef CONFIG_IA32_EMULATION
	if ((u32)nr == ITRACE_NR_IA32_RT_SIGRETURN)
		return sigret_at(at, (u32)regs->sp - 4,
				 SC_OFF(rt_sigframe_ia32, uc.uc_mcontext, flags),
				 SC_OFF(rt_sigframe_ia32, uc.uc_mcontext, ip), 4);
	if ((u32)nr == ITRACE_NR_IA32_SIGRETURN)
		return sigret_at(at, (u32)regs->sp - 8,
				 SC_OFF(sigframe_ia32, sc, flags),
				 SC_OFF(sigframe_ia32, sc, ip), 4);
#endif
	return false;
}

/* Is the instruction at @ip a system call gate of @regs' mode? */
static bool at_syscall(struct pt_regs *regs, unsigned long ip)
{
	u8 op[2];

	if (copy_from_user_nmi(op, (const void __user *)ip, sizeof(op)))
		return false;
	if (user_64bit_mode(regs))
		return op[0] == 0x0f && op[1] == 0x05;
	return op[0] == 0xcd && op[1] == 0x80;
}

static void sigret_unpin(struct itrace_arch_slot *a)
{
	a->sigret = false;
	atomic_dec(&itrace_x86_sigrets);
	module_put(THIS_MODULE);
}

/* Own context, on the way back to user mode, right before a sigreturn. */
static void sigret_work(struct callback_head *cb)
{
	struct itrace_arch_slot *a = container_of(cb, struct itrace_arch_slot,
						  sigret_work);
	struct itrace_slot *s = container_of(a, struct itrace_slot, arch);
	struct pt_regs *regs = current_pt_regs();
	unsigned long fl = 0, ip = 0;
	struct sigret_at at;

	/* a signal came first: this sigreturn waits for its handler */
	if (s->task != current || !a->tf || a->sigret ||
	    regs->ip != a->sigret_ip)
		goto done;
	if (!sigret_frame(regs, &at) ||
	    copy_from_user(&fl, (const void __user *)at.flags, at.size) ||
	    copy_from_user(&ip, (const void __user *)at.ip, at.size))
		goto done;
	if (!try_module_get(THIS_MODULE))
		goto done;
	a->sigret_tf = fl & X86_EFLAGS_TF;
	a->sigret_resume = ip;
	fl |= X86_EFLAGS_TF;
	if (copy_to_user((void __user *)at.flags, &fl, at.size)) {
		/* the sigreturn will fail on it too (SIGSEGV) */
		module_put(THIS_MODULE);
		goto done;
	}
	a->sigret = true;
	atomic_inc(&itrace_x86_sigrets);
done:
	itrace_work_done(&a->sigret_queued);
}

/*
 * Step trap, re-arming, ax holding a sigreturn's number (trap.c checks
 * that first): is current about to run that sigreturn? Then have its
 * work give the frame our TF first.
 */
void itrace_x86_sigret_check(struct itrace_slot *s, struct pt_regs *regs)
{
	struct itrace_arch_slot *a = &s->arch;
	struct sigret_at at;

	if (!sigret_frame(regs, &at) || !at_syscall(regs, regs->ip))
		return;
	a->sigret_ip = regs->ip;
	a->soft = true;
	itrace_work_queue(current, &a->sigret_work, &a->sigret_queued,
			  sigret_work, TWA_RESUME);
}

/* pushf at @sp stored our TF: give the program its own (@utf). */
static void pushf_fix(struct pt_regs *regs, bool utf)
{
	void __user *p = (void __user *)regs->sp;
	u16 w;

	/* bit 8 is in the low word whatever the operand size */
	if (copy_from_user_nmi(&w, p, sizeof(w)))
		goto missed;
	w = utf ? w | X86_EFLAGS_TF : w & ~X86_EFLAGS_TF;
	if (!copy_to_user_nofault(p, &w, sizeof(w)))
		return;
missed:
	atomic_long_inc(&itrace_x86_pushf_missed);
}

/* What instruction @d, begun with the program's TF @utf, did to it. */
static void utf_apply(struct itrace_arch_slot *a, struct pt_regs *regs,
		      const struct itrace_x86_insn *d, bool utf)
{
	if (d->eflags == ITRACE_X86_EF_PUSH) {
		pushf_fix(regs, utf);
	} else if (d->eflags == ITRACE_X86_EF_POP) {
		a->utf = regs->flags & X86_EFLAGS_TF;
		if (a->utf)
			a->soft = true;
	}
}

/* EFLAGS bits an ordinary instruction changes: what r11 may differ in. */
#define ARITH_FLAGS	(X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | \
			 X86_EFLAGS_ZF | X86_EFLAGS_SF | X86_EFLAGS_OF | \
			 X86_EFLAGS_RF)

/*
 * The syscall instruction at @ip copied RFLAGS into r11, our TF with
 * them, and the way back to user mode leaves r11 so: give it the
 * program's TF (@utf) if it still holds those flags, that is if the one
 * instruction run since did not write r11. An instruction reading r11
 * right after a syscall has seen ours (README, exceptions).
 */
static void syscall_r11(struct pt_regs *regs, unsigned long ip, bool utf)
{
	if (utf || !(regs->r11 & X86_EFLAGS_TF) ||
	    ((regs->r11 ^ regs->flags) & ~ARITH_FLAGS) ||
	    !user_64bit_mode(regs) || !at_syscall(regs, ip))
		return;
	regs->r11 &= ~X86_EFLAGS_TF;
}

/*
 * The instruction @d at @ip ran, begun with the program's TF @utf, and
 * our trap came after it, or after the next one if @d is a system call
 * (x86 traps an instruction after a syscall): apply what it did to utf.
 */
static void utf_ran(struct itrace_arch_slot *a, struct pt_regs *regs,
		    unsigned long ip, const struct itrace_x86_insn *d,
		    bool utf)
{
	struct itrace_x86_insn n;
	unsigned long next;

	if (d->kind != ITRACE_K_SYSCALL) {
		utf_apply(a, regs, d, utf);
		return;
	}
	next = ip + d->len;
	syscall_r11(regs, ip, utf);
	if (regs->ip != next && itrace_x86_decode_user(NULL, regs, next, &n) &&
	    regs->ip == next + n.len)
		utf_apply(a, regs, &n, utf);
}

/*
 * The trap after a sigreturn whose frame held our TF: the frame's TF is
 * the program's, and the instruction the frame resumed at ran begun
 * with it (a pushf there stored it, a popf there loaded another).
 */
static bool sigret_trap(struct itrace_arch_slot *a, struct pt_regs *regs)
{
	struct itrace_x86_insn n;
	bool utf = a->sigret_tf;

	a->utf = utf;
	sigret_unpin(a);
	if (itrace_x86_decode_user(NULL, regs, a->sigret_resume, &n))
		utf_ran(a, regs, a->sigret_resume, &n, utf);
	return utf;
}

/*
 * Our single-step trap, the instruction @d at s->prev_ip having run (NULL:
 * not known, a hardware block step), when it is not the common case that
 * trap.c's utf_step() settles. Returns whether the program had set TF
 * itself when the instruction began: then the trap is the program's too.
 */
bool itrace_x86_utf_slow(struct itrace_slot *s, struct pt_regs *regs,
			 const struct itrace_x86_insn *d)
{
	struct itrace_arch_slot *a = &s->arch;
	bool utf = a->utf;

	if (unlikely(a->sigret) && s->prev_ip == a->sigret_ip)
		return sigret_trap(a, regs);
	if (d)
		utf_ran(a, regs, s->prev_ip, d, utf);
	return utf;
}

/*
 * signal_deliver, before a handler's frame is built: the frame saves the
 * program's TF, not ours, and the handler starts with none of its own
 * (handle_signal() clears TF).
 */
bool itrace_arch_signal(struct itrace_slot *s)
{
	struct pt_regs *regs = current_pt_regs();
	struct itrace_arch_slot *a = &s->arch;

	lockdep_assert_irqs_disabled();
	if (unlikely(a->sigret) && regs->ip != a->sigret_ip) {
		/*
		 * The sigreturn ran and unblocked a pending signal, which is
		 * delivered before the trap after the sigreturn could come:
		 * this is that trap's moment (the frame's TF is in regs).
		 */
		a->utf = a->sigret_tf;
		sigret_unpin(a);
	}
	if (!a->tf)
		return false;
	itrace_x86_drop_tf(s, regs);	/* the program's TF stays */
	a->utf = false;
	a->soft = true;
	return true;
}

bool itrace_arch_slot_busy(const struct itrace_arch_slot *a)
{
	return READ_ONCE(a->sigret_queued);
}

/* The task execs or exits (or is released at unload). */
void itrace_arch_slot_release(struct itrace_slot *s)
{
	if (s->arch.sigret)
		sigret_unpin(&s->arch);
	s->arch.utf = false;
	s->arch.soft = false;
}
