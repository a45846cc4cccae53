// SPDX-License-Identifier: GPL-2.0
/*
 * The `itrace` kdb command: parses with parse.c and executes against the
 * table and the log. Runs with every other CPU stopped, possibly inside
 * any lock or half-way through our own trap path: no sleeping, no
 * allocation, no locks, output only through kdb_printf().
 */
#include <linux/kdb.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "itrace.h"
#include "kind.h"

static const char *mode_name(const struct itrace_slot *s)
{
	return s->mode == ITRACE_MODE_BLOCK ? "block" : "insn";
}

/* The `on` options as typed (canonical order), or "-" for none. */
static void flags_str(char *buf, size_t len, u8 flags, u16 kinds)
{
	int w, k;

	w = snprintf(buf, len, "%s%s%s",
		     flags & ITRACE_F_THREADS ? " threads" : "",
		     flags & ITRACE_F_FOLLOW ? " follow" : "",
		     flags & ITRACE_F_EXEC ? " follow-exec" : "");
	if (kinds != ITRACE_KINDS_ALL && w < len)
		w += snprintf(buf + w, len - w, " kinds %s",
			      kinds ? "" : "none");
	for (k = 0; k < ITRACE_K_NR && kinds != ITRACE_KINDS_ALL; k++)
		if ((kinds & (1u << k)) && w < len)
			w += snprintf(buf + w, len - w, "%s%s",
				      buf[w - 1] == ' ' ? "" : ",",
				      itrace_kind_name(k));
	if (!w)
		snprintf(buf, len, "-");
	else	/* drop the leading blank */
		memmove(buf, buf + 1, strlen(buf));
}

static void cmd_help(void)
{
	const char *const *l;

	for (l = itrace_help_lines; *l; l++)
		kdb_printf("%s\n", *l);
	kdb_printf("block mode here: %s; log: %u records per CPU\n",
		   itrace_arch_block_impl(), itrace_log_per_cpu());
}

static void cmd_status(void)
{
	unsigned int i, n = 0, used = 0, missed;
	char line[200], opts[120];
	const u64 *dropped = itrace_log_dropped();

	for (i = 0; i < itrace_nr_slots; i++)
		used += atomic_read(&itrace_slots[i].state) != ITRACE_FREE;
	kdb_printf("itrace: %u/%u slots used, block mode: %s, log %u records/cpu\n",
		   used, itrace_nr_slots, itrace_arch_block_impl(),
		   itrace_log_per_cpu());
	if (itrace_arch_status(line, sizeof(line)))
		kdb_printf("itrace: %s\n", line);
	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];
		int st = atomic_read(&s->state);

		if (st == ITRACE_FREE)
			continue;
		if (!n++)
			kdb_printf("%7s %-16s %-8s %-5s %12s %12s %10s %7s %s\n",
				   "pid", "comm", "state", "mode", "steps",
				   "records", "dropped", "tgid", "options");
		flags_str(opts, sizeof(opts), s->flags, s->kinds);
		kdb_printf("%7d %-16s %-8s %-5s %12llu %12llu %10llu %7d %s\n",
			   s->pid, s->comm, itrace_state_name(st),
			   mode_name(s), s->steps, s->records, dropped[i],
			   s->tgid, opts);
	}
	if (!n)
		kdb_printf("itrace: no task traced (itrace on <pid>)\n");
	for (i = 0, n = 0; i < itrace_nr_slots; i++)
		n += READ_ONCE(itrace_slots[i].work_queued) &&
		     atomic_read(&itrace_slots[i].state) == ITRACE_PENDING;
	if (n)
		kdb_printf("itrace: %u task%s not yet back in user mode to arm: rmmod refused\n",
			   n, n == 1 ? "" : "s");
	missed = atomic_read(&itrace_follow_missed);
	if (missed)
		kdb_printf("itrace: %u followed task%s not traced: table full (max_tasks=%u)\n",
			   missed, missed == 1 ? "" : "s", itrace_nr_slots);
}

/*
 * Why @p cannot be traced, or NULL. @s is its slot, if it has one: a
 * LINGER slot (traced earlier, then turned off) is reused.
 */
static const char *refuse(struct task_struct *p, struct itrace_slot *s,
			  char *why, size_t len)
{
	if (p->flags & (PF_KTHREAD | PF_IO_WORKER))
		return "is a kernel thread";
	/* before the mm test: a zombie has no mm either */
	if (p->flags & PF_EXITING || p->exit_state)
		return "is exiting";
	if (!p->mm)
		return "is a kernel thread";
	if (s && atomic_read(&s->state) == ITRACE_OFF)
		return "is being turned off; try again after go";
	if (s && atomic_read(&s->state) != ITRACE_LINGER)
		return "is already traced";
	if (s && READ_ONCE(s->work_queued))
		return "is still being released; try again after go";
	if (!s && !itrace_arch_can_trace(p, why, len))
		return why;
	return NULL;
}

/*
 * Under `threads`, the other live threads of @p's process that can be
 * traced now. Counted first, so that a table too small for all of them
 * changes nothing.
 */
static unsigned int other_threads(struct task_struct *p, bool start,
				  const struct itrace_cmd *cmd,
				  unsigned int *failed)
{
	struct task_struct *t;
	unsigned int n = 0;
	char why[80];

	for_each_thread(p, t) {
		struct itrace_slot *ts = itrace_slot_of(t);

		if (t == p || refuse(t, ts, why, sizeof(why)))
			continue;
		n++;
		if (!start)
			continue;
		ts = itrace_start(t, ts, cmd->mode, cmd->flags, cmd->kinds);
		if (IS_ERR(ts))
			(*failed)++;
	}
	return n;
}

