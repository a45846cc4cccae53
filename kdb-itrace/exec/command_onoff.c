// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace on` and `itrace off` for the executor (command.c), in kdb or in
 * process context. Task pointers come from RCU lookups and are used
 * inside one rcu_read_lock() section: in kdb no grace period can end
 * while every other CPU is stopped, in process context the read-side
 * section itself keeps each task_struct (and its stack) from being
 * freed; a traced task gets its own reference from itrace_start().
 */
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include "core/image.h"
#include "core/itrace.h"
#include "lib/kind.h"
#include "commands.h"

#define outf(ctx, ...)	itrace_out_printf((ctx)->out, __VA_ARGS__)

/*
 * Why @p cannot be traced, or NULL, with the error to return. @s is its
 * slot, if it has one: an OFF slot (traced earlier, then turned off)
 * is reused. In process context these are checks of a moment:
 * itrace_start() rechecks what matters with cmpxchg.
 */
static const char *refuse(struct task_struct *p, struct itrace_slot *s,
			  char *why, size_t len, int *err)
{
	*err = -EINVAL;
	if (p->flags & (PF_KTHREAD | PF_IO_WORKER))
		return "is a kernel thread";
	*err = -ESRCH;
	/*
	 * A user task loses its mm only on the way out. From debugfs the
	 * task may be exiting on another CPU while we look: its mm can be
	 * gone before we see PF_EXITING.
	 */
	if (p->flags & PF_EXITING || p->exit_state || !READ_ONCE(p->mm))
		return "is exiting";
	*err = -EBUSY;
	if (s && itrace_state(&s->state) == ITRACE_STOPPING)
		return "is being turned off; try again after go";
	if (s && itrace_state(&s->state) != ITRACE_OFF)
		return "is already traced";
	if (s && READ_ONCE(s->work_queued))
		return "is still being released; try again after go";
	*err = -EINVAL;
	if (!s && !itrace_arch_can_trace(p, why, len))
		return why;
	*err = 0;
	return NULL;
}

struct on_count {
	unsigned int more;	/* other threads armed */
	unsigned int exiting;	/* ... that exited under our feet */
	unsigned int full;	/* ... that found the table full */
};

/*
 * itrace_start(), and what only process context needs after a failure:
 * -ESRCH means @p already ran exit_task_work(), so its exit hook, which
 * frees its slot, ran before: free the slot parked for it here. In kdb
 * a task that passed the PF_EXITING test cannot get that far.
 */
static struct itrace_slot *start(struct task_struct *p,
				 struct itrace_slot *s,
				 const struct itrace_cmd *cmd,
				 struct itrace_ctx *ctx)
{
	struct itrace_slot *r = itrace_start(p, s, cmd->mode, &cmd->on);

	if (r == ERR_PTR(-ESRCH) && !ctx->stopped)
		itrace_start_undo(p);
	return r;
}

/*
 * Under `threads`, the other live threads of @p's process that can be
 * traced now. Counted first, so that a table too small for all of them
 * changes nothing.
 */
static unsigned int other_threads(struct task_struct *p, bool go,
				  const struct itrace_cmd *cmd,
				  struct itrace_ctx *ctx, struct on_count *c)
{
	struct task_struct *t;
	unsigned int n = 0;
	char why[80];
	int err;

	for_each_thread(p, t) {
		struct itrace_slot *ts = itrace_slot_of(t);
		struct itrace_slot *r;

		if (t == p || refuse(t, ts, why, sizeof(why), &err))
			continue;
		n++;
		if (!go)
			continue;
		r = start(t, ts, cmd, ctx);
		if (r == ERR_PTR(-ENOSPC))
			c->full++;
		else if (IS_ERR(r))
			c->exiting++;
	}
	return n;
}

static int table_full(unsigned int need, struct itrace_ctx *ctx)
{
	unsigned int nfree = itrace_slots_free();

	outf(ctx, "itrace on: table full: need %u slot%s, %u free (max_tasks=%u)\n",
	     need, need == 1 ? "" : "s", nfree, itrace_nr_slots);
	return -ENOSPC;
}

