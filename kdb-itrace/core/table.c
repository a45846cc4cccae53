// SPDX-License-Identifier: GPL-2.0
/*
 * The traced-task table: a fixed array of slots allocated at load time.
 * Readers (the trap path, kdb) scan it without locks; slots change state
 * only by cmpxchg (see enum itrace_state).
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/sched/task.h>
#include "core.h"
#include "lib/kind.h"

struct itrace_slot *itrace_slots;
unsigned int itrace_nr_slots;
/*
 * Set once by module exit before it tears anything down: every path that
 * would start, arm or queue something new for a slot reads it first.
 */
bool itrace_shutdown;
/* Slots not FREE: lets hooks on hot paths bail out when nothing is traced. */
atomic_t itrace_nr_live;

/* One past the highest slot ever claimed: bounds the trap-path scan. */
static unsigned int slots_used;

/*
 * Where the next claim starts looking. Next-fit rather than lowest-free:
 * a freed slot keeps describing its dead task (tgid, maps, for `itrace
 * log`) until every other slot has been used once.
 */
static unsigned int claim_next;

/* The slot of this CPU's last trap: nearly every trap hits it again. */
static DEFINE_PER_CPU(struct itrace_slot *, last_slot);

/* Followed forks claim slots on several CPUs at once: a lock-free max. */
static void raise_slots_used(unsigned int n)
{
	unsigned int cur = READ_ONCE(slots_used);

	while (cur < n) {
		unsigned int old = cmpxchg(&slots_used, cur, n);

		if (old == cur)
			break;
		cur = old;
	}
}

int itrace_table_init(unsigned int nr)
{
	unsigned int i;

	/*
	 * Not kcalloc(): the slots hold the callback_heads we queue with
	 * task_work_add() from kdb, and on KASAN kernels that records the
	 * caller's stack for any slab object (stack depot lock, maybe an
	 * allocation: lockdep saw depot_lock taken in kdb's NMI context).
	 * For vmalloc memory it records nothing.
	 */
	itrace_slots = vcalloc(nr, sizeof(*itrace_slots));
	if (!itrace_slots)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		itrace_slots[i].idx = i;
	itrace_nr_slots = nr;
	return 0;
}

void itrace_table_free(void)
{
	vfree(itrace_slots);
	itrace_slots = NULL;
}

/* The slots a scan for a task's must look at (any context). */
unsigned int itrace_slots_used(void)
{
	return READ_ONCE(slots_used);
}

/* Trap path: the live (non-FREE) slot of @p, if any. */
struct itrace_slot *itrace_slot_of(struct task_struct *p)
{
	unsigned int i, n = READ_ONCE(slots_used);

	for (i = 0; i < n; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (READ_ONCE(s->task) == p &&
		    itrace_state(&s->state) != ITRACE_FREE)
			return s;
	}
	return NULL;
}

/* Trap context (IRQs off): itrace_slot_of(current), cached per CPU. */
struct itrace_slot *itrace_slot_of_current(void)
{
	struct itrace_slot *s = this_cpu_read(last_slot);

	if (s && READ_ONCE(s->task) == current &&
	    itrace_state(&s->state) != ITRACE_FREE)
		return s;
	s = itrace_slot_of(current);
	if (s)
		this_cpu_write(last_slot, s);
	return s;
}

/*
 * Take the slot's callback (work_queued false -> true). Every taker uses
 * this cmpxchg and only the holder clears the flag, so the callback_head
 * has one owner at a time even when a slot is freed and claimed again
 * while a stale `on` from debugfs still tries to reuse it.
 */
bool itrace_slot_take_work(struct itrace_slot *s)
{
	return itrace_take_flag(&s->work_queued);
}

/*
 * Is something of the slot's last task still in use: its re-arm, remap
 * or late-place work queued, its uprobe not yet unregistered, or arch
 * state (a task_work)? Such a slot must not be claimed for another task.
 */
static bool slot_busy(const struct itrace_slot *s)
{
	return READ_ONCE(s->rearm_queued) || READ_ONCE(s->remap_queued) ||
	       READ_ONCE(s->trig.late_queued) ||
	       itrace_trig_registered(&s->trig) ||
	       itrace_arch_slot_busy(&s->arch);
}

/*
 * kdb, debugfs or fork: take a FREE slot whose task_work is not still
 * queued on some task (its callback_head is in use until the callback
 * has run). The slot comes with its callback taken.
 */
struct itrace_slot *itrace_slot_claim(void)
{
	unsigned int n, i = READ_ONCE(claim_next);