static void cmd_on(const struct itrace_cmd *cmd)
{
	struct task_struct *p;
	struct itrace_slot *s;
	unsigned int more = 0, failed = 0, need;
	const char *no;
	char why[80], opts[120];

	/*
	 * With every other CPU stopped no grace period can end, so the tasks
	 * found under RCU stay valid for the whole command.
	 */
	rcu_read_lock();
	p = pid_task(find_pid_ns(cmd->pid, &init_pid_ns), PIDTYPE_PID);
	if (!p) {
		kdb_printf("itrace on: no task with pid %d\n", cmd->pid);
		goto out;
	}
	s = itrace_slot_of(p);
	no = refuse(p, s, why, sizeof(why));
	if (no) {
		kdb_printf("itrace on: pid %d (%s) %s\n", cmd->pid, p->comm, no);
		goto out;
	}
	need = !s;
	if (cmd->flags & ITRACE_F_THREADS)
		need += other_threads(p, false, cmd, NULL);
	if (need > itrace_slots_free()) {
		kdb_printf("itrace on: table full: need %u slot%s, %u free (max_tasks=%u)\n",
			   need, need == 1 ? "" : "s", itrace_slots_free(),
			   itrace_nr_slots);
		goto out;
	}
	s = itrace_start(p, s, cmd->mode, cmd->flags, cmd->kinds);
	if (IS_ERR(s)) {
		kdb_printf("itrace on: pid %d (%s) cannot be armed (exiting or unloading)\n",
			   cmd->pid, p->comm);
		goto out;
	}
	if (cmd->flags & ITRACE_F_THREADS)
		more = other_threads(p, true, cmd, &failed);
	if (s->mode == ITRACE_MODE_BLOCK)
		kdb_printf("itrace: pid %d (%s) armed, mode block (%s)",
			   cmd->pid, s->comm, itrace_arch_block_impl());
	else
		kdb_printf("itrace: pid %d (%s) armed, mode insn", cmd->pid,
			   s->comm);
	if (cmd->flags || cmd->kinds != ITRACE_KINDS_ALL) {
		flags_str(opts, sizeof(opts), cmd->flags, cmd->kinds);
		kdb_printf(", %s", opts);
	}
	if (more)
		kdb_printf("; %u more thread%s armed", more - failed,
			   more - failed == 1 ? "" : "s");
	if (failed)
		kdb_printf(", %u exiting", failed);
	kdb_printf("\n");
out:
	rcu_read_unlock();
}

static void off_one(struct itrace_slot *s)
{
	/* not armed yet: the task_work will see OFF and release the slot */
	if (atomic_cmpxchg(&s->state, ITRACE_PENDING, ITRACE_OFF) ==
	    ITRACE_PENDING)
		return;
	atomic_cmpxchg(&s->state, ITRACE_ARMED, ITRACE_OFF);
}

static bool is_on(const struct itrace_slot *s)
{
	int st = atomic_read(&s->state);

	return st == ITRACE_ARMED || st == ITRACE_PENDING;
}

/* `off <pid>`: that thread, or every traced thread of process <pid>. */
static void cmd_off(const struct itrace_cmd *cmd)
{
	struct itrace_slot *s, *named = NULL;
	unsigned int i, n = 0;

	for (i = 0; i < itrace_nr_slots; i++) {
		s = &itrace_slots[i];
		if (!is_on(s) ||
		    (cmd->pid && s->pid != cmd->pid && s->tgid != cmd->pid))
			continue;
		if (s->pid == cmd->pid || !named)
			named = s;
		off_one(s);
		n++;
	}
	if (!cmd->pid)
		kdb_printf("itrace: %u task%s off\n", n, n == 1 ? "" : "s");
	else if (!n)
		kdb_printf("itrace off: pid %d is not traced\n", cmd->pid);
	else if (n == 1)
		kdb_printf("itrace: pid %d (%s) off\n", named->pid, named->comm);
	else
		kdb_printf("itrace: process %d (%s): %u threads off\n",
			   cmd->pid, named->comm, n);
}

static int itrace_kdb(int argc, const char **argv)
{
	struct itrace_cmd cmd;
	char err[128];

	if (itrace_parse(argc, argv + 1, &cmd, err, sizeof(err))) {
		kdb_printf("%s\n", err);
		return 0;
	}
	switch (cmd.op) {
	case ITRACE_OP_HELP:
		cmd_help();
		break;
	case ITRACE_OP_STATUS:
		cmd_status();
		break;
	case ITRACE_OP_ON:
		cmd_on(&cmd);
		break;
	case ITRACE_OP_OFF:
		cmd_off(&cmd);
		break;
	case ITRACE_OP_LOG:
		itrace_log_show(&cmd);
		break;
	case ITRACE_OP_CLEAR:
		itrace_log_clear();
		kdb_printf("itrace: log cleared\n");
		break;
	}
	return 0;
}

/*
 * `on`/`off` edit another task's register state, hence REG_WRITE; with
 * no arguments the command only shows status, which is always safe.
 */
static kdbtab_t itrace_cmd = {
	.name = "itrace",
	.func = itrace_kdb,
	.usage = "on|off|status|log|clear|help ... (itrace help)",
	.help = "Trace branches of user tasks by single/block stepping",
	.minlen = 0,
	.flags = KDB_ENABLE_REG_WRITE | KDB_ENABLE_ALWAYS_SAFE_NO_ARGS,
};

int itrace_kdb_init(void)
{
	return kdb_register(&itrace_cmd) ? -EBUSY : 0;
}

void itrace_kdb_exit(void)
{
	kdb_unregister(&itrace_cmd);
}
