/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU's branch-log ring: a power-of-two array of fixed-size records
 * with a single writer (the trap handler on that CPU, IRQs off) and
 * readers that may run while the writer is frozen half-way through a
 * record (kdb stops CPUs anywhere). Pure C, shared with host tests.
 */
#ifndef _ITRACE_RING_H
#define _ITRACE_RING_H

#include "compat.h"

/* Values a record carries at most (its val[]). */
#define ITRACE_REC_VALS		3

/*
 * 64 bytes, a cache line. seq is global across CPUs (for merging) and 0
 * while the record is being written, so a reader can tell a torn record.
 * ns is the kernel's monotonic clock at the trap. The values, nval of
 * them, mean what the kind says (values.h): a syscall's number and
 * return, a call's first arguments, a return's value.
 */
struct itrace_rec {
	u64 seq;
	u64 from;
	u64 to;
	u64 ns;
	u64 val[ITRACE_REC_VALS];
	u32 pid;
	u8 kind : 5;	/* enum itrace_kind */
	u8 nval : 3;	/* val[0..nval) hold values */
	u8 slot;	/* traced-task table index of the owner */
	u16 gen;	/* that slot's generation, to attribute drops */
};

struct itrace_ring {
	struct itrace_rec *recs;
	u32 mask;	/* entries - 1 */
	u32 cpu;
	u64 head;	/* records ever pushed; next write at head & mask */
};

void itrace_ring_init(struct itrace_ring *r, struct itrace_rec *recs,
		      u32 entries, u32 cpu);

/*
 * Appending is two steps, so that the trap path writes its fields
 * straight into the ring, never through a record on its stack: begin
 * returns the entry to fill (overwriting the oldest record when the ring
 * is full), commit vouches for it with its seq (non-zero). The order
 * makes every point at which kdb can freeze the writer safe for a
 * reader:
 *   seq = 0, head++, fields, seq = final
 * so the entry being written is always either the untouched old record,
 * or has seq 0 and is skipped as torn. What was overwritten is not
 * looked at: the log counts a task's lost records when it is read
 * (records logged minus records still there), which keeps a load and an
 * atomic per record off the trap path.
 */
static inline struct itrace_rec *itrace_ring_begin(struct itrace_ring *r)
{
	u64 head = r->head;
	struct itrace_rec *slot = &r->recs[head & r->mask];

	WRITE_ONCE(slot->seq, 0);
	/* mark the entry torn before it can be seen as the newest */
	smp_wmb();
	WRITE_ONCE(r->head, head + 1);
	return slot;
}

static inline void itrace_ring_commit(struct itrace_rec *slot, u64 seq)
{
	/* fields complete before the seq that vouches for them */
	smp_wmb();
	WRITE_ONCE(slot->seq, seq);
}

/*
 * Append a copy of @rec (its seq must be non-zero) with @gen for its
 * gen: a thread's own ring keeps the record's CPU there (core/keep.c).
 */
static inline void itrace_ring_push_as(struct itrace_ring *r,
				       const struct itrace_rec *rec, u16 gen)
{
	struct itrace_rec *slot = itrace_ring_begin(r);
	unsigned int i;

	slot->from = rec->from;
	slot->to = rec->to;
	slot->ns = rec->ns;
	for (i = 0; i < rec->nval; i++)
		slot->val[i] = rec->val[i];
	slot->pid = rec->pid;
	slot->kind = rec->kind;
	slot->nval = rec->nval;
	slot->slot = rec->slot;
	slot->gen = gen;
	itrace_ring_commit(slot, rec->seq);
}

/* Append a copy of @rec (its seq must be non-zero). */
static inline void itrace_ring_push(struct itrace_ring *r,
				    const struct itrace_rec *rec)
{
	itrace_ring_push_as(r, rec, rec->gen);
}

/*
 * Iteration, oldest first, over the records that are complete: a
 * snapshot of the ring as it was at the start. Only records with
 * min_seq < seq <= max_seq are returned; with live writers (debugfs) a
 * record overwritten before the reader got to it is skipped (counted in
 * torn, or in late if its replacement is complete), never returned torn
 * or out of order.
 */
struct itrace_ring_iter {
	const struct itrace_ring *r;
	u64 pos;
	u64 end;
	u64 min_seq;	/* skip records with seq <= min_seq ("clear") */
	u64 max_seq;	/* skip records with seq > max_seq (newer) */
	u64 last_seq;
	u64 torn;	/* records skipped because they were torn */
	u64 late;	/* records skipped because they were too new */
};

void itrace_ring_iter_start(struct itrace_ring_iter *it,
			    const struct itrace_ring *r, u64 min_seq,
			    u64 max_seq);
/* Copies the next complete record to @out; false at the end. */
bool itrace_ring_iter_next(struct itrace_ring_iter *it,
			   struct itrace_rec *out);

/*
 * Streaming: the record pushed as number @pos (0 = the first ever), read
 * while the writer may be running. Returns 1 with it in @out, 0 if it is
 * not there yet or still being written (try again later), -1 if it was
 * overwritten already (the reader fell a whole ring behind).
 */
int itrace_ring_read_at(const struct itrace_ring *r, u64 pos,
			struct itrace_rec *out);

#endif /* _ITRACE_RING_H */
