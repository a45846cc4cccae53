// SPDX-License-Identifier: GPL-2.0
/*
 * Values in records (lib/values.h says what each kind's values mean): a
 * system call's number and return value, a call's first arguments and a
 * return's value (`on ... args N`).
 *
 * A system call's record is made at the step trap after it, when the
 * number is gone from the registers and the return value may be too
 * (block mode traps later still). So the raw_syscalls sys_exit
 * tracepoint notes each traced thread's (number, return value, where
 * it returns to) in the slot, and the trap path's record takes the note
 * whose return address is its own `to`: a note the trap path never asks
 * for (rt_sigreturn returns elsewhere) is passed over by the next. Notes
 * are taken only while the thread is stepped (not while a trigger waits
 * for its entry), and stepping's start forgets the older ones.
 * Hooking sys_exit sends every thread of the machine through the slow
 * system-call exit path (the tracepoint's register function flags them
 * all), so it is hooked at the first arming, not at load, and stays
 * until unload (unhooking needs a context that may sleep, which `off`
 * from kdb and a task's exit do not have).
 *
 * A trigger's entry (`func F args N`) is logged as an async record when
 * stepping starts after its uprobe, the registers past F's first
 * instruction by then: its handler keeps F's arguments for that record.
 * Arguments and return values are read from the trap's own registers:
 * they hold them only when the record is the step that just ran
 * (to == the instruction pointer), which is every call and return the
 * arches log but the ones replayed after a system call.
 *
 * Contexts: itrace_values_setup() own (the arming work: may sleep); the
 * probe, a tracepoint's (preemption off, as the thread itself);
 * itrace_values_take() trap context. The probe and the trap path of a
 * thread run as that thread, one after the other, so a slot's notes need
 * no lock; readers never look at them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mutex.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/tracepoint.h>
#include "core.h"
#include "lib/values.h"

static struct tracepoint *sys_exit_tp;
static bool hooked;
static DEFINE_MUTEX(hook_lock);

/* As the thread, leaving a system call: note its number and value. */
static void probe_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	struct itrace_slot *s;
	struct itrace_sysret *n;

	if (likely(!atomic_read(&itrace_nr_live)))
		return;
	s = itrace_slot_of(current);
	/* not while a trigger waits: nothing would take the note */
	if (!s || itrace_state(&s->state) != ITRACE_ARMED ||
	    !itrace_slot_stepping(s))
		return;
	n = &s->sysret[s->sysret_head % ITRACE_SYSRETS];
	n->ip = instruction_pointer(regs);
	n->nr = itrace_arch_syscall_nr(regs);
	n->ret = itrace_arch_syscall_ret(regs, ret);
	s->sysret_head++;
}

static void find_sys_exit(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_exit"))
		sys_exit_tp = tp;
}

/* Load time: find the tracepoint (none: syscall records carry no values). */
void itrace_values_init(void)
{
	for_each_kernel_tracepoint(find_sys_exit, NULL);
	if (!sys_exit_tp)
		pr_info("no sys_exit tracepoint: system-call records carry no number or value\n");
}

/* Own context (the arming work), may sleep: hook sys_exit once. */
static void values_hook(void)
{
	might_sleep();
	if (READ_ONCE(hooked) || !sys_exit_tp)
		return;
	mutex_lock(&hook_lock);
	if (!hooked && !tracepoint_probe_register(sys_exit_tp, probe_sys_exit,
						  NULL))
		WRITE_ONCE(hooked, true);
	mutex_unlock(&hook_lock);
}

/* Unload, after every slot is disarmed. */
void itrace_values_exit(void)
{
	if (!hooked)
		return;
	tracepoint_probe_unregister(sys_exit_tp, probe_sys_exit, NULL);
	tracepoint_synchronize_unregister();
	hooked = false;
}

/* Own context, arming @s: what its records carry, no stale notes. */
void itrace_values_setup(struct itrace_slot *s)
{
	s->sysret_tail = s->sysret_head;
	s->entry_nval = 0;
	s->val_kinds = 1u << ITRACE_K_SYSCALL;
	if (s->args)
		s->val_kinds |= ITRACE_KINDS_FRAME;
	/* a trigger's entry is logged as async (rearm.c) */
	if (s->args && (s->func[0] || s->start[0]))
		s->val_kinds |= 1u << ITRACE_K_ASYNC;
	values_hook();
}

/*
 * The entry's uprobe handler (trigger.c), as the task, @regs at the
 * function's first instruction: its arguments, for the async record
 * that starts the invocation once stepping resumes (the registers have
 * moved on by then).
 */
void itrace_values_entry(struct itrace_slot *s, struct pt_regs *regs)
{
	/* stepping starts: no note of the untraced run before counts */
	s->sysret_tail = s->sysret_head;
	if (s->args)
		s->entry_nval = itrace_arch_call_args(regs, s->args,
						      s->entry_val);
}

/*
 * Trap context: the note of the system call that returned to @to, the
 * newest one (a restarted call leaves an older note at the same place);
 * it and the ones before it are used up, the ones after it (later
 * system calls of one block-mode line) wait for their records.
 */
static unsigned int sysret_take(struct itrace_slot *s, unsigned long to,
				u64 *v)
{
	u32 head = s->sysret_head, i;

	if (head - s->sysret_tail > ITRACE_SYSRETS)
		s->sysret_tail = head - ITRACE_SYSRETS;
	for (i = head; i != s->sysret_tail; i--) {
		const struct itrace_sysret *n =
			&s->sysret[(i - 1) % ITRACE_SYSRETS];

		if (n->ip == to) {
			v[ITRACE_VAL_SYSNR] = n->nr;
			v[ITRACE_VAL_SYSRET] = n->ret;
			s->sysret_tail = i;
			return 2;
		}
	}
	return 0;
}

/* The trigger entry's arguments, if @from is its place: once. */
static unsigned int entry_take(struct itrace_slot *s, unsigned long from,
			       u64 *v)
{
	unsigned int i, n = s->entry_nval;

	if (!n || from != s->trig.probe[ITRACE_PROBE_ENTRY].ip)
		return 0;
	for (i = 0; i < n; i++)
		v[i] = s->entry_val[i];
	s->entry_nval = 0;
	return n;
}

/*
 * Trap context, IRQs off, a record of @kind from @from to @to of @s
 * being made: its values into @v (ITRACE_REC_VALS of room); returns how
 * many.
 */
unsigned int itrace_values_take(struct itrace_slot *s, unsigned int kind,
				unsigned long from, unsigned long to, u64 *v)
{
	struct pt_regs *regs = current_pt_regs();

	lockdep_assert_irqs_disabled();
	if (kind == ITRACE_K_SYSCALL)
		return sysret_take(s, to, v);
	if (kind == ITRACE_K_ASYNC)
		return entry_take(s, from, v);
	if (instruction_pointer(regs) != to)
		return 0;
	if (kind == ITRACE_K_RET)
		return itrace_arch_return_value(regs, v);
	return itrace_arch_call_args(regs, s->args, v);
}
