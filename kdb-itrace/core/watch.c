// SPDX-License-Identifier: GPL-2.0
/*
 * `itrace on comm <name>`: a small fixed table of watched task names.
 * Every task that takes a watched name is armed then, with the options
 * the watch was given: at the exec of a program of that name, or when
 * it is renamed without exec (prctl(PR_SET_NAME), a write to
 * /proc/PID/comm, busybox naming the applet it runs in-process); `on
 * comm` itself arms the tasks of that name that exist (command_onoff.c).
 *
 * Contexts: entries are written by `on comm` and `off comm`, from kdb
 * or xmon (every other CPU stopped, perhaps half-way through reading an
 * entry) or from debugfs (one command at a time; kdb may stop it
 * half-way through writing one); they are read by the exec and rename
 * tracepoints (preemption off; the rename's under the renamed task's
 * task_lock up to 6.12, and perhaps from another thread of its
 * process) and by `status`. So each entry has
 * a sequence count, odd while it is written: a writer takes an even
 * count with cmpxchg or gives up (-EBUSY), a reader uses an entry only
 * if the count was even and is unchanged after its copy. No locks, no
 * allocation, no sleeping.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/sched.h>
#include "core.h"

#define ITRACE_WATCH_MAX	8

struct itrace_watch {
	atomic_t seq;			/* odd: being written */
	bool live;
	u8 mode;
	char comm[ITRACE_COMM_LEN];
	struct itrace_on_opts opts;	/* opts.cond: NULL, or &cond */
	struct itrace_cond cond;
	atomic_t armed;			/* tasks armed at their exec */
	atomic_t renamed;		/* ... when renamed without exec */
	atomic_t missed;		/* ... not: table full */
};

static struct itrace_watch watches[ITRACE_WATCH_MAX];

/* Take @w for writing: its count odd. False if someone else has it. */
static bool write_begin(struct itrace_watch *w, int *seq)
{
	int s = atomic_read(&w->seq);

	if ((s & 1) || atomic_cmpxchg(&w->seq, s, s + 1) != s)
		return false;
	*seq = s;
	return true;
}

static void write_end(struct itrace_watch *w, int seq)
{
	atomic_set_release(&w->seq, seq + 2);
}

static bool same_comm(const char *a, const char *b)
{
	return !strncmp(a, b, ITRACE_COMM_LEN);
}

/* The live entry for @comm, read at a stable moment; NULL if none. */
static struct itrace_watch *find(const char *comm)
{
	unsigned int i;

	for (i = 0; i < ITRACE_WATCH_MAX; i++) {
		struct itrace_watch *w = &watches[i];
		int s = atomic_read_acquire(&w->seq);

		if (!(s & 1) && READ_ONCE(w->live) && same_comm(w->comm, comm))
			return w;
	}
	return NULL;
}

/*
 * `on comm`: watch @comm with @mode and @o (its condition copied).
 * Returns 0, -EEXIST (watched already), -ENOSPC (table full) or -EBUSY
 * (an entry is half-written: kdb stopped a debugfs command).
 */
int itrace_watch_add(const char *comm, u8 mode,
		     const struct itrace_on_opts *o)
{
	bool busy = false;
	unsigned int i;
	int seq;

	if (find(comm))
		return -EEXIST;
	for (i = 0; i < ITRACE_WATCH_MAX; i++) {
		struct itrace_watch *w = &watches[i];

		if (READ_ONCE(w->live))
			continue;
		if (!write_begin(w, &seq)) {
			busy = true;
			continue;
		}
		if (w->live) {		/* filled meanwhile */
			write_end(w, seq);
			continue;
		}
		strscpy(w->comm, comm, sizeof(w->comm));
		w->mode = mode;
		w->opts = *o;
		if (o->cond) {
			w->cond = *o->cond;
			w->opts.cond = &w->cond;
		}
		atomic_set(&w->armed, 0);
		atomic_set(&w->renamed, 0);
		atomic_set(&w->missed, 0);
		WRITE_ONCE(w->live, true);
		write_end(w, seq);
		return 0;
	}
	return busy ? -EBUSY : -ENOSPC;
}

/*
 * `off comm`: every entry of @comm (two, if kdb added one while a
 * debugfs add was half-way). 0, -ENOENT (not watched) or -EBUSY (as for
 * add).
 */
