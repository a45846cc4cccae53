// SPDX-License-Identifier: GPL-2.0
/*
 * Task life cycle around tracing: arming in the task's own context
 * (task_work queued from kdb), the fork/exec/exit tracepoints that keep
 * stray step state away from untraced tasks, the rename tracepoint that
 * `on comm` arms by, the ptrace resume hook that
 * keeps a debugger from ending our stepping, and the global disarm under
 * stop_machine at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/stop_machine.h>
#include <linux/tracepoint.h>
#include "core.h"
#include "wrap_ptrace.h"
#include "wrap_sched_tp.h"

/* followed forks that found the table full (or could not be queued) */
atomic_t itrace_follow_missed;

/*
 * Tracepoint probes run with preemption off: nothing here sleeps. A
 * followed child is armed by the same task_work as a task named in kdb,
 * on its way out of fork.
 */
static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct itrace_slot *s = itrace_slot_of(parent), *cs;
	struct itrace_on_opts o;
	u8 want;

	if (!s)
		return;
	itrace_arch_fork_child(s, child);
	if (child->flags & (PF_KTHREAD | PF_IO_WORKER))
		return;
	want = same_thread_group(parent, child) ? ITRACE_F_THREADS :
						  ITRACE_F_FOLLOW;
	if (!(s->flags & want) || itrace_state(&s->state) != ITRACE_ARMED ||
	    READ_ONCE(itrace_shutdown))
		return;
	itrace_slot_opts(s, &o);
	cs = itrace_start(child, NULL, s->mode, &o);
	if (IS_ERR(cs))
		atomic_inc(&itrace_follow_missed);
	else
		itrace_stack_fork(cs, s, child);
}

/*
 * The new image starts without TF; drop what else we set. Then either
 * untrace, or (follow-exec) re-arm from task_work, which also takes the
 * new image's maps (that needs mmap_lock, not allowed here). The gen
 * bump keeps the old image's records from being named with new symbols.
 * A task untraced now (or before) whose new name `on comm` watches is
 * armed anew, as a new task.
 */
static void probe_exec(void *data, struct task_struct *p, pid_t old_pid,
		       struct linux_binprm *bprm)
{
	struct itrace_slot *s = itrace_slot_of(current);

	if (!s) {
		itrace_watch_exec(current);
		return;
	}
	itrace_slot_release_all(current, s);
	itrace_arch_disarm_current(s);
	if ((s->flags & ITRACE_F_EXEC) && !READ_ONCE(itrace_shutdown) &&
	    itrace_state_exec(&s->state)) {
		s->gen++;
		itrace_code_forget(&s->code);
		/* the old image's records no longer count as the slot's */
		s->gen_records = s->records;
		/* a non-leader thread that execs takes over the leader's pid */
		s->pid = current->pid;
		memcpy(s->comm, current->comm, sizeof(s->comm));
		WRITE_ONCE(s->map.nr, 0);
		if (!itrace_work_queue(current, &s->work, &s->work_queued,
				       itrace_arm_work, TWA_RESUME))
			return;
	}
	itrace_slot_release(s);
	/* a program of a watched name: traced anew, by the watch's options */
	itrace_watch_exec(current);
}

/*
 * A task takes a new name: prctl(PR_SET_NAME), a write to
 * /proc/PID/comm (@p may be another thread of the writer's process),
 * exec. Before the name is copied, under task_lock(@p) up to 6.12:
 * nothing here sleeps or takes a lock. `on comm` arms @p if it takes a
 * watched name (itrace_watch_rename(); an exec is left to probe_exec()).
 */
static void probe_rename(void *data, struct task_struct *p, const char *comm)
{
	itrace_watch_rename(p, comm);
}

/* Runs as the exiting task: never the last task reference. */
static void probe_exit(ITRACE_TP_EXIT_ARGS)
{
	itrace_slot_release_all(p, NULL);
}

/*
 * As current, before a signal frame is built (siglock held, IRQs off).
 * The frame keeps no step bit of ours; stepping resumes in the handler
 * once its frame is built (the re-arm work, as after a uprobe). No bit
 * of ours set: an `off` that came while uprobes held them, its step out
 * of line aborted by this signal, has no trap or work left to finish
 * it. A debugger's stepping (and the default actions) is left alone.
 */
