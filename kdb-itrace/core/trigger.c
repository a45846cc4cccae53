// SPDX-License-Identifier: GPL-2.0
/*
 * Triggers (`on <pid> func F`, `start A`, `stop B`, see trigger.h). Each
 * place is a uprobe: the kernel's shared breakpoint facility, so other
 * uprobes, perf probes and gdb keep working at the same address. The
 * handlers run as the task, in its own context. The entry's (F or A)
 * notes the entry frame and queues the re-arm work (rearm.c), which
 * starts stepping once uprobes is done with the probed instruction, as
 * after any uprobe hit. A function's end is the first step trap whose
 * stack pointer is above the entry frame, or at it and back at the
 * return address (notify.c asks itrace_trigger_left()): a return, a
 * longjmp or an unwind past it. The stop's handler (B) ends tracing
 * there: uprobes took our step bits for its own step of B, and the
 * re-arm work, seeing the trigger no longer inside, does not give them
 * back.
 *
 * A place in a library that is not loaded yet (`func libm.so.6:fmax`
 * before the dlopen()) waits: a uprobe on the dynamic linker's
 * _dl_debug_state, which glibc calls after each change of the loaded
 * objects for debuggers (its r_brk), queues a task_work that takes the
 * task's mappings again and puts the probe on the place once its
 * library is there. A static program has no dynamic linker to watch:
 * such a place then fails, as one that does not exist.
 *
 * Contexts: setup in the arming work (the task's own: finds the places
 * in its mapping snapshot, may sleep to register); the handlers and the
 * filter in uprobes' (process context; the filter for any mm that maps
 * the file); itrace_trigger_left() in the step trap (IRQs off);
 * unregistering, which sleeps, from a work item queued when the slot is
 * released (exit, exec, unload), never from kdb or a trap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include "core.h"
#include "wrap_mm.h"

/* Only the traced task's own mm, and only while it is being traced. */
static bool trig_filter_of(struct itrace_slot *s, struct mm_struct *mm)
{
	int st = itrace_state(&s->state);

	return mm == READ_ONCE(s->trig.mm) && !READ_ONCE(itrace_shutdown) &&
	       (st == ITRACE_PENDING || st == ITRACE_ARMED) &&
	       READ_ONCE(s->trig.state) != ITRACE_TRIG_DONE;
}

static bool entry_filter(ITRACE_UPROBE_FILTER_ARGS)
{
	return trig_filter_of(container_of(uc, struct itrace_slot,
					   trig.probe[ITRACE_PROBE_ENTRY].uc),
			      mm);
}

static bool stop_filter(ITRACE_UPROBE_FILTER_ARGS)
{
	return trig_filter_of(container_of(uc, struct itrace_slot,
					   trig.probe[ITRACE_PROBE_STOP].uc),
			      mm);
}

static bool watch_filter(ITRACE_UPROBE_FILTER_ARGS)
{
	return trig_filter_of(container_of(uc, struct itrace_slot,
					   trig.probe[ITRACE_PROBE_WATCH].uc),
			      mm);
}

/*
 * Fork copies the breakpoints into the child, `off` leaves them in the
 * task, and so does `count N` once done: none ours to act on, and the
 * filter then agrees to take them out of that mm (UPROBE_HANDLER_REMOVE).
 */
static bool not_ours(struct itrace_slot *s)
{
	return READ_ONCE(s->task) != current ||
	       itrace_state(&s->state) != ITRACE_ARMED ||
	       READ_ONCE(itrace_shutdown) ||
	       READ_ONCE(s->trig.state) == ITRACE_TRIG_DONE;
}

/*
 * func: an invocation of F begins (the entry's handler: @regs at F's
 * first instruction). The first ITRACE_TRIG_FRAMES are kept.
 */