int itrace_watch_remove(const char *comm)
{
	int seq, ret = -ENOENT;
	unsigned int i;

	for (i = 0; i < ITRACE_WATCH_MAX; i++) {
		struct itrace_watch *w = &watches[i];

		if (!READ_ONCE(w->live) || !same_comm(w->comm, comm))
			continue;
		if (!write_begin(w, &seq)) {
			ret = -EBUSY;
			continue;
		}
		/* still that one, now that it is ours */
		if (w->live && same_comm(w->comm, comm)) {
			WRITE_ONCE(w->live, false);
			if (ret == -ENOENT)
				ret = 0;
		}
		write_end(w, seq);
	}
	return ret;
}

/*
 * @p, untraced, has just taken the name @comm: arm it if a watch has that
 * name; @exec: at its exec (as current), else renamed. A watch rewritten
 * while we copied it (a remove and an add from another CPU) may have
 * given the slot a mix of two option sets: turn that slot off again.
 */
static void watch_arm(struct task_struct *p, const char *comm, bool exec)
{
	struct itrace_on_opts o;
	struct itrace_slot *s;
	unsigned int i;
	char why[80];
	int seq;
	u8 mode;

	if (READ_ONCE(itrace_shutdown) || (p->flags & (PF_KTHREAD | PF_IO_WORKER)))
		return;
	for (i = 0; i < ITRACE_WATCH_MAX; i++) {
		struct itrace_watch *w = &watches[i];

		seq = atomic_read_acquire(&w->seq);
		if ((seq & 1) || !READ_ONCE(w->live) || !same_comm(w->comm, comm))
			continue;
		mode = w->mode;
		o = w->opts;
		smp_rmb();	/* the copy before the second look */
		if (atomic_read(&w->seq) != seq)
			return;
		if (!itrace_arch_can_trace(p, why, sizeof(why)))
			return;
		s = itrace_start(p, NULL, mode, &o);
		/*
		 * @p exited meanwhile (a sibling renamed by /proc): free the
		 * slot parked for it. Never the last reference to @p: the
		 * renaming task holds one (proc's get_proc_task(), or it is
		 * @p itself).
		 */
		if (PTR_ERR_OR_ZERO(s) == -ESRCH)
			itrace_start_undo(p);
		if (IS_ERR(s)) {
			atomic_inc(&w->missed);
			return;
		}
		/* status names it so until its arming reads the new name */
		strscpy(s->comm, comm, sizeof(s->comm));
		smp_rmb();	/* the condition's copy too */
		if (atomic_read(&w->seq) != seq)
			itrace_state_stop(&s->state);
		else
			atomic_inc(exec ? &w->armed : &w->renamed);
		return;
	}
}

/* The exec tracepoint, as @p (current) with its new name, untraced. */
void itrace_watch_exec(struct task_struct *p)
{
	watch_arm(p, p->comm, true);
}

/*
 * The rename tracepoint: @p is about to take the name @comm (p->comm is
 * still the old one), whether or not it is traced. Not at an exec: the
 * exec tracepoint that follows arms it (itrace_watch_exec()).
 */
void itrace_watch_rename(struct task_struct *p, const char *comm)
{
	char name[ITRACE_COMM_LEN];

	if ((p == current && current->in_execve) || itrace_slot_of(p) ||
	    (p->flags & PF_EXITING))
		return;
	/* the kernel keeps the first 15 bytes, as we compare */
	strscpy(name, comm, sizeof(name));
	watch_arm(p, name, false);
}

/*
 * `status`: "itrace: watching comm NAME: mode insn[, OPTS]; N armed at
 * exec, M at rename"
 */
void itrace_watch_status(struct itrace_out *out)
{
	char opts[ITRACE_ON_OPTS_MAX], cond[160], comm[ITRACE_COMM_SHOWN];
	unsigned int i, missed;

	for (i = 0; i < ITRACE_WATCH_MAX; i++) {
		struct itrace_watch *w = &watches[i];

		if ((atomic_read_acquire(&w->seq) & 1) || !READ_ONCE(w->live))
			continue;
		itrace_on_options(opts, sizeof(opts), &w->opts);
		cond[0] = '\0';
		if (w->opts.cond)
			itrace_trigger_cond_print(w->opts.cond, cond,
						  sizeof(cond));
		missed = atomic_read(&w->missed);
		itrace_out_printf(out,
				  "itrace: watching comm %s: mode %s%s%s%s%s; %u armed at exec, %u at rename",
				  itrace_comm(comm, w->comm),
				  w->mode == ITRACE_MODE_BLOCK ? "block" : "insn",
				  strcmp(opts, "-") ? ", " : "",
				  strcmp(opts, "-") ? opts : "",
				  cond[0] ? " if " : "", cond,
				  atomic_read(&w->armed),
				  atomic_read(&w->renamed));
		if (missed)
			itrace_out_printf(out, ", %u not: table full",
					  missed);
		itrace_out_printf(out, "\n");
	}
}
