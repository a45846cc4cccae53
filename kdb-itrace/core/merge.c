// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the per-CPU rings of log.c in global sequence order: the
 * snapshot merge behind `itrace log` and the debugfs log file, and the
 * tail behind the debugfs stream. Readers only: the trap path never
 * waits for them or wakes them. A merge of one thread that keeps its
 * own ring (`keep N`, keep.c) reads that ring instead: it has every
 * record of the thread the CPUs' rings have, and those they lost.
 */
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include "core.h"
#include "wrap_overflow.h"

struct merge_cpu {
	struct itrace_ring_iter it;
	struct itrace_rec cur;
	bool have;
};

/*
 * k-way merge of the rings by seq: of the live rings (kdb, where every
 * writer is stopped), or of copies of them (the debugfs log file, whose
 * reader may take its time while the writers go on).
 */
struct itrace_merge {
	int pid;
	struct itrace_slot *kept;	/* reading its ring (c[0]), or NULL */
	struct itrace_ring kept_ring;	/* the copy of it that is walked */
	u64 torn;
	u64 late;
	u64 copy_lost;		/* overwritten while copied */
	struct itrace_ring *copy;	/* [nr_cpu_ids], or NULL: live */
	struct merge_cpu c[];	/* [nr_cpu_ids] */
};

/* Process context (kdb allocates its own at load). */
struct itrace_merge *itrace_merge_alloc(void)
{
	return kzalloc(struct_size_t(struct itrace_merge, c, nr_cpu_ids),
		       GFP_KERNEL);
}

static void copies_free(struct itrace_merge *m)
{
	unsigned int cpu;

	if (!m->copy)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		kvfree(m->copy[cpu].recs);
	kfree(m->copy);
	m->copy = NULL;
}

static void kept_done(struct itrace_merge *m)
{
	if (m->kept)
		itrace_keep_put(m->kept);
	m->kept = NULL;
}

void itrace_merge_free(struct itrace_merge *m)
{
	if (m) {
		copies_free(m);
		kept_done(m);
	}
	kfree(m);
}

/*
 * The slot of thread @tid if it keeps its records in a ring of its own
 * that holds them (armed, off, or frozen), a copy of its ring taken for
 * reading into @ring.
 */
static struct itrace_slot *kept_of(int tid, struct itrace_ring *ring)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		/* a process's other threads: the CPUs' rings have theirs */
		if (itrace_state(&s->state) != ITRACE_FREE &&
		    s->tgid == tid && s->pid != tid)
			return NULL;
	}
	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (s->pid == tid && itrace_keep_get(s, ring))
			return s;
	}
	return NULL;
}

/* The thread whose own ring the merge reads, or NULL. */
const struct itrace_slot *itrace_merge_kept(const struct itrace_merge *m)
{
	return m->kept;
}

/*
 * Copy @cpu's complete records above the clear floor and up to @max_seq
 * into @dst, a ring of their own (its head: how many). The writer may
 * be running: it overwrites the oldest first, where the copy starts,
 * and the copy soon runs ahead of it; what it took first is counted.
 */
static int ring_copy(struct itrace_merge *m, unsigned int cpu, u64 max_seq,
		     struct itrace_ring *dst)
{
	const struct itrace_ring *src = itrace_log_ring(cpu);
	u64 n = min_t(u64, READ_ONCE(src->head), src->mask + 1ULL);
	struct itrace_ring_iter it;
	struct itrace_rec r;
	u64 i = 0;

	if (!n)
		return 0;
	n = roundup_pow_of_two(n);
	dst->recs = kvmalloc_array(n, sizeof(*dst->recs), GFP_KERNEL);
	if (!dst->recs)
		return -ENOMEM;
	dst->mask = n - 1;
	dst->cpu = cpu;
	itrace_ring_iter_start(&it, src, itrace_log_clear_seq(), max_seq);
	while (i < n && itrace_ring_iter_next(&it, &r))
		dst->recs[i++] = r;
	dst->head = i;
	m->copy_lost += it.torn + it.late;
	return 0;
}