static void nest(struct itrace_trigger *t, struct pt_regs *regs)
{
	u32 d = t->depth;

	if (!t->by_frame)
		return;
	if (d < ITRACE_TRIG_FRAMES) {
		t->frame[d].sp = user_stack_pointer(regs);
		t->frame[d].ret_ip = itrace_arch_return_address(regs);
	}
	if (d < U32_MAX)
		WRITE_ONCE(t->depth, d + 1);
}

/*
 * Trap context (itrace_trigger_left(), inside a recursion of F): the
 * step at @sp, @ip has left the innermost kept frames; those beyond
 * ITRACE_TRIG_FRAMES lie below the last one kept and end with it.
 */
void itrace_trigger_unnest(struct itrace_trigger *t, unsigned long sp,
			   unsigned long ip)
{
	u32 n = min_t(u32, t->depth, ITRACE_TRIG_FRAMES);
	u32 kept = n;

	lockdep_assert_irqs_disabled();
	while (n > 1 && itrace_frame_left(&t->frame[n - 1], sp, ip))
		n--;
	if (n < kept)
		WRITE_ONCE(t->depth, n);
}

/*
 * The task hit a probe it no longer needs (`off` from kdb or xmon,
 * `count N` done): the breakpoint leaves its mm, and the uprobe goes
 * too, from a work item (unregistering sleeps, and waits for this
 * handler). A forked child's hit leaves the parent's probes alone.
 * Another thread of the traced task's own process keeps the breakpoint:
 * it is in their one mm, which the traced thread still needs, and 6.1's
 * uprobe core takes UPROBE_HANDLER_REMOVE out of the mm without asking
 * the filter again (6.12 asks).
 */
static int drop(struct itrace_slot *s)
{
	if (READ_ONCE(s->task) == current && !READ_ONCE(itrace_shutdown))
		schedule_work(&s->trig.unreg);
	else if (current->mm && trig_filter_of(s, current->mm))
		return 0;
	return UPROBE_HANDLER_REMOVE;
}

static int entry_handler(ITRACE_UPROBE_HANDLER_ARGS)
{
	struct itrace_slot *s = container_of(uc, struct itrace_slot,
					     trig.probe[ITRACE_PROBE_ENTRY].uc);
	struct itrace_trigger *t = &s->trig;

	if (not_ours(s))
		return drop(s);
	if (READ_ONCE(t->state) == ITRACE_TRIG_INSIDE) {
		nest(t, regs);	/* recursion: the outer call goes on */
		return 0;
	}
	if (READ_ONCE(t->state) != ITRACE_TRIG_WAITING)
		return 0;
	if (!itrace_trigger_cond_holds(t, regs))
		return 0;
	if (t->by_frame) {
		WRITE_ONCE(t->depth, 0);
		nest(t, regs);
	}
	t->entries++;
	itrace_values_entry(s, regs);
	/* each invocation a stack of its own, as `calls` makes it a tree */
	itrace_stack_begin(s);
	WRITE_ONCE(t->state, ITRACE_TRIG_INSIDE);
	itrace_rearm_after(s, t->probe[ITRACE_PROBE_ENTRY].ip);
	return 0;
}

static int stop_handler(ITRACE_UPROBE_HANDLER_ARGS)
{
	struct itrace_slot *s = container_of(uc, struct itrace_slot,
					     trig.probe[ITRACE_PROBE_STOP].uc);
	struct itrace_trigger *t = &s->trig;

	if (not_ours(s))
		return drop(s);
	/* reached while not traced: nothing to end */
	if (READ_ONCE(t->state) == ITRACE_TRIG_INSIDE) {
		WRITE_ONCE(t->state, itrace_trigger_next(s));
		itrace_keep_stop(s, instruction_pointer(regs));
	}
	return 0;
}

/*
 * The unregister work and the arming work (or unload) may both get
 * here: each probe is taken by one of them (xchg), which unregisters it;
 * late_work takes the linker's alone once nothing waits for it.
 */
static void unregister_one(struct itrace_trigger *t, unsigned int i)
{
	struct itrace_probe *p = &t->probe[i];

	if (!xchg(&p->registered, false))
		return;
	itrace_uprobe_unregister(&p->up, &p->uc);
	iput(p->up.inode);
}

