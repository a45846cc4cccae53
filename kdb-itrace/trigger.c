// SPDX-License-Identifier: GPL-2.0
/*
 * Function triggers (`on <pid> func F`, see trigger.h). The entry is a
 * uprobe on F: the kernel's shared breakpoint facility, so other uprobes,
 * perf probes and gdb keep working at the same address. Its handler runs
 * as the task, in its own context; it only notes the entry frame and
 * queues the re-arm work (rearm.c), which starts stepping once uprobes is
 * done with the probed instruction, as after any uprobe hit. The end is
 * the first step trap whose stack pointer is above the entry frame, or
 * at it and back at the return address (notify.c asks
 * itrace_trigger_left()): a return, a longjmp or an unwind past it.
 *
 * Contexts: setup in the arming work (the task's own: finds F in its
 * mapping snapshot, may sleep to register); the handler and the filter
 * in uprobes' (process context; the filter for any mm that maps the
 * file); itrace_trigger_left() in the step trap (IRQs off);
 * unregistering, which sleeps, from a work item queued when the slot is
 * released (exit, exec, unload), never from kdb or a trap.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/uaccess.h>
#include "itrace.h"

/*
 * The register names conditions may use: itrace_arch_regs()' names, in
 * its order (the handler's values come in the same), set at load.
 */
static const char *cond_names[ITRACE_REGS_MAX];
static struct itrace_cond_regs cond_regs;

static struct itrace_slot *slot_of(struct uprobe_consumer *uc)
{
	return container_of(uc, struct itrace_slot, trig.uc);
}

/* Only the traced task's own mm, and only while it is being traced. */
static bool trig_filter(ITRACE_UPROBE_FILTER_ARGS)
{
	struct itrace_slot *s = slot_of(uc);
	int st = itrace_state(&s->state);

	return mm == READ_ONCE(s->trig.mm) && !READ_ONCE(itrace_shutdown) &&
	       (st == ITRACE_PENDING || st == ITRACE_ARMED) &&
	       READ_ONCE(s->trig.state) != ITRACE_TRIG_DONE;
}

/*
 * A load of the condition, in the handler (the task's own context): the
 * bytes as the CPU reads them. Never sleeps: memory not present now
 * counts as a fault, like one not mapped.
 */
static int cond_load(void *ctx, u64 addr, unsigned int size, u64 *val)
{
	union {
		u8 b;
		u16 h;
		u32 w;
		u64 d;
	} u;

	if (copy_from_user_nofault(&u, (const void __user *)(uintptr_t)addr,
				   size))
		return -EFAULT;
	*val = size == 1 ? u.b : size == 2 ? u.h : size == 4 ? u.w : u.d;
	return 0;
}

/* `if` at an entry (no condition: true); false ones are counted. */
static bool cond_holds(struct itrace_trigger *t, struct pt_regs *regs)
{
	static const struct itrace_cond_mem mem = { .load = cond_load };
	unsigned int i, n;
	int r;

	if (!t->cond.nr)
		return true;
	n = itrace_arch_regs(regs, t->regs);
	for (i = 0; i < n; i++)
		t->vals[i] = t->regs[i].val;
	r = itrace_cond_eval(&t->cond, t->vals, &mem);
	if (r == 1)
		return true;
	t->skipped++;
	t->faults += r == -EFAULT;
	return false;
}

/*
 * Fork copies the breakpoint into the child, `off` leaves it in the
 * task, and so does `count N` once done: none ours to act on, and the
 * filter then agrees to take it out of that mm (UPROBE_HANDLER_REMOVE).
 */
static int trig_handler(struct uprobe_consumer *uc, struct pt_regs *regs)
{
	struct itrace_slot *s = slot_of(uc);
	struct itrace_trigger *t = &s->trig;

	if (READ_ONCE(s->task) != current ||
	    itrace_state(&s->state) != ITRACE_ARMED ||
	    READ_ONCE(itrace_shutdown) ||
	    READ_ONCE(t->state) == ITRACE_TRIG_DONE)
		return UPROBE_HANDLER_REMOVE;
	if (READ_ONCE(t->state) != ITRACE_TRIG_WAITING)
		return 0;	/* recursion: the outer call goes on */
	if (!cond_holds(t, regs))
		return 0;
	t->entry_sp = user_stack_pointer(regs);
	t->ret_ip = itrace_arch_return_address(regs);
	t->entries++;
	WRITE_ONCE(t->state, ITRACE_TRIG_INSIDE);
	itrace_rearm_after(s, t->entry_ip);
	return 0;
}

static void unregister_now(struct itrace_trigger *t)
{
	if (!READ_ONCE(t->registered))
		return;
	itrace_uprobe_unregister(&t->up, &t->uc);
	iput(t->up.inode);
	WRITE_ONCE(t->registered, false);
}

static void unreg_work(struct work_struct *w)
{
	unregister_now(container_of(w, struct itrace_trigger, unreg));
}

/*
 * F in @s's mapping snapshot, the program's symbols first: its address
 * in the task and its file offset, or the map entry's index -1.
 */
static int find_func(struct itrace_slot *s, unsigned long *addr, u64 *off)
{
	const struct itrace_symmap *m = &s->map;
	int pass;
	u32 i, j;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < m->nr; i++) {
			const struct itrace_map *e = &m->map[i];
			const struct itrace_symtab *tab = e->syms;

			if (!tab || e->main != !pass)
				continue;
			for (j = 0; j < tab->nr; j++) {
				const struct itrace_sym *sym = &tab->syms[j];

				if (sym->name >= tab->names_len ||
				    strcmp(tab->names + sym->name, s->func) ||
				    sym->off < e->pgoff ||
				    sym->off - e->pgoff >= e->end - e->start)
					continue;
				*addr = e->start + (sym->off - e->pgoff);
				*off = sym->off;
				return i;
			}
		}
	}
	return -1;
}

