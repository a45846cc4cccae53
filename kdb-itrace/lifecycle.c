// SPDX-License-Identifier: GPL-2.0
/*
 * Task life cycle around tracing: arming in the task's own context
 * (task_work queued from kdb), the fork/exec/exit tracepoints that keep
 * stray step state away from untraced tasks, the ptrace resume hook that
 * keeps a debugger from ending our stepping, and the global disarm under
 * stop_machine at unload.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/dcache.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched/jobctl.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/stop_machine.h>
#include <linux/tracepoint.h>
#include "itrace.h"
#include "image.h"
#include "ksym.h"
#include "lib/kind.h"
#include "testhook.h"

bool itrace_shutdown;

/*
 * Queue @fn on @p's task_work list, @cb already being ours: the caller
 * set *@queued, which guards @cb until the callback ran; the module
 * reference keeps the callback's text alive until then. On failure
 * *@queued is false again. task_work_add() is a cmpxchg on the task's
 * list: safe in kdb and in trap context. From kdb (another task) pass
 * TWA_NONE: it sends no IPI, and TIF_NOTIFY_RESUME makes the task run
 * the work at its next return to user mode (a running task: at its next
 * tick). For current, TWA_RESUME. -ESRCH: @p is past exit_task_work().
 */
static int work_add(struct task_struct *p, struct callback_head *cb,
		    bool *queued, task_work_func_t fn,
		    enum task_work_notify_mode mode)
{
	int ret = -EBUSY;

	if (!try_module_get(THIS_MODULE))
		goto fail;
	init_task_work(cb, fn);
	ret = itrace_task_work_add(p, cb, mode);
	if (ret) {
		module_put(THIS_MODULE);
		goto fail;
	}
	if (mode == TWA_NONE)
		set_tsk_thread_flag(p, TIF_NOTIFY_RESUME);
	return 0;
fail:
	WRITE_ONCE(*queued, false);
	return ret;
}

/* Take @cb (see itrace_slot_take_work()), then work_add(). */
int itrace_work_queue(struct task_struct *p, struct callback_head *cb,
		      bool *queued, task_work_func_t fn,
		      enum task_work_notify_mode mode)
{
	if (!itrace_take_flag(queued))
		return -EBUSY;
	return work_add(p, cb, queued, fn, mode);
}

/*
 * The last thing every queued callback does. Unload's synchronize_rcu()
 * waits for this preempt-off section; the few instructions after
 * preempt_enable() (the returns out of module text) can still be
 * preempted on a preemptible kernel: unload then waits with
 * synchronize_rcu_tasks() (itrace_works_exit()), whose grace period
 * needs every task to have switched voluntarily or run in user mode.
 */
void itrace_work_done(bool *queued)
{
	preempt_disable();
	WRITE_ONCE(*queued, false);
	module_put(THIS_MODULE);
	preempt_enable();
	itrace_test_hook(ITRACE_TEST_WORK_DONE);
}

/*
 * Unload, last: no task is still on its way out of a callback of ours.
 * Without CONFIG_TASKS_RCU this is synchronize_rcu(), which is enough
 * there (no preemption in module text without it: TASKS_RCU comes with
 * PREEMPTION wherever ftrace or kprobes are built).
 */
void itrace_works_exit(void)
{
	synchronize_rcu_tasks();
}

/*
 * `range <mapping>`: the span of the executable mappings the log names
 * so, from the maps just taken (again at each exec under follow-exec);
 * none: nothing is recorded, and status says why. Before arming: the
 * trap path reads these only once the slot is ARMED.
 */
static void range_resolve(struct itrace_slot *s)
{
	u64 lo = U64_MAX, hi = 0;
	u32 i;

	if (!s->range.map[0])
		return;
	for (i = 0; i < s->map.nr; i++) {
		const struct itrace_map *m = &s->map.map[i];

		if (strncmp(m->name, s->range.map, sizeof(m->name)))
			continue;
		lo = min(lo, m->start);
		hi = max(hi, m->end);
	}
	s->range_on = true;
	s->range_lo = hi ? lo : 0;
	s->range_hi = hi;
}

/* Runs as the traced task on its way back to user mode. */
static void itrace_arm_work(struct callback_head *cb)
{
	struct itrace_slot *s = container_of(cb, struct itrace_slot, work);
	bool now, armed = false;

	if (s->task == current && (current->flags & PF_EXITING)) {
		/*
		 * Queued (from process context) after our exit hook ran:
		 * nobody else will free the slot.
		 */
		itrace_slot_release(s);
	} else if (s->task == current) {
		if (itrace_state(&s->state) == ITRACE_PENDING &&
		    !READ_ONCE(itrace_shutdown)) {
			itrace_maps_take(&s->map);
			itrace_capture_take(s);
			range_resolve(s);
			/* stepping now, or at the function's first entry */
			now = itrace_trigger_setup(s);
			armed = itrace_state_arm(&s->state);
			if (armed && now)
				itrace_arch_arm_current(s);
		}
		/*
		 * `off` before we got here: nothing was armed. Not after we
		 * armed: an `off` since then (another CPU) leaves the step
		 * bit to the next trap, which needs the slot to claim it.
		 */
		if (!armed && itrace_state(&s->state) == ITRACE_STOPPING)
			itrace_slot_release(s);
	}
	itrace_work_done(&s->work_queued);
}