static void unregister_now(struct itrace_trigger *t)
{
	unsigned int i;

	for (i = 0; i < ITRACE_NR_PROBES; i++)
		unregister_one(t, i);
}

static void unreg_work(struct work_struct *w)
{
	unregister_now(container_of(w, struct itrace_trigger, unreg));
}

/* The file mapped at @addr in current, held; NULL if none. */
static struct inode *inode_at(unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct inode *inode = NULL;

	mmap_read_lock(mm);
	vma = itrace_vma_lookup(mm, addr);
	if (vma && vma->vm_file) {
		inode = file_inode(vma->vm_file);
		ihold(inode);
	}
	mmap_read_unlock(mm);
	return inode;
}

static int watch_handler(ITRACE_UPROBE_HANDLER_ARGS);

/* Setup failed: why, for status ("start: no such function ..."). */
static bool failed(struct itrace_trigger *t, const char *what,
		   const char *why)
{
	snprintf(t->why, sizeof(t->why), "%s%s%s", what, what[0] ? ": " : "",
		 why);
	WRITE_ONCE(t->state, ITRACE_TRIG_FAILED);
	return false;
}

/*
 * Put probe @i at @spec, a place in @s's mapping snapshot. @what names
 * it in a failure ("" for func). Returns whether it is registered, or
 * else pending (its library not loaded yet: *@pending) or failed.
 */
static bool probe_at(struct itrace_slot *s, unsigned int i, const char *spec,
		     const char *what, bool *pending)
{
	static const struct uprobe_consumer ucs[ITRACE_NR_PROBES] = {
		[ITRACE_PROBE_ENTRY] = { .handler = entry_handler,
					 .filter = entry_filter },
		[ITRACE_PROBE_STOP] = { .handler = stop_handler,
					.filter = stop_filter },
		[ITRACE_PROBE_WATCH] = { .handler = watch_handler,
					 .filter = watch_filter },
	};
	struct itrace_trigger *t = &s->trig;
	struct itrace_probe *p = &t->probe[i];
	struct itrace_where w;
	struct inode *inode;
	const char *why;
	char err[40];
	int ret;

	*pending = false;
	ret = itrace_where_find(&s->map, spec, &w, &why);
	if (ret == -ENXIO && i != ITRACE_PROBE_WATCH) {
		*pending = true;
		WRITE_ONCE(p->pending, true);
		return false;
	}
	if (ret)
		return failed(t, what, why);
	/* where a call enters a function (POWER: past the TOC setup) */
	if (w.sym) {
		unsigned long delta = itrace_arch_func_entry(w.addr);

		w.addr += delta;
		w.off += delta;
	}
	inode = inode_at(w.addr);
	if (!inode)
		return failed(t, what, "not in a file's mapping any more");
	p->ip = w.addr;
	p->uc = ucs[i];
	ret = itrace_uprobe_register(&p->up, inode, w.off, &p->uc);
	if (ret) {
		iput(inode);
		snprintf(err, sizeof(err), "uprobe_register: error %d", ret);
		return failed(t, what, err);
	}
	WRITE_ONCE(p->registered, true);
	WRITE_ONCE(p->pending, false);
	snprintf(p->where, sizeof(p->where), "%.*s+0x%llx",
		 (int)sizeof(s->map.map[w.map].name) - 1,
		 s->map.map[w.map].name, (unsigned long long)w.off);
	return true;
}

/* Are the entry and the stop both set, at one place? */
static bool same_place(const struct itrace_trigger *t)
{
	return READ_ONCE(t->probe[ITRACE_PROBE_ENTRY].registered) &&
	       READ_ONCE(t->probe[ITRACE_PROBE_STOP].registered) &&
	       t->probe[ITRACE_PROBE_ENTRY].ip ==
	       t->probe[ITRACE_PROBE_STOP].ip;
}