/*
 * Process context: copy every ring's records up to @max_seq, for an
 * itrace_merge_start() with the same @max_seq to read at leisure (the
 * debugfs log: a reader piped into `head` or `less` would otherwise
 * find the oldest records overwritten by then). As much memory as the
 * records copied, until itrace_merge_free().
 */
int itrace_merge_copy(struct itrace_merge *m, u64 max_seq)
{
	unsigned int cpu;

	might_sleep();
	copies_free(m);
	m->copy_lost = 0;
	m->copy = kcalloc(nr_cpu_ids, sizeof(*m->copy), GFP_KERNEL);
	if (!m->copy)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		if (ring_copy(m, cpu, max_seq, &m->copy[cpu])) {
			copies_free(m);
			return -ENOMEM;
		}
		cond_resched();
	}
	return 0;
}

/*
 * Take every ring as it is now, keeping the records of @pid (a tid or a
 * process; 0 = all) with a seq up to @max_seq: pass the same value to
 * two runs over the log and they see the same records, unless the
 * writers overwrote some meanwhile.
 */
void itrace_merge_start(struct itrace_merge *m, int pid, u64 max_seq)
{
	unsigned int cpu;
	u64 floor = itrace_log_clear_seq();

	m->pid = pid;
	m->torn = 0;
	m->late = 0;
	kept_done(m);
	if (pid > 0 && !m->copy)
		m->kept = kept_of(pid, &m->kept_ring);
	if (m->kept) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			m->c[cpu].have = false;
		/* `clear` leaves a frozen history alone: `off` lets it go */
		itrace_ring_iter_start(&m->c[0].it, &m->kept_ring,
				       READ_ONCE(m->kept->frozen) ? 0 : floor,
				       max_seq);
		m->c[0].have = itrace_ring_iter_next(&m->c[0].it,
						     &m->c[0].cur);
		return;
	}
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct merge_cpu *c = &m->c[cpu];

		itrace_ring_iter_start(&c->it, m->copy ? &m->copy[cpu] :
				       itrace_log_ring(cpu), floor, max_seq);
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

bool itrace_merge_next(struct itrace_merge *m, struct itrace_rec *out,
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
			for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
				m->torn += m->c[cpu].it.torn;
				m->late += m->c[cpu].it.late;
				m->c[cpu].it.torn = 0;
				m->c[cpu].it.late = 0;
			}
			kept_done(m);
			return false;
		}
		*out = m->c[best].cur;
		*out_cpu = best;
		if (m->kept) {
			/* a kept record's gen field holds its CPU (keep.c) */
			*out_cpu = out->gen;
			out->gen = m->kept->kept_gen;
		}
		m->c[best].have = itrace_ring_iter_next(&m->c[best].it,
							&m->c[best].cur);
		if (!m->pid || out->pid == m->pid || tgid_of(out) == m->pid)
			return true;
	}
}

/*
 * After itrace_merge_next() returned false: records skipped (with a
 * copy, overwritten before they were copied).
 */
u64 itrace_merge_torn(const struct itrace_merge *m)
{
	return m->torn + m->copy_lost;
}

u64 itrace_merge_late(const struct itrace_merge *m)
{
	return m->late;
}

/*
 * A seq is handed out before the record is pushed: a record that is
 * not visible yet while a later one is can be a writer between the two
 * (IRQs off, nanoseconds; longer only if the host deschedules a virtual
 * CPU right there), so the tail waits TAIL_GAP_WAIT for it before it
 * counts it as lost. A gap from a ring that lapped the reader is known
 * lost at once. TAIL_BUSY_WAIT bounds the wait for a record that stays
 * half-written (it cannot, short of a bug): then it is skipped.
 */
#define TAIL_GAP_WAIT	(HZ / 50 ?: 1)
#define TAIL_BUSY_WAIT	(HZ / 5)

struct tail_cpu {
	u64 pos;		/* next record number to read */
	unsigned long busy;	/* jiffies since pos is being written */
	struct itrace_rec cur;
	bool have;
};