/* The file mapped at @addr in current, held; NULL if none. */
static struct inode *inode_at(unsigned long addr)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	struct inode *inode = NULL;

	mmap_read_lock(mm);
	vma = vma_lookup(mm, addr);
	if (vma && vma->vm_file) {
		inode = file_inode(vma->vm_file);
		ihold(inode);
	}
	mmap_read_unlock(mm);
	return inode;
}

static void failed(struct itrace_trigger *t, const char *why)
{
	strscpy(t->where, why, sizeof(t->where));
	WRITE_ONCE(t->state, ITRACE_TRIG_FAILED);
}

/*
 * The arming work, as the task, before the slot is ARMED: find F and put
 * the uprobe on it. Returns whether stepping starts now (no func).
 */
bool itrace_trigger_setup(struct itrace_slot *s)
{
	struct itrace_trigger *t = &s->trig;
	unsigned long addr, delta;
	struct inode *inode;
	u64 off;
	int i, ret;

	might_sleep();
	/* a registration of an earlier `on` of this task goes first */
	flush_work(&t->unreg);
	unregister_now(t);
	t->entries = 0;
	t->skipped = 0;
	t->faults = 0;
	if (!s->func[0]) {
		WRITE_ONCE(t->state, ITRACE_TRIG_NONE);
		return true;
	}
	WRITE_ONCE(t->state, ITRACE_TRIG_SETUP);
	i = find_func(s, &addr, &off);
	if (i < 0) {
		failed(t, "no such function in the task's files");
		return false;
	}
	/* where a call enters it (POWER: past the TOC setup) */
	delta = itrace_arch_func_entry(addr);
	addr += delta;
	off += delta;
	inode = inode_at(addr);
	if (!inode) {
		failed(t, "its mapping is gone");
		return false;
	}
	t->entry_ip = addr;
	t->mm = current->mm;
	t->uc = (struct uprobe_consumer){
		.handler = trig_handler,
		.filter = trig_filter,
	};
	ret = itrace_uprobe_register(&t->up, inode, off, &t->uc);
	if (ret) {
		iput(inode);
		snprintf(t->where, sizeof(t->where), "uprobe_register: error %d",
			 ret);
		WRITE_ONCE(t->state, ITRACE_TRIG_FAILED);
		return false;
	}
	WRITE_ONCE(t->registered, true);
	snprintf(t->where, sizeof(t->where), "%.*s+0x%llx",
		 (int)sizeof(s->map.map[i].name) - 1, s->map.map[i].name,
		 (unsigned long long)off);
	WRITE_ONCE(t->state, ITRACE_TRIG_WAITING);
	return false;
}

/* Slot release (not kdb, not a trap): the uprobe goes, in a work item. */
void itrace_trigger_release(struct itrace_slot *s)
{
	if (READ_ONCE(s->trig.registered))
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

/*
 * `status`: "func F (where): waiting, N entries" or why it failed; with
 * a condition "; if C: N false" (", F faults" if any).
 */
void itrace_trigger_status(const struct itrace_slot *s, char *buf,
			   size_t len)
{
	const struct itrace_trigger *t = &s->trig;
	u8 st = READ_ONCE(t->state);
	size_t w;

	if (st >= ARRAY_SIZE(trig_names))
		st = ITRACE_TRIG_SETUP;
	if (st == ITRACE_TRIG_FAILED)
		w = scnprintf(buf, len, "func %s: failed: %.*s", s->func,
			      (int)sizeof(t->where) - 1, t->where);
	else if (st == ITRACE_TRIG_SETUP)
		w = scnprintf(buf, len, "func %s: %s", s->func,
			      trig_names[st]);
	else
		w = scnprintf(buf, len, "func %s (%.*s): %s, %llu entr%s",
			      s->func, (int)sizeof(t->where) - 1, t->where,
			      trig_names[st], t->entries,
			      t->entries == 1 ? "y" : "ies");
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

/* Compile `if`'s words against this arch's registers (see cond.h). */
int itrace_trigger_cond_compile(struct itrace_cond *c, int argc,
				const char *const *argv, bool kdb, char *err,
				size_t errlen)
{
	return itrace_cond_compile(c, &cond_regs, argc, argv,
				   kdb ? ITRACE_COND_KDB : 0, err, errlen);
}

void itrace_trigger_cond_print(const struct itrace_cond *c, char *buf,
			       size_t len)
{
	itrace_cond_print(c, &cond_regs, buf, len);
}

/* The arch's register names, and which carry arg0..arg5. */
static void cond_regs_init(void)
{
	static struct itrace_reg r[ITRACE_REGS_MAX];
	static struct pt_regs zero;
	unsigned int i, a, n = itrace_arch_regs(&zero, r);

	for (i = 0; i < n; i++)
		cond_names[i] = r[i].name;
	cond_regs.names = cond_names;
	cond_regs.nr = n;
	for (a = 0; a < ITRACE_COND_ARGS; a++) {
		for (i = 0; i < n; i++)
			if (!strcmp(cond_names[i], itrace_arch_arg_regs[a]))
				break;
		WARN_ON_ONCE(i == n);	/* the arch names one it has */
		cond_regs.arg[a] = i < n ? i : 0;
	}
}

void itrace_triggers_init(void)
{
	unsigned int i;

	cond_regs_init();
	for (i = 0; i < itrace_nr_slots; i++)
		INIT_WORK(&itrace_slots[i].trig.unreg, unreg_work);
}

/* Unload, after every slot is released: no handler of ours is left. */
void itrace_triggers_exit(void)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		flush_work(&itrace_slots[i].trig.unreg);
		unregister_now(&itrace_slots[i].trig);
	}
}