/* The place of probe @i (entry or stop), and its name in a failure. */
static const char *spec_of(const struct itrace_slot *s, unsigned int i)
{
	if (i == ITRACE_PROBE_STOP)
		return s->stop;
	return s->func[0] ? s->func : s->start;
}

static const char *what_of(const struct itrace_slot *s, unsigned int i)
{
	if (i == ITRACE_PROBE_STOP)
		return "stop";
	return s->func[0] ? "" : "start";
}

/*
 * Probe @i's place is in a library not loaded yet: watch the dynamic
 * linker for it (once). False if there is none to watch.
 */
static bool watch_linker(struct itrace_slot *s, unsigned int i)
{
	struct itrace_trigger *t = &s->trig;
	bool pending;

	if (READ_ONCE(t->probe[ITRACE_PROBE_WATCH].registered) ||
	    probe_at(s, ITRACE_PROBE_WATCH, "_dl_debug_state", "", &pending))
		return true;
	return failed(t, what_of(s, i),
		      "no such mapping, nor a dynamic linker to wait for it");
}

/* Is a place of @t still waiting for its library? */
static bool any_pending(const struct itrace_trigger *t)
{
	return READ_ONCE(t->probe[ITRACE_PROBE_ENTRY].pending) ||
	       READ_ONCE(t->probe[ITRACE_PROBE_STOP].pending);
}

/*
 * Own context: put each pending probe of @s on its place if its library
 * is there now (@s's mappings just taken). False if one failed: its
 * library is there without the place, or it is where the other is.
 */
static bool late_places(struct itrace_slot *s)
{
	struct itrace_trigger *t = &s->trig;
	unsigned int i;
	bool pending;

	for (i = 0; i < ITRACE_PROBE_WATCH; i++) {
		if (!READ_ONCE(t->probe[i].pending))
			continue;
		if (!probe_at(s, i, spec_of(s, i), what_of(s, i), &pending) &&
		    !pending)
			return false;
	}
	if (same_place(t))
		return failed(t, "", "start and stop at the same place");
	return true;
}

/*
 * The task's own context (task_work), after the dynamic linker changed
 * its loaded objects: take its mappings again and put each pending
 * probe on its place if its library is there now. One that is there
 * but lacks the place fails the trigger, as at the setup. With nothing
 * left pending the linker's probe goes: its hits would cost traps, and
 * the stepped thread would see its return as uprobes' (async). An `off`
 * while this slept (debugfs) takes out what it registered.
 */
static void late_work(struct callback_head *cb)
{
	struct itrace_trigger *t = container_of(cb, struct itrace_trigger,
						late_work);
	struct itrace_slot *s = container_of(t, struct itrace_slot, trig);

	if (!not_ours(s) && !(current->flags & PF_EXITING) &&
	    READ_ONCE(t->state) != ITRACE_TRIG_FAILED && any_pending(t)) {
		itrace_remap_take(s);
		if (!late_places(s))
			unregister_now(t);
		else if (!any_pending(t))
			unregister_one(t, ITRACE_PROBE_WATCH);
		if (not_ours(s))
			unregister_now(t);
	}
	itrace_work_done(&t->late_queued);
}

/*
 * @s's task if it is a thread of current's process, referenced (put it
 * when done), else NULL: a task on the thread list is not freed before
 * an RCU grace period, and the reference holds it after.
 */
static struct task_struct *thread_of_current(const struct itrace_slot *s)
{
	struct task_struct *p = READ_ONCE(s->task), *t, *found = NULL;