static void print_armed(const struct itrace_cmd *cmd, struct itrace_slot *s,
			const struct on_count *c, struct itrace_ctx *ctx)
{
	unsigned int ok = c->more - c->exiting - c->full;
	char opts[ITRACE_ON_OPTS_MAX], comm[ITRACE_COMM_SHOWN];

	itrace_comm(comm, s->comm);
	if (s->mode == ITRACE_MODE_BLOCK)
		outf(ctx, "itrace: pid %d (%s) armed, mode block (%s)",
		     cmd->pid, comm, itrace_arch_block_impl());
	else
		outf(ctx, "itrace: pid %d (%s) armed, mode insn",
		     cmd->pid, comm);
	itrace_on_options(opts, sizeof(opts), &cmd->on);
	if (strcmp(opts, "-"))
		outf(ctx, ", %s", opts);
	if (cmd->on.cond) {
		itrace_trigger_cond_print(cmd->on.cond, opts, sizeof(opts));
		outf(ctx, " if %s", opts);
	}
	if (c->more)
		outf(ctx, "; %u more thread%s armed", ok,
		     ok == 1 ? "" : "s");
	if (c->exiting)
		outf(ctx, ", %u exiting", c->exiting);
	if (c->full)
		outf(ctx, ", %u not armed: table full", c->full);
	outf(ctx, "\n");
}

/*
 * `on comm <name>`: watch the name, then arm every task of that name now
 * (each thread is a task with its own name). Tasks that cannot be
 * traced (kernel threads, traced already, ...) are counted, not named.
 */
static noinline_for_stack int on_comm(const struct itrace_cmd *cmd,
				      struct itrace_ctx *ctx)
{
	unsigned int armed = 0, skipped = 0, full = 0;
	struct task_struct *g, *t;
	char why[80], opts[ITRACE_ON_OPTS_MAX];
	int err = itrace_watch_add(cmd->comm, cmd->mode, &cmd->on);

	if (err == -EEXIST)
		outf(ctx, "itrace on: comm %s is watched already (itrace off comm %s first)\n",
		     cmd->comm, cmd->comm);
	else if (err == -ENOSPC)
		outf(ctx,
		     "itrace on: comm watch table full (itrace status; itrace off comm <name>)\n");
	else if (err)
		outf(ctx, "itrace on: the comm watch table is being changed; try again after go\n");
	if (err)
		return err;
	rcu_read_lock();
	for_each_process_thread(g, t) {
		struct itrace_slot *s, *ts = itrace_slot_of(t);

		if (strncmp(t->comm, cmd->comm, ITRACE_COMM_LEN))
			continue;
		if (refuse(t, ts, why, sizeof(why), &err)) {
			skipped++;
			continue;
		}
		s = start(t, ts, cmd, ctx);
		if (s == ERR_PTR(-ENOSPC))
			full++;
		else if (IS_ERR(s))
			skipped++;
		else
			armed++;
	}
	rcu_read_unlock();
	itrace_on_options(opts, sizeof(opts), &cmd->on);
	outf(ctx, "itrace: watching comm %s, mode %s%s%s: %u task%s armed now",
	     cmd->comm, cmd->mode == ITRACE_MODE_BLOCK ? "block" : "insn",
	     strcmp(opts, "-") ? ", " : "", strcmp(opts, "-") ? opts : "",
	     armed, armed == 1 ? "" : "s");
	if (skipped)
		outf(ctx, ", %u not (traced already, exiting, or not traceable)",
		     skipped);
	if (full)
		outf(ctx, ", %u not: table full", full);
	outf(ctx, "\n");
	return 0;
}

static noinline_for_stack int on_task(const struct itrace_cmd *cmd,
				      struct itrace_ctx *ctx)
{
	struct on_count c = { 0 };
	struct task_struct *p;
	struct itrace_slot *s;
	char why[80], comm[ITRACE_COMM_SHOWN];
	unsigned int need;
	const char *no;
	int err = 0;