/*
 * Follows the rings from where they were at start, returning records
 * in seq order without gaps: seqs are handed out densely, so a gap is a
 * record not visible yet, or lost.
 */
struct itrace_tail {
	u64 last;		/* seq of the last record returned */
	unsigned long gap;	/* jiffies since a gap blocks the next one */
	bool lapped;		/* a ring lapped us since the last record */
	u64 lost;
	struct tail_cpu c[];	/* [nr_cpu_ids] */
};

struct itrace_tail *itrace_tail_alloc(void)
{
	return kzalloc(struct_size_t(struct itrace_tail, c, nr_cpu_ids),
		       GFP_KERNEL);
}

void itrace_tail_free(struct itrace_tail *t)
{
	kfree(t);
}

void itrace_tail_start(struct itrace_tail *t)
{
	unsigned int cpu;

	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		memset(&t->c[cpu], 0, sizeof(t->c[cpu]));
		t->c[cpu].pos = READ_ONCE(itrace_log_ring(cpu)->head);
	}
	/*
	 * A record pushed before the heads were read took its seq before
	 * this read: everything newer is at or after those heads.
	 */
	smp_rmb();
	t->last = itrace_log_last_seq();
	t->gap = 0;
	t->lapped = false;
	t->lost = 0;
}

/* Fill c->cur with the next record of @cpu newer than @floor, if any. */
static void tail_fill(struct itrace_tail *t, unsigned int cpu, u64 floor)
{
	const struct itrace_ring *r = itrace_log_ring(cpu);
	struct tail_cpu *c = &t->c[cpu];

	while (!c->have) {
		int ret = itrace_ring_read_at(r, c->pos, &c->cur);

		if (ret < 0) {
			/* their seqs show up as a gap, counted there */
			c->pos = READ_ONCE(r->head) - (r->mask + 1ULL);
			t->lapped = true;
			continue;
		}
		if (ret > 0) {
			c->busy = 0;
			c->pos++;
			c->have = c->cur.seq > floor;
			continue;
		}
		if (c->pos >= READ_ONCE(r->head))
			return;
		/* being written: never takes long, unless it never ends */
		if (!c->busy) {
			c->busy = jiffies ? jiffies : 1;
		} else if (time_after(jiffies, c->busy + TAIL_BUSY_WAIT)) {
			c->busy = 0;
			c->pos++;
			continue;
		}
		return;
	}
}

/*
 * Process context. Returns true with the next record, or false when
 * there is none yet; *waiting then says a record is known to be on its
 * way (worth a quick retry rather than a long sleep).
 */
bool itrace_tail_next(struct itrace_tail *t, struct itrace_rec *out,
		      unsigned int *out_cpu, bool *waiting)
{
	u64 floor = max(t->last, itrace_log_clear_seq());
	unsigned int cpu, best = nr_cpu_ids;

	*waiting = false;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct tail_cpu *c = &t->c[cpu];

		if (c->have && c->cur.seq <= floor)
			c->have = false;	/* cleared, or given up on */
		tail_fill(t, cpu, floor);
		if (c->busy)
			*waiting = true;
		if (c->have && (best == nr_cpu_ids ||
				c->cur.seq < t->c[best].cur.seq))
			best = cpu;
	}
	if (best == nr_cpu_ids)
		return false;
	if (t->c[best].cur.seq != floor + 1 && !t->lapped) {
		if (!t->gap)
			t->gap = jiffies ? jiffies : 1;
		if (!time_after(jiffies, t->gap + TAIL_GAP_WAIT)) {
			*waiting = true;
			return false;
		}
	}
	t->lost += t->c[best].cur.seq - floor - 1;
	t->gap = 0;
	t->lapped = false;
	*out = t->c[best].cur;
	*out_cpu = best;
	t->c[best].have = false;
	t->last = out->seq;
	return true;
}

/* Records the tail gave up on, since start; the caller may reset it. */
u64 itrace_tail_take_lost(struct itrace_tail *t)
{
	u64 n = t->lost;

	t->lost = 0;
	return n;
}