static void probe_signal(void *data, int sig, struct kernel_siginfo *info,
			 struct k_sigaction *ka)
{
	struct itrace_slot *s = itrace_slot_of(current);

	if (s && s->keep && s->kept.recs)
		itrace_keep_signal(s, sig, info, ka);
	if (!s || ka->sa.sa_handler == SIG_DFL || ka->sa.sa_handler == SIG_IGN ||
	    itrace_arch_foreign_stepping())
		return;
	if (!itrace_arch_signal(s)) {
		if (!READ_ONCE(s->rearm_queued))
			itrace_state_stopped(&s->state);
	} else if (itrace_state(&s->state) == ITRACE_ARMED &&
		   !READ_ONCE(itrace_shutdown)) {
		itrace_rearm_after(s, instruction_pointer(current_pt_regs()));
	} else {
		itrace_state_stopped(&s->state);
	}
}

/*
 * A ptrace tracer resuming (or detaching from) a traced task has just
 * rewritten its step bits: on powerpc PTRACE_CONT clears MSR_SE/BE, ours
 * included. The task is still asleep: a frozen ptrace stop means the
 * tracer waited for it to be off-CPU (ptrace_check_attach()) and nobody
 * else can wake it, so its user registers are as safe to edit here as
 * they were for ptrace a moment ago. A task_work cannot do this: it
 * would run in get_signal() before the stop, not after it.
 *
 * sched_waking runs for every wakeup in the system: two reads of hot
 * data send all the others away.
 */
static void probe_waking(void *data, struct task_struct *p)
{
	struct itrace_slot *s;
	int st;

	if (likely(!atomic_read(&itrace_nr_live)) ||
	    !itrace_ptrace_frozen(p))
		return;
	s = itrace_slot_of(p);
	if (!s)
		return;
	/* IRQs are off: atomic against the stop_machine disarm at unload */
	st = itrace_state(&s->state);
	if (st == ITRACE_ARMED && !READ_ONCE(itrace_shutdown))
		itrace_arch_ptrace_resume(s, p, true);
	else if (st == ITRACE_STOPPING &&
		 !itrace_arch_ptrace_resume(s, p, false))
		itrace_state_stopped(&s->state);
}

struct tp_hook {
	const char *name;
	void *probe;
	struct tracepoint *tp;
};

static struct tp_hook hooks[] = {
	{ "sched_process_fork", probe_fork },
	{ "sched_process_exec", probe_exec },
	{ "sched_process_exit", probe_exit },
	{ "signal_deliver", probe_signal },
	{ "sched_waking", probe_waking },
	{ "task_rename", probe_rename },
};

static void find_tp(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		if (!strcmp(tp->name, hooks[i].name))
			hooks[i].tp = tp;
}

int itrace_lifecycle_init(void)
{
	unsigned int i;
	int ret;

	for_each_kernel_tracepoint(find_tp, NULL);
	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].tp) {
			pr_err("tracepoint %s not found (CONFIG_TRACEPOINTS?)\n",
			       hooks[i].name);
			ret = -ENOENT;
			goto undo;
		}
		ret = tracepoint_probe_register(hooks[i].tp, hooks[i].probe,
						NULL);
		if (ret)
			goto undo;
	}
	return 0;
undo:
	while (i--)
		tracepoint_probe_unregister(hooks[i].tp, hooks[i].probe, NULL);
	tracepoint_synchronize_unregister();
	return ret;
}

void itrace_lifecycle_exit(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++)
		tracepoint_probe_unregister(hooks[i].tp, hooks[i].probe, NULL);
	tracepoint_synchronize_unregister();
}

/* Every task is off-CPU at a safe point: their user frames are ours. */
static int disarm_all(void *unused)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (itrace_state(&s->state) != ITRACE_FREE && s->task)
			itrace_arch_disarm_stopped(s);
	}
	return 0;
}

void itrace_disarm_all_stopped(void)
{
	stop_machine(disarm_all, NULL, NULL);
}