	rcu_read_lock();
	p = itrace_task_of(cmd->pid);
	if (!p) {
		outf(ctx, "itrace on: no task with pid %d\n", cmd->pid);
		err = -ESRCH;
		goto out;
	}
	s = itrace_slot_of(p);
	no = refuse(p, s, why, sizeof(why), &err);
	if (no) {
		outf(ctx, "itrace on: pid %d (%s) %s\n", cmd->pid,
		     itrace_comm(comm, p->comm), no);
		goto out;
	}
	need = !s;
	if (cmd->on.flags & ITRACE_F_THREADS)
		need += other_threads(p, false, cmd, ctx, &c);
	if (need > itrace_slots_free()) {
		err = table_full(need, ctx);
		goto out;
	}
	s = start(p, s, cmd, ctx);
	/* only in process context: a followed fork took the slot first */
	if (s == ERR_PTR(-ENOSPC)) {
		err = table_full(need, ctx);
		goto out;
	}
	if (IS_ERR(s)) {
		outf(ctx, "itrace on: pid %d (%s) cannot be armed (exiting or unloading)\n",
		     cmd->pid, itrace_comm(comm, p->comm));
		err = PTR_ERR(s);
		goto out;
	}
	if (cmd->on.flags & ITRACE_F_THREADS)
		c.more = other_threads(p, true, cmd, ctx, &c);
	print_armed(cmd, s, &c, ctx);
out:
	rcu_read_unlock();
	return err;
}

/*
 * Where `on ... if` compiles its condition before anything changes: one
 * for kdb and xmon (one CPU runs, every other stopped), one for debugfs
 * (its commands run one at a time, under its lock). Two, because kdb may
 * stop the machine in the middle of a debugfs command. itrace_start()
 * copies it into the slot.
 */
static struct itrace_cond cond_stopped, cond_live;

/*
 * debugfs (process context): are the places `on` names (func, start,
 * stop) in task @pid's files? A bad one gets one line and fails the
 * write before anything changes; kdb and xmon cannot read files, so
 * there the arming finds out and `status` says. 0 also when there is
 * no such task or it is exiting: on_task() then says so.
 */
static noinline_for_stack int check_places(const struct itrace_cmd *cmd,
					   struct itrace_ctx *ctx)
{
	static const char *const opt[] = { "func", "start", "stop" };
	const char *const place[] = { cmd->on.func, cmd->on.start,
				      cmd->on.stop };
	struct itrace_symmap *m;
	struct task_struct *p;
	struct itrace_where w;
	struct mm_struct *mm;
	const char *why;
	unsigned int i;
	int err = 0;

	rcu_read_lock();
	p = itrace_task_of(cmd->pid);
	if (p)
		get_task_struct(p);
	rcu_read_unlock();
	if (!p)
		return 0;
	mm = get_task_mm(p);
	m = mm ? kzalloc(sizeof(*m), GFP_KERNEL) : NULL;
	if (!m)
		goto out;
	itrace_maps_of(m, mm);
	for (i = 0; i < ARRAY_SIZE(opt) && !err; i++) {
		int r = place[i][0] ? itrace_where_find(m, place[i], &w, &why) : 0;

		/* -ENXIO: a library not loaded yet, which the trigger waits for */
		if (!r || r == -ENXIO)
			continue;
		outf(ctx, "itrace on: %s %s: %s\n", opt[i], place[i], why);
		err = -ENOENT;
	}
	itrace_maps_drop(m);
	kfree(m);
out:
	if (mm)
		mmput(mm);
	put_task_struct(p);
	return err;
}

int itrace_cmd_on(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	struct itrace_cond *c = ctx->stopped ? &cond_stopped : &cond_live;
	struct itrace_cmd on = *cmd;
	char err[160];

	if (cmd->cond_argc) {
		if (itrace_trigger_cond_compile(c, cmd->cond_argc,
						cmd->cond_argv, ctx->kdb_words,
						err, sizeof(err))) {
			outf(ctx, "%s\n", err);
			return -EINVAL;
		}
		on.on.cond = c;
	}
	if (!ctx->stopped && on.pid && itrace_slot_opts_places(&on.on) &&
	    check_places(&on, ctx))
		return -ENOENT;
	return on.comm[0] ? on_comm(&on, ctx) : on_task(&on, ctx);
}