	for (n = 0; n < itrace_nr_slots; n++, i++) {
		struct itrace_slot *s;

		if (i >= itrace_nr_slots)
			i = 0;
		s = &itrace_slots[i];

		/* a task pointer on a FREE slot: release in progress */
		if (READ_ONCE(s->task) || !itrace_slot_take_work(s))
			continue;
		if (slot_busy(s) || !itrace_state_claim(&s->state)) {
			WRITE_ONCE(s->work_queued, false);
			continue;
		}
		atomic_inc(&itrace_nr_live);
		s->gen++;
		itrace_code_forget(&s->code);
		s->steps = 0;
		s->records = 0;
		s->gen_records = 0;
		s->stack_inherited = false;
		s->frozen = ITRACE_FROZE_NOT;
		/* its images stay held until the arming replaces them */
		WRITE_ONCE(s->map.nr, 0);
		raise_slots_used(i + 1);
		WRITE_ONCE(claim_next, i + 1);
		return s;
	}
	return NULL;
}

/*
 * How many slots itrace_slot_claim() could hand out right now (outside
 * kdb: followed forks may take some before the caller does).
 */
unsigned int itrace_slots_free(void)
{
	unsigned int i, n = 0;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		n += itrace_state(&s->state) == ITRACE_FREE &&
		     !READ_ONCE(s->work_queued) && !READ_ONCE(s->task) &&
		     !slot_busy(s);
	}
	return n;
}

void itrace_slot_opts(const struct itrace_slot *s, struct itrace_on_opts *o)
{
	o->flags = s->flags;
	o->kinds = s->kinds;
	o->max = s->max;
	o->keep = s->keep;
	o->args = s->args;
	o->range = s->range;
	memcpy(o->func, s->func, sizeof(o->func));
	memcpy(o->start, s->start, sizeof(o->start));
	memcpy(o->stop, s->stop, sizeof(o->stop));
	o->count = s->count;
	o->cond = s->trig.cond.nr ? &s->trig.cond : NULL;
}

/*
 * Is @r the first record of a trigger's invocation (`func`, `start`):
 * the probed instruction, logged as async at the entry's uprobe, while
 * its slot still belongs to the task that logged it (also after its
 * exit, until the slot is claimed again)? @prev_to: where the thread's
 * record before @r went (0: none). A recursive entry, stepped into
 * while inside, went there by the call before it; a new invocation
 * comes out of untraced running. The views start an invocation there.
 * Any context: reads only.
 */
const char *itrace_rec_entry(const struct itrace_rec *r, u64 prev_to)
{
	const struct itrace_slot *s;

	if (r->slot >= itrace_nr_slots || r->kind != ITRACE_K_ASYNC ||
	    r->from == prev_to)
		return NULL;
	s = &itrace_slots[r->slot];
	if (s->gen != r->gen || (!s->func[0] && !s->start[0]) ||
	    !r->from || r->from != s->trig.probe[ITRACE_PROBE_ENTRY].ip)
		return NULL;
	return s->func[0] ? "func" : "start";
}

/* The mappings to name @r's addresses with, if its slot still has them. */
/* @r's slot, if it still holds the task (and program) @r is of */
static struct itrace_slot *rec_slot(const struct itrace_rec *r)
{
	struct itrace_slot *s;

	if (r->slot >= itrace_nr_slots)
		return NULL;
	s = &itrace_slots[r->slot];
	return READ_ONCE(s->gen) == r->gen ? s : NULL;
}

const struct itrace_symmap *itrace_slot_map(const struct itrace_rec *r)
{
	struct itrace_slot *s = rec_slot(r);

	return s ? &s->map : NULL;
}

/*
 * The bytes of the instruction at @r's from address, as its task's traps
 * noted them (lib/codememo.h), into @out; how many, 0 if not known (the
 * slot moved on to another task or program, or the entry was taken by
 * another address). Any context.
 */
unsigned int itrace_rec_code(const struct itrace_rec *r,
			     u8 out[ITRACE_CODE_MAX])
{
	struct itrace_slot *s = rec_slot(r);
	unsigned int n;

	if (!s)
		return 0;
	n = itrace_code_find(&s->code, r->from, out);
	/*
	 * A claim or exec meanwhile (a live reader): gen moves before the
	 * new program's first note (the fill's smp_wmb() orders it).
	 */
	smp_rmb();
	return rec_slot(r) ? n : 0;
}

const char *itrace_state_name(int state)
{
	switch (state) {
	case ITRACE_FREE:	return "free";
	case ITRACE_PENDING:	return "pending";
	case ITRACE_ARMED:	return "armed";
	case ITRACE_STOPPING:	return "stopping";
	case ITRACE_OFF:	return "off";
	case ITRACE_FROZEN:	return "frozen";
	}
	return "?";
}
