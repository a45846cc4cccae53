// SPDX-License-Identifier: GPL-2.0
/*
 * The branch log: one ring per possible CPU, allocated at load time and
 * appended to by the trap path of that CPU. Global sequence numbers,
 * dense across CPUs, order records for the readers (merge.c); `clear`
 * only raises the floor below which records are ignored, so it never
 * writes to a ring a frozen CPU may be writing to.
 */
#include <linux/cpumask.h>
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>
#include <linux/vmalloc.h>
#include "core.h"
#include "lib/kind.h"

static struct itrace_ring *rings;	/* [nr_cpu_ids] */
static struct itrace_rec *rec_store;
static unsigned int per_cpu_entries;
static atomic64_t next_seq;
static u64 clear_seq;			/* records <= this are cleared */

int itrace_log_init(unsigned int per_cpu)
{
	unsigned int cpu;

	per_cpu = roundup_pow_of_two(clamp(per_cpu, 64U, 1U << 24));
	rings = kcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	rec_store = vmalloc(array_size(array_size(nr_cpu_ids, per_cpu),
				       sizeof(*rec_store)));
	if (!rings || !rec_store) {
		itrace_log_free();
		return -ENOMEM;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		itrace_ring_init(&rings[cpu],
				 rec_store + (size_t)cpu * per_cpu, per_cpu,
				 cpu);
	per_cpu_entries = per_cpu;
	return 0;
}

void itrace_log_free(void)
{
	vfree(rec_store);
	kfree(rings);
	rec_store = NULL;
	rings = NULL;
}

unsigned int itrace_log_per_cpu(void)
{
	return per_cpu_entries;
}

const struct itrace_ring *itrace_log_ring(unsigned int cpu)
{
	return &rings[cpu];
}

u64 itrace_log_last_seq(void)
{
	return atomic64_read(&next_seq);
}

u64 itrace_log_clear_seq(void)
{
	return READ_ONCE(clear_seq);
}

static bool touches_range(const struct itrace_slot *s, unsigned long a)
{
	return a >= s->range_lo && a < s->range_hi;
}

/*
 * The record budget (`max`) of @s allows one more record. The last one
 * ends its tracing: `off`'s change, so the next trap drops the step bits
 * (and logs nothing: the budget is spent).
 */
static bool budget_take(struct itrace_slot *s)
{
	if (!s->budget)
		return false;
	if (!--s->budget) {
		s->ended = ITRACE_END_MAX;
		itrace_state_stop(&s->state);
	}
	return true;
}

/*
 * Trap context, IRQs off: the only writer of this CPU's ring. The
 * fields go straight into the ring's entry: a record built on the stack
 * first would be cleared there too on kernels that zero every stack
 * variable (INIT_STACK_ALL_ZERO).
 */
void itrace_emit_rec(struct itrace_slot *s, unsigned int kind,
		     unsigned long from, unsigned long to)
{
	unsigned int cpu = raw_smp_processor_id();
	struct itrace_rec *r;
	u64 seq;

	lockdep_assert_irqs_disabled();
	if (s->range_on && !touches_range(s, from) && !touches_range(s, to))
		return;
	if (s->max && !budget_take(s))
		return;

	seq = atomic64_inc_return(&next_seq);
	r = itrace_ring_begin(&rings[cpu]);
	r->from = from;
	r->to = to;
	r->ns = ktime_get_mono_fast_ns();
	r->pid = s->pid;
	r->kind = kind;
	r->nval = 0;
	if (unlikely(s->val_kinds & (1u << kind)))
		r->nval = itrace_values_take(s, kind, from, to, r->val);
	r->slot = s->idx;
	r->gen = s->gen;
	itrace_ring_commit(r, seq);
	s->records++;
	if (unlikely(s->keep) && s->kept.recs)
		itrace_keep_push(s, r, cpu);
}

/*
 * How many records of each slot's current task and image (its gen; above
 * the clear floor) were overwritten before anyone read them: records
 * logged minus those still in the rings, one pass over every ring. Only
 * the reader pays for this, not the trap path. In kdb (@stopped) the
 * figure is exact; from debugfs, while traps go on, a record pushed
 * between the two reads can make it one or two low. One array per
 * context: debugfs callers hold the command lock, and kdb can stop a
 * debugfs caller half-way.
 */
const u64 *itrace_log_dropped(bool stopped)
{
	static u64 counts[2][ITRACE_MAX_TASKS];
	u64 *dropped = counts[stopped];
	struct itrace_ring_iter it;
	struct itrace_rec r;
	unsigned int cpu, i;
	u64 last;

	for (i = 0; i < itrace_nr_slots; i++)
		dropped[i] = itrace_slots[i].records -
			     itrace_slots[i].gen_records;
	last = atomic64_read(&next_seq);
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		itrace_ring_iter_start(&it, &rings[cpu], READ_ONCE(clear_seq),
				       last);
		while (itrace_ring_iter_next(&it, &r))
			if (r.slot < itrace_nr_slots &&
			    itrace_slots[r.slot].gen == r.gen &&
			    dropped[r.slot])
				dropped[r.slot]--;	/* still there */
		if (!stopped)
			cond_resched();
	}
	return dropped;
}

/*
 * kdb, or debugfs while traps run: a trap in flight on another CPU can
 * then still add one to a counter just zeroed.
 */
void itrace_log_clear(void)
{
	unsigned int i;

	WRITE_ONCE(clear_seq, atomic64_read(&next_seq));
	for (i = 0; i < itrace_nr_slots; i++) {
		itrace_slots[i].records = 0;
		itrace_slots[i].gen_records = 0;
		itrace_slots[i].steps = 0;
	}
}
