// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU branch-log ring (see ring.h): set-up and the readers; the
 * writer is inline in ring.h.
 */
#include "ring.h"

void itrace_ring_init(struct itrace_ring *r, struct itrace_rec *recs,
		      u32 entries, u32 cpu)
{
	r->recs = recs;
	r->mask = entries - 1;
	r->cpu = cpu;
	r->head = 0;
	memset(recs, 0, sizeof(*recs) * entries);
}

void itrace_ring_iter_start(struct itrace_ring_iter *it,
			    const struct itrace_ring *r, u64 min_seq,
			    u64 max_seq)
{
	u64 head = READ_ONCE(r->head);
	u64 size = (u64)r->mask + 1;

	it->r = r;
	it->end = head;
	it->pos = head > size ? head - size : 0;
	it->min_seq = min_seq;
	it->max_seq = max_seq;
	it->last_seq = 0;
	it->torn = 0;
	it->late = 0;
}

bool itrace_ring_iter_next(struct itrace_ring_iter *it,
			   struct itrace_rec *out)
{
	while (it->pos < it->end) {
		const struct itrace_rec *src =
			&it->r->recs[it->pos++ & it->r->mask];
		u64 s1, s2;

		s1 = READ_ONCE(src->seq);
		/* pairs with the writer's barrier after the fields */
		smp_rmb();
		*out = *src;
		/* pairs with the writer's barrier after seq = 0 */
		smp_rmb();
		s2 = READ_ONCE(src->seq);
		if (!s1 || s1 != s2 || s1 <= it->last_seq) {
			it->torn++;
			continue;
		}
		/*
		 * Newer than the snapshot: the writer lapped us here. The
		 * older records after it are still good: it must not
		 * become the last seq seen.
		 */
		if (s1 > it->max_seq) {
			it->late++;
			continue;
		}
		it->last_seq = s1;
		out->seq = s1;
		if (s1 <= it->min_seq)
			continue;
		return true;
	}
	return false;
}

int itrace_ring_read_at(const struct itrace_ring *r, u64 pos,
			struct itrace_rec *out)
{
	const struct itrace_rec *src = &r->recs[pos & r->mask];
	u64 size = (u64)r->mask + 1;
	u64 head, s1, s2;

	head = READ_ONCE(r->head);
	/* pairs with the writer's barrier between seq = 0 and head++ */
	smp_rmb();
	if (pos >= head)
		return 0;
	if (head - pos > size)
		return -1;
	s1 = READ_ONCE(src->seq);
	/* the same seqlock-like read as itrace_ring_iter_next() */
	smp_rmb();
	*out = *src;
	/* fields before the second seq read, as there */
	smp_rmb();
	s2 = READ_ONCE(src->seq);
	/* head after seq: a new lap's seq = 0 came before its head++ */
	smp_rmb();
	/* a writer that came round again meanwhile overwrote it */
	if (READ_ONCE(r->head) - pos > size)
		return -1;
	if (!s1 || s1 != s2)
		return 0;
	out->seq = s1;
	return 1;
}
