// SPDX-License-Identifier: GPL-2.0
/*
 * The branch log: one ring per possible CPU, allocated at load time,
 * appended to by the trap path of that CPU and read by `itrace log`
 * with every CPU stopped. Global sequence numbers order records across
 * CPUs; `clear` only raises the floor below which records are ignored,
 * so it never writes to a ring a frozen CPU may be writing to.
 */
#include <linux/cpumask.h>
#include <linux/kdb.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/vmalloc.h>
#include "itrace.h"
#include "format.h"
#include "kind.h"

static struct itrace_ring *rings;	/* [nr_cpu_ids] */
static struct itrace_rec *rec_store;
static unsigned int per_cpu_entries;
static atomic64_t next_seq;
static u64 clear_seq;			/* records <= this are cleared */

struct merge_cpu {
	struct itrace_ring_iter it;
	struct itrace_rec cur;
	bool have;
};

/* k-way merge of the per-CPU rings by seq, for kdb. */
struct merge {
	struct merge_cpu *c;	/* [nr_cpu_ids], allocated at load */
	int pid;
	u64 torn;
};

static struct merge log_merge;

int itrace_log_init(unsigned int per_cpu)
{
	unsigned int cpu;

	per_cpu = roundup_pow_of_two(clamp(per_cpu, 64U, 1U << 24));
	rings = kcalloc(nr_cpu_ids, sizeof(*rings), GFP_KERNEL);
	log_merge.c = kcalloc(nr_cpu_ids, sizeof(*log_merge.c), GFP_KERNEL);
	rec_store = vmalloc(array_size(array_size(nr_cpu_ids, per_cpu),
				       sizeof(*rec_store)));
	if (!rings || !rec_store || !log_merge.c) {
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
	kfree(log_merge.c);
	log_merge.c = NULL;
	rec_store = NULL;
	rings = NULL;
}

unsigned int itrace_log_per_cpu(void)
{
	return per_cpu_entries;
}

/* Trap context, IRQs off: the only writer of this CPU's ring. */
void itrace_emit_rec(struct itrace_slot *s, unsigned int kind,
		     unsigned long from, unsigned long to)
{
	struct itrace_rec rec;

	rec.seq = atomic64_inc_return(&next_seq);
	rec.from = from;
	rec.to = to;
	rec.pid = s->pid;
	rec.kind = kind;
	rec.slot = s->idx;
	rec.gen = s->gen;
	s->records++;
	itrace_ring_push(&rings[raw_smp_processor_id()], &rec);
}

/*
 * kdb context: how many records of each slot's current task and image
 * (its gen; above the clear floor) were overwritten before anyone read
 * them: records logged minus those still in the rings. One pass over
 * every ring.
 */
const u64 *itrace_log_dropped(void)
{
	static u64 dropped[ITRACE_MAX_TASKS];
	struct itrace_ring_iter it;
	struct itrace_rec r;
	unsigned int cpu, i;

	memset(dropped, 0, sizeof(dropped));
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		itrace_ring_iter_start(&it, &rings[cpu], READ_ONCE(clear_seq));
		while (itrace_ring_iter_next(&it, &r))
			if (r.slot < itrace_nr_slots &&
			    itrace_slots[r.slot].gen == r.gen)
				dropped[r.slot]++;	/* still there */
	}
	for (i = 0; i < itrace_nr_slots; i++) {
		u64 n = itrace_slots[i].records - itrace_slots[i].gen_records;

		dropped[i] = n > dropped[i] ? n - dropped[i] : 0;
	}
	return dropped;
}

/* kdb context. */
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

static void merge_start(struct merge *m, int pid)
{
	unsigned int cpu;

	m->pid = pid;
	m->torn = 0;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct merge_cpu *c = &m->c[cpu];

		itrace_ring_iter_start(&c->it, &rings[cpu],
				       READ_ONCE(clear_seq));
		c->have = itrace_ring_iter_next(&c->it, &c->cur);
	}
}

/* The process of @r's task, if its slot still describes it (else 0). */
static pid_t tgid_of(const struct itrace_rec *r)
{
	const struct itrace_slot *s;

	if (r->slot >= itrace_nr_slots)
		return 0;
	s = &itrace_slots[r->slot];
	return s->gen == r->gen ? s->tgid : 0;
}

static bool merge_next(struct merge *m, struct itrace_rec *out,
		       unsigned int *out_cpu)
{
	for (;;) {
		unsigned int cpu, best = nr_cpu_ids;

		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			if (m->c[cpu].have &&
			    (best == nr_cpu_ids ||
			     m->c[cpu].cur.seq < m->c[best].cur.seq))
				best = cpu;
		if (best == nr_cpu_ids) {
			for (cpu = 0; cpu < nr_cpu_ids; cpu++)
				m->torn += m->c[cpu].it.torn;
			return false;
		}
		*out = m->c[best].cur;
		*out_cpu = best;
		m->c[best].have = itrace_ring_iter_next(&m->c[best].it,
							&m->c[best].cur);
		if (!m->pid || out->pid == m->pid || tgid_of(out) == m->pid)
			return true;
	}
}

static const struct itrace_symmap *map_of(const struct itrace_rec *r)
{
	struct itrace_slot *s;

	if (r->slot >= itrace_nr_slots)
		return NULL;
	s = &itrace_slots[r->slot];
	return s->gen == r->gen ? &s->map : NULL;
}

void itrace_log_show(const struct itrace_cmd *cmd)
{
	struct merge *m = &log_merge;
	struct itrace_rec r;
	unsigned int cpu, i;
	u64 total = 0, skip = 0, n = 0;
	char line[ITRACE_LINE_MAX];
	const u64 *dropped;

	merge_start(m, cmd->pid);
	while (merge_next(m, &r, &cpu))
		total++;
	if (cmd->count && total > cmd->count)
		skip = total - cmd->count;

	if (!cmd->raw) {
		kdb_printf("itrace: %llu record%s%s, showing %llu\n", total,
			   total == 1 ? "" : "s",
			   cmd->pid ? " for that pid/process" : "",
			   total - skip);
		dropped = itrace_log_dropped();
		for (i = 0; i < itrace_nr_slots; i++) {
			struct itrace_slot *s = &itrace_slots[i];
			u64 d = dropped[i];

			if (d && (!cmd->pid || s->pid == cmd->pid ||
				  s->tgid == cmd->pid))
				kdb_printf("itrace: pid %d: %llu record%s overwritten (log full)\n",
					   s->pid, d, d == 1 ? "" : "s");
		}
		itrace_format_sym_header(line, sizeof(line));
		kdb_printf("%s", line);
	}

	merge_start(m, cmd->pid);
	while (merge_next(m, &r, &cpu)) {
		if (n++ < skip)
			continue;
		if (cmd->raw)
			itrace_format_raw(line, sizeof(line), &r, cpu);
		else
			itrace_format_sym(line, sizeof(line), &r, cpu,
					  map_of(&r));
		kdb_printf("%s", line);
	}
	if (m->torn)
		kdb_printf("itrace: %llu torn record%s skipped (a CPU was stopped mid-write)\n",
			   m->torn, m->torn == 1 ? "" : "s");
}