/* followed forks that found the table full (or could not be queued) */
atomic_t itrace_follow_missed;

/*
 * Trace @p: claim a slot (or reuse @s, @p's slot parked in OFF) and
 * queue the task_work that arms @p from its own context. kdb context,
 * process context (debugfs), or the fork tracepoint for a followed child
 * that has not run yet; the caller has checked that @p may be traced.
 * Returns the slot, or ERR_PTR(-ENOSPC) when the table is full,
 * ERR_PTR(-ESRCH) when @p exited (or execed) meanwhile or is past
 * exit_task_work(), ERR_PTR(-EBUSY) when unloading. When the work cannot
 * be queued the slot stays parked (OFF) until the task exits.
 *
 * Outside kdb @p can exit (or exec) at any moment and its hook free the
 * slot, which a fork on another CPU may then claim. So the slot's
 * callback is taken before its state: whoever loses either race backs
 * out without touching what the winner owns.
 */
struct itrace_slot *itrace_start(struct task_struct *p,
				 struct itrace_slot *s, u8 mode,
				 const struct itrace_on_opts *o)
{
	int ret;

	if (s) {
		if (!itrace_slot_take_work(s))
			return ERR_PTR(-EBUSY);
		if (!itrace_state_restart(&s->state)) {
			WRITE_ONCE(s->work_queued, false);
			return ERR_PTR(-ESRCH);
		}
	} else {
		s = itrace_slot_claim();
		if (!s)
			return ERR_PTR(-ENOSPC);
		s->pid = p->pid;
		s->tgid = p->tgid;
		memcpy(s->comm, p->comm, sizeof(s->comm));
		/* a plain refcount_inc; dropped in process context later */
		get_task_struct(p);
		WRITE_ONCE(s->task, p);
	}
	s->mode = mode;
	s->flags = o->flags;
	s->kinds = o->kinds;
	s->emit_kinds = mode == ITRACE_MODE_BLOCK ?
			o->kinds & ITRACE_KINDS_TRANSFER : o->kinds;
	s->max = o->max;
	s->budget = o->max;
	s->ended = ITRACE_END_NONE;
	s->range = o->range;
	memcpy(s->func, o->func, sizeof(s->func));
	memcpy(s->start, o->start, sizeof(s->start));
	memcpy(s->stop, o->stop, sizeof(s->stop));
	s->count = o->count;
	if (o->cond)
		s->trig.cond = *o->cond;
	else
		s->trig.cond.nr = 0;
	WRITE_ONCE(s->trig.state, itrace_slot_has_trigger(s) ?
				  ITRACE_TRIG_SETUP : ITRACE_TRIG_NONE);
	/* an address range now; a mapping's once its maps are taken */
	s->range_on = o->range.hi;
	s->range_lo = o->range.lo;
	s->range_hi = o->range.hi;
	ret = work_add(p, &s->work, &s->work_queued, itrace_arm_work,
		       TWA_NONE);
	if (ret) {
		/* unless @p's exit (or exec) hook freed it meanwhile */
		itrace_state_park(&s->state);
		return ERR_PTR(ret);
	}
	return s;
}

/*
 * Process context, after itrace_start(@p) failed with -ESRCH: @p ran its
 * exit hook before, so free the slot left parked for it.
 */
void itrace_start_undo(struct task_struct *p)
{
	struct itrace_slot *s = itrace_slot_of(p);

	if (s && itrace_state(&s->state) == ITRACE_OFF &&
	    !READ_ONCE(s->work_queued))
		itrace_slot_release(s);
}

/*
 * Tracepoint probes run with preemption off: nothing here sleeps. A
 * followed child is armed by the same task_work as a task named in kdb,
 * on its way out of fork.
 */
static void probe_fork(void *data, struct task_struct *parent,
		       struct task_struct *child)
{
	struct itrace_slot *s = itrace_slot_of(parent);
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
	if (IS_ERR(itrace_start(child, NULL, s->mode, &o)))
		atomic_inc(&itrace_follow_missed);
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

/* Runs as the exiting task: never the last task reference. */
static void probe_exit(void *data, struct task_struct *p)
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
 * included. The task is still asleep: JOBCTL_PTRACE_FROZEN means the
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
	    !(READ_ONCE(p->jobctl) & JOBCTL_PTRACE_FROZEN))
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
