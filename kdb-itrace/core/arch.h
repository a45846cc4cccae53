/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one interface between the arch-neutral core and arch/<arch>/:
 * arming and disarming a task, recognising and decoding our traps.
 * Each arch provides itrace_arch_types.h (struct itrace_arch_slot) on
 * the include path and implements these functions.
 */
#ifndef _ITRACE_ARCH_H
#define _ITRACE_ARCH_H

#include <linux/types.h>
#include "itrace_arch_types.h"

struct itrace_slot;
struct pt_regs;
struct task_struct;
struct die_args;
struct k_sigaction;

/*
 * Probe the CPU once at load time (e.g. does it honour block stepping)
 * and allocate what the trap path needs; itrace_arch_exit() frees it.
 */
int itrace_arch_init(void);
void itrace_arch_exit(void);

/* How block mode is implemented here, for `on` and `status`. */
const char *itrace_arch_block_impl(void);

/*
 * kdb or process context (under rcu_read_lock): can @p be traced at
 * all? On refusal, fill @why (one short phrase) and return false. In
 * process context @p may be dying: its stack can be gone.
 */
bool itrace_arch_can_trace(struct task_struct *p, char *why, size_t len);

/*
 * Die-notifier context: does this event look like a user-mode step trap
 * we may have caused? Cheap; the core then looks up current's slot.
 */
bool itrace_arch_is_step_trap(unsigned long val, void *data);

/*
 * The uprobes hand-off (kdb-itrace/rearm.c owns the policy; the arch
 * names its die events ITRACE_DIE_BREAKPOINT, the trap uprobes claims
 * for a probe hit, and ITRACE_DIE_XOL_STEP, its out-of-line step's).
 * Die-notifier context, IRQs off, ahead of uprobes, current's slot @s
 * armed and the breakpoint trap uprobes' to claim: drop our step bits
 * from @regs, so that neither uprobes' emulation nor its out-of-line
 * step meets them, and set *@bp to the probed instruction. False if
 * none of ours was set: nothing to take back.
 */
bool itrace_arch_uprobe_drop(struct itrace_slot *s, struct pt_regs *regs,
			     unsigned long *bp);

/* task_work, IRQs off, @s armed: resume stepping current after uprobes. */
void itrace_arch_uprobe_resume(struct itrace_slot *s, struct pt_regs *regs);

/*
 * A uprobe handler (the task's own context) at a function's entry: where
 * that call returns to (x86: the word at the stack pointer; POWER: lr),
 * or 0 if it cannot be read.
 */
unsigned long itrace_arch_return_address(struct pt_regs *regs);

/*
 * Optional, own context: how far past a function symbol's address @addr
 * calls enter its code (POWER ELFv2: the local entry point, past the
 * TOC setup). By default 0.
 */
#ifndef itrace_arch_func_entry
static inline unsigned long itrace_arch_func_entry(unsigned long addr)
{
	return 0;
}
#endif

/*
 * Our trap, for current's slot @s: if @log, record what the step executed
 * through itrace_emit(); then re-arm if @rearm, else disarm. Returns the
 * notifier verdict (NOTIFY_STOP unless something else is pending).
 */
int itrace_arch_step(struct itrace_slot *s, void *data, bool log,
		     bool rearm);

/*
 * A step trap on a traced task that a ptrace tracer asked for (see
 * itrace_arch_foreign_stepping()): if @log, record what the step
 * executed, as for our own. The trap and the step bits stay the
 * tracer's: returns NOTIFY_DONE, so it gets its SIGTRAP.
 */
int itrace_arch_foreign_step(struct itrace_slot *s, void *data, bool log);

/*
 * sched_waking, IRQs off: a ptrace tracer wakes @p, the task of slot
 * @s, out of a ptrace stop it holds (JOBCTL_PTRACE_FROZEN: @p is
 * off-CPU and nobody else can wake it), after ptrace_resume() or
 * ptrace_detach() set or cleared the tracer's step bits in @p's user
 * registers. Note what the coming traps will be; if @rearm, put back
 * any step bit of ours that ptrace took. Returns whether a step bit of
 * ours is still set in @p (false: nothing of ours is left to disarm).
 */
bool itrace_arch_ptrace_resume(struct itrace_slot *s, struct task_struct *p,
			       bool rearm);

