// SPDX-License-Identifier: GPL-2.0
/*
 * A slot's start and end, the transitions of state.h that claim, arm
 * and free it: itrace_start() claims (or restarts) a slot for a task and
 * queues its arming, from kdb, process context or the fork tracepoint;
 * itrace_arm_work() arms it as the task itself, from task_work;
 * itrace_slot_release() frees it, in process context only (it may drop
 * the last task reference). The tracepoint probes that call these are
 * lifecycle.c's, the `on comm` watch's are watch.c's.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/task_work.h>
#include "core.h"
#include "image.h"
#include "lib/kind.h"

/* Runs as the traced task on its way back to user mode. */
void itrace_arm_work(struct callback_head *cb)
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
			/* a name taken since itrace_start() (`on comm`) */
			memcpy(s->comm, current->comm, sizeof(s->comm));
			itrace_remap_take(s);
			itrace_capture_take(s);
			itrace_keep_setup(s);
			itrace_values_setup(s);
			itrace_stack_begin(s);
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
	s->keep = o->keep;
	s->args = o->args;
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
	ret = itrace_work_add(p, &s->work, &s->work_queued,
			      itrace_arm_work, TWA_NONE);
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
 * Process context only (it may drop the last task reference). The slot
 * keeps pid, comm and map so `itrace log` can still name old records; a
 * frozen one (keep.c) keeps its state too, FROZEN, until `off`.
 */
void itrace_slot_release(struct itrace_slot *s)
{
	struct task_struct *p;

	int was = itrace_state_release(&s->state, READ_ONCE(s->frozen));

	if (was == ITRACE_FREE || was == ITRACE_FROZEN)
		return;
	itrace_arch_slot_release(s);
	itrace_trigger_release(s);
	atomic_dec(&itrace_nr_live);
	p = s->task;
	WRITE_ONCE(s->task, NULL);
	if (p)
		put_task_struct(p);
}

/*
 * Process context (exit, exec): free every slot of @p but @keep (NULL:
 * all). A task has one, but `on comm` reaching it on one CPU while it
 * execs a watched name on another can give it two.
 */
void itrace_slot_release_all(struct task_struct *p, struct itrace_slot *keep)
{
	unsigned int i, n = itrace_slots_used();

	for (i = 0; i < n; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (s != keep && READ_ONCE(s->task) == p &&
		    itrace_state(&s->state) != ITRACE_FREE)
			itrace_slot_release(s);
	}
}