	rcu_read_lock();
	for_each_thread(current, t) {
		if (t == p) {
			get_task_struct(t);
			found = t;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * _dl_debug_state (its uprobe handler, as the thread that hit it): the
 * loaded objects changed; if a place waits for its library, the traced
 * thread looks again on its way back to user mode. Another thread of
 * its process may be the one that loads the library (its mm is the
 * same): the traced thread's task_work then, at its next return to user
 * mode, as from kdb.
 */
static int watch_handler(ITRACE_UPROBE_HANDLER_ARGS)
{
	struct itrace_slot *s = container_of(uc, struct itrace_slot,
					     trig.probe[ITRACE_PROBE_WATCH].uc);
	struct itrace_trigger *t = &s->trig;
	struct task_struct *p;

	if (READ_ONCE(s->task) == current) {
		if (not_ours(s))
			return drop(s);
		if (any_pending(t))
			itrace_work_queue(current, &t->late_work,
					  &t->late_queued, late_work,
					  TWA_RESUME);
		return 0;
	}
	if (!current->mm || !trig_filter_of(s, current->mm))
		return drop(s);
	if (!any_pending(t) || itrace_state(&s->state) != ITRACE_ARMED)
		return 0;
	p = thread_of_current(s);
	if (p) {
		itrace_work_queue(p, &t->late_work, &t->late_queued, late_work,
				  TWA_NONE);
		put_task_struct(p);
	}
	return 0;
}

/*
 * The arming work, as the task, before the slot is ARMED: find the
 * places and put the uprobes on them (or, for a place in a library not
 * loaded yet, on the dynamic linker). Returns whether stepping starts
 * now (no trigger, or a stop alone).
 */
bool itrace_trigger_setup(struct itrace_slot *s)
{
	struct itrace_trigger *t = &s->trig;
	bool entry = s->func[0] || s->start[0], pending;
	unsigned int i;

	might_sleep();
	/*
	 * A registration of an earlier `on` of this task goes first: ours,
	 * or the unregister work's (waited for).
	 */
	unregister_now(t);
	flush_work(&t->unreg);
	for (i = 0; i < ITRACE_NR_PROBES; i++) {
		t->probe[i].where[0] = '\0';
		WRITE_ONCE(t->probe[i].pending, false);
	}
	t->entries = 0;
	t->depth = 0;
	t->skipped = 0;
	t->faults = 0;
	t->by_frame = s->func[0];
	if (!itrace_slot_has_trigger(s)) {
		WRITE_ONCE(t->state, ITRACE_TRIG_NONE);
		return true;
	}
	WRITE_ONCE(t->state, ITRACE_TRIG_SETUP);
	t->mm = current->mm;
	for (i = 0; i < ITRACE_PROBE_WATCH; i++) {
		if (!spec_of(s, i)[0] ||
		    probe_at(s, i, spec_of(s, i), what_of(s, i), &pending))
			continue;
		if (!pending || !watch_linker(s, i))
			goto undo;
	}
	if (same_place(t)) {
		failed(t, "", "start and stop at the same place");
		goto undo;
	}
	if (entry) {
		WRITE_ONCE(t->state, ITRACE_TRIG_WAITING);
		return false;
	}
	/* a stop alone: traced from now until it */
	t->entries = 1;
	WRITE_ONCE(t->state, ITRACE_TRIG_INSIDE);
	return true;
undo:
	unregister_now(t);
	return false;
}

/*
 * Slot release, or `off` through debugfs (process context: not kdb, not
 * a trap): the uprobes go, in a work item. An `on` again waits for it.
 */
void itrace_trigger_release(struct itrace_slot *s)
{
	if (itrace_trig_registered(&s->trig))
		schedule_work(&s->trig.unreg);
}

static const char *const trig_names[] = {
	[ITRACE_TRIG_NONE] = "-",
	[ITRACE_TRIG_SETUP] = "set up at its next return to user mode",
	[ITRACE_TRIG_WAITING] = "waiting",
	[ITRACE_TRIG_INSIDE] = "inside",
	[ITRACE_TRIG_FAILED] = "failed",
	[ITRACE_TRIG_DONE] = "done",
};

/* "func F (tp+0x1136)", "start A (..), stop B (..)", "stop B (..)" */
static size_t places(const struct itrace_slot *s, bool where, char *buf,
		     size_t len)
{
	const struct itrace_trigger *t = &s->trig;
	static const char *const start_or_func[2] = { "start", "func" };
	unsigned int i;
	size_t w = 0;

	for (i = 0; i < ITRACE_PROBE_WATCH; i++) {
		if (!spec_of(s, i)[0])
			continue;
		w += scnprintf(buf + w, len - w, "%s%s %s", w ? ", " : "",
			       i ? "stop" : start_or_func[!!s->func[0]],
			       spec_of(s, i));
		if (where && READ_ONCE(t->probe[i].pending))
			w += scnprintf(buf + w, len - w,
				       " (its library not loaded yet)");
		else if (where && t->probe[i].where[0])
			w += scnprintf(buf + w, len - w, " (%.*s)",
				       (int)sizeof(t->probe[i].where) - 1,
				       t->probe[i].where);
	}
	return w;
}

/*
 * " at depth N" while inside F. Past the frames kept, the calls below
 * them may have returned uncounted: " at depth 8 or more".
 */
static const char *depth_str(const struct itrace_trigger *t, u8 st,
			     char *buf, size_t len)
{
	u32 d = READ_ONCE(t->depth);

	if (st != ITRACE_TRIG_INSIDE || !t->by_frame)
		return "";
	if (d > ITRACE_TRIG_FRAMES)
		snprintf(buf, len, " at depth %u or more", ITRACE_TRIG_FRAMES);
	else
		snprintf(buf, len, " at depth %u", d);
	return buf;
}

/*
 * `status`: "func F (where): waiting, N entries" ("inside at depth D,
 * N entries"; or start and stop) or why it failed; with a condition
 * "; if C: N false" (", F faults").
 */
void itrace_trigger_status(const struct itrace_slot *s, char *buf,
			   size_t len)
{
	const struct itrace_trigger *t = &s->trig;
	u8 st = READ_ONCE(t->state);
	char dbuf[24];
	size_t w;

	if (st >= ARRAY_SIZE(trig_names))
		st = ITRACE_TRIG_SETUP;
	w = places(s, st != ITRACE_TRIG_FAILED && st != ITRACE_TRIG_SETUP,
		   buf, len);
	/* a place's mapping is named after its file: any bytes */
	itrace_name(buf, len, buf, w, ITRACE_NAME_QMARK);
	if (st == ITRACE_TRIG_FAILED)
		w += scnprintf(buf + w, len - w, ": failed: %.*s",
			       (int)sizeof(t->why) - 1, t->why);
	else if (st == ITRACE_TRIG_SETUP)
		w += scnprintf(buf + w, len - w, ": %s", trig_names[st]);
	else
		w += scnprintf(buf + w, len - w, ": %s%s, %llu entr%s",
			       trig_names[st], depth_str(t, st, dbuf, sizeof(dbuf)),
			       t->entries, t->entries == 1 ? "y" : "ies");
	if (!t->cond.nr)
		return;
	w += scnprintf(buf + w, len - w, "; if ");
	itrace_trigger_cond_print(&t->cond, buf + w, len - w);
	w += strlen(buf + w);
	w += scnprintf(buf + w, len - w, ": %llu false", t->skipped);
	if (t->faults)
		scnprintf(buf + w, len - w, ", %llu fault%s", t->faults,
			  t->faults == 1 ? "" : "s");
}

void itrace_triggers_init(void)
{
	unsigned int i;

	itrace_trigger_cond_init();
	for (i = 0; i < itrace_nr_slots; i++)
		INIT_WORK(&itrace_slots[i].trig.unreg, unreg_work);
}

/*
 * Unload, after every slot is released. Unregistering first: it waits
 * for every handler still running, and a handler may queue the
 * unregister work until then; the flush after it waits for that work
 * (which may hold a probe this unregister_now() found taken).
 */
void itrace_triggers_exit(void)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		unregister_now(&itrace_slots[i].trig);
		flush_work(&itrace_slots[i].trig.unreg);
	}
}