/*
 * Not armed yet: the arming work sees STOPPING and releases the slot.
 * Waiting for its function: no step bit of ours to wait for. A trigger's
 * uprobes go at once through debugfs; kdb and xmon can neither sleep nor
 * queue work: there they go at the task's next hit of one (trigger.c),
 * its exit or exec, or the unload. Only a slot that was ARMED: before,
 * its arming work may be registering them.
 */
static void off_one(struct itrace_slot *s, const struct itrace_ctx *ctx)
{
	int was = itrace_state_stop(&s->state);

	if (was == ITRACE_FREE)
		return;
	/* a history frozen while the task lives: let go at its exit */
	WRITE_ONCE(s->frozen, ITRACE_FROZE_NOT);
	if (!itrace_slot_stepping(s))
		itrace_state_stopped(&s->state);
	if (was == ITRACE_ARMED && !ctx->stopped)
		itrace_trigger_release(s);
}

static bool is_on(const struct itrace_slot *s)
{
	int st = itrace_state(&s->state);

	return st == ITRACE_ARMED || st == ITRACE_PENDING;
}

/* `off comm <name>`: the watch, and every traced task of that name. */
static int off_comm(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	int err = itrace_watch_remove(cmd->comm);
	unsigned int i, n = 0;

	if (err == -EBUSY) {
		outf(ctx,
		     "itrace off: the comm watch table is being changed; try again after go\n");
		return err;
	}
	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (!is_on(s) || strncmp(s->comm, cmd->comm, ITRACE_COMM_LEN))
			continue;
		off_one(s, ctx);
		n++;
	}
	if (err && !n) {
		outf(ctx,
		     "itrace off: comm %s is not watched, and no task of that name is traced\n",
		     cmd->comm);
		return err;
	}
	outf(ctx, "itrace: comm %s: %s, %u task%s off\n", cmd->comm,
	     err ? "was not watched" : "no longer watched", n,
	     n == 1 ? "" : "s");
	return 0;
}

/* The frozen histories (keep.c) of @pid (0: all) let go; how many. */
static unsigned int thaw(int pid)
{
	unsigned int i, n = 0;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (itrace_state(&s->state) == ITRACE_FROZEN &&
		    (!pid || s->pid == pid || s->tgid == pid))
			n += itrace_keep_thaw(s);
	}
	return n;
}

/*
 * `off <pid>`: that thread, or every traced thread of process <pid>;
 * and the frozen histories of that pid, or of all.
 */
int itrace_cmd_off(const struct itrace_cmd *cmd, struct itrace_ctx *ctx)
{
	struct itrace_slot *s, *named = NULL;
	char comm[ITRACE_COMM_SHOWN];
	unsigned int i, n = 0, thawed;

	if (cmd->comm[0])
		return off_comm(cmd, ctx);
	thawed = thaw(cmd->pid);
	for (i = 0; i < itrace_nr_slots; i++) {
		s = &itrace_slots[i];
		if (!is_on(s) ||
		    (cmd->pid && s->pid != cmd->pid && s->tgid != cmd->pid))
			continue;
		if (s->pid == cmd->pid || !named)
			named = s;
		off_one(s, ctx);
		n++;
	}
	if (!cmd->pid) {
		outf(ctx, "itrace: %u task%s off", n, n == 1 ? "" : "s");
		if (thawed)
			outf(ctx, ", %u frozen histor%s let go", thawed,
			     thawed == 1 ? "y" : "ies");
		outf(ctx, "\n");
	} else if (!n && thawed) {
		outf(ctx, "itrace: pid %d: its frozen history let go\n",
		     cmd->pid);
	} else if (!n) {
		outf(ctx, "itrace off: pid %d is not traced\n", cmd->pid);
		return -ESRCH;
	} else if (n == 1) {
		outf(ctx, "itrace: pid %d (%s) off\n", named->pid,
		     itrace_comm(comm, named->comm));
	} else {
		outf(ctx, "itrace: process %d (%s): %u threads off\n",
		     cmd->pid, itrace_comm(comm, named->comm), n);
	}
	return 0;
}
