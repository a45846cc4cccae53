// SPDX-License-Identifier: GPL-2.0
/*
 * The module's task_work callbacks, queued and retired in one place: the
 * arming work (lifecycle.c), the re-arm work (rearm.c), and the arch's
 * (x86 sigreturn fix-up, POWER's larx fault-in). Queuing runs in any
 * context (kdb, trap, the task itself: task_work_add() is a cmpxchg);
 * itrace_work_done() is the last thing each callback does, in the task's
 * own context; itrace_works_exit() at unload, in process context.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "core.h"
#include "ksym.h"
#include "testhook.h"

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
int itrace_work_add(struct task_struct *p, struct callback_head *cb,
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

/* Take @cb (see itrace_slot_take_work()), then itrace_work_add(). */
int itrace_work_queue(struct task_struct *p, struct callback_head *cb,
		      bool *queued, task_work_func_t fn,
		      enum task_work_notify_mode mode)
{
	if (!itrace_take_flag(queued))
		return -EBUSY;
	return itrace_work_add(p, cb, queued, fn, mode);
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