/* Own context (task_work), IRQs enabled: start / stop stepping current. */
void itrace_arch_arm_current(struct itrace_slot *s);
void itrace_arch_disarm_current(struct itrace_slot *s);

/* stop_machine context: @s's task is off-CPU; drop every bit we set. */
void itrace_arch_disarm_stopped(struct itrace_slot *s);

/*
 * signal_deliver for current's slot @s, a handler's frame about to be
 * built (siglock held, IRQs off): take our step bits out of what the
 * frame saves (a child forked in the handler, or sigreturn after an
 * unload, would trap on them; a handler reading its context would see
 * them). Returns whether any was set; the core then resumes stepping in
 * the handler or finishes an `off`.
 */
bool itrace_arch_signal(struct itrace_slot *s);

/* Process context: the slot's task is gone, execs, or we unload. */
void itrace_arch_slot_release(struct itrace_slot *s);

/*
 * sched_process_fork: @child of the task of slot @parent has not run
 * yet; it must not start with a step bit of ours.
 */
void itrace_arch_fork_child(struct itrace_slot *parent,
			    struct task_struct *child);

/*
 * kdb context: an optional arch line for `itrace status` (counters of
 * arch-specific recoveries). Returns false if there is nothing to say.
 */
bool itrace_arch_status(char *buf, size_t len);

/*
 * Optional: is arch state of the slot still referenced by its last task
 * (a task_work of the arch's own still queued)? Such a slot must not be
 * claimed for another task. An arch with such state defines
 * itrace_arch_slot_busy in itrace_arch_types.h; by default, never.
 */
#ifndef itrace_arch_slot_busy
static inline bool itrace_arch_slot_busy(const struct itrace_arch_slot *a)
{
	return false;
}
#endif

/* One user register, by the name the arch's debuggers give it. */
struct itrace_reg {
	const char *name;
	u64 val;
};

#define ITRACE_REGS_MAX		48

/*
 * The names, among itrace_arch_regs()', of the ABI's first six argument
 * registers at a function's entry: arg0..arg5 of `if` conditions.
 */
extern const char *const itrace_arch_arg_regs[6];

/*
 * Trap context, reads only, @regs a task's user registers at a
 * function's first instruction: its first @n (at most 3) arguments in
 * ABI order into @v, or at the instruction a return went to: the value
 * returned, into v[0]. Each returns how many it wrote (0: none this ABI
 * can tell, e.g. a 32-bit task's arguments on its stack).
 */
unsigned int itrace_arch_call_args(const struct pt_regs *regs,
				   unsigned int n, u64 *v);
unsigned int itrace_arch_return_value(const struct pt_regs *regs, u64 *v);

/*
 * At current's system-call exit (the sys_exit tracepoint), @regs its
 * registers: the call's number, and the kernel's return value, -errno on
 * failure, from the tracepoint's @ret (which some kernels give in the
 * ABI's form: POWER's generic entry, 7.3 here, a positive errno).
 */
long itrace_arch_syscall_nr(struct pt_regs *regs);
long itrace_arch_syscall_ret(struct pt_regs *regs, long ret);

/*
 * Any context, reads only: the user registers saved in @regs (a task's
 * pt_regs at its kernel entry), the instruction pointer first, then in
 * the order gdb shows them. Returns how many (at most ITRACE_REGS_MAX).
 */
unsigned int itrace_arch_regs(const struct pt_regs *regs,
			      struct itrace_reg *out);

/*
 * ITRACE_CALL_LEN_MAX, in itrace_arch_types.h: the longest call
 * instruction; a return lands at most that far past its call (the
 * shadow stack of calls.h).
 */

/* Is current being stepped by someone else (ptrace), right now? */
bool itrace_arch_foreign_stepping(void);

/*
 * Any context, IRQs off: bracket an indirect call into kernel text that
 * ksym.c found by name, text the kernel's build may not have made a call
 * target (x86 IBT seals functions whose address it never takes). Returns
 * what _end needs. Optional: an arch that needs it defines
 * itrace_arch_foreign_call_begin in itrace_arch_types.h; the default is
 * an ordinary call.
 */
#ifndef itrace_arch_foreign_call_begin
static inline u64 itrace_arch_foreign_call_begin(void)
{
	return 0;
}

static inline void itrace_arch_foreign_call_end(u64 saved)
{
}
#endif

#endif /* _ITRACE_ARCH_H */
