// SPDX-License-Identifier: GPL-2.0
/*
 * The branch log: one ring per possible CPU, allocated at load time and
 * appended to by the trap path of that CPU. Global sequence numbers,
 * dense across CPUs, order records for the readers (merge.c); `clear`
 * only raises the floor below which records are ignored, so it never
 * writes to a ring a frozen CPU may be writing to.
 */
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include "itrace.h"
#include "kind.h"

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

/* Trap context, IRQs off: the only writer of this CPU's ring. */
void itrace_emit(struct itrace_slot *s, unsigned int kind,
		 unsigned long from, unsigned long to)
{
	struct itrace_rec rec, old;

	if (!(s->kinds & (1u << kind)) ||
	    (s->mode == ITRACE_MODE_BLOCK && !itrace_kind_is_transfer(kind)))
		return;
	rec.seq = atomic64_inc_return(&next_seq);
	rec.from = from;
	rec.to = to;
	rec.pid = s->pid;
	rec.kind = kind;
	rec.slot = s->idx;
	rec.gen = s->gen;
	s->records++;
	if (itrace_ring_push(&rings[raw_smp_processor_id()], &rec, &old) &&
	    old.seq > READ_ONCE(clear_seq) && old.slot < itrace_nr_slots) {
		struct itrace_slot *o = &itrace_slots[old.slot];

		if (o->gen == old.gen)
			atomic64_inc(&o->dropped);
	}
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
		itrace_slots[i].steps = 0;
		atomic64_set(&itrace_slots[i].dropped, 0);
	}
}
