// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the branch-log ring: order, wrap-around (the newest
 * records stay; the log counts the others as dropped when it is read),
 * the clear floor and the snapshot ceiling, torn records left by a writer frozen at each point
 * of a push, and the streaming reader (itrace_ring_read_at) against a
 * writer in progress and a writer that laps it.
 */
#include <stdlib.h>
#include "check.h"
#include "lib/ring.h"

#define N 8

static struct itrace_rec store[N];
static struct itrace_ring ring;

static struct itrace_rec mk(u64 seq)
{
	struct itrace_rec r = {
		.seq = seq, .from = 0x1000 + seq, .to = 0x2000 + seq,
		.pid = 100 + (u32)(seq % 3), .kind = (u8)(seq % 13),
		.slot = (u8)(seq % 3), .gen = 7,
	};
	return r;
}

/* Read all complete records; returns count, fills seqs[]. */
static int read_upto(u64 min_seq, u64 max_seq, u64 *seqs, u64 *torn,
		     u64 *late)
{
	struct itrace_ring_iter it;
	struct itrace_rec r;
	int n = 0;

	itrace_ring_iter_start(&it, &ring, min_seq, max_seq);
	while (itrace_ring_iter_next(&it, &r)) {
		struct itrace_rec want = mk(r.seq);

		if (memcmp(&r, &want, sizeof(r)))
			return -1;	/* fields do not belong to that seq */
		seqs[n++] = r.seq;
	}
	*torn = it.torn;
	*late = it.late;
	return n;
}

static int read_all(u64 min_seq, u64 *seqs, u64 *torn)
{
	u64 late;

	return read_upto(min_seq, ~0ULL, seqs, torn, &late);
}

/* The streaming reader, against the same kind of frozen writer. */
static void test_read_at(void)
{
	struct itrace_rec st[4], r;
	struct itrace_ring rg;
	u64 i;

	itrace_ring_init(&rg, st, 4, 0);
	CHECK("read_at nothing yet", itrace_ring_read_at(&rg, 0, &r) == 0);
	for (i = 1; i <= 3; i++) {
		r = mk(i);
		itrace_ring_push(&rg, &r);
	}
	CHECK("read_at first record",
	      itrace_ring_read_at(&rg, 0, &r) == 1 && r.seq == 1 &&
	      r.from == 0x1001);
	CHECK("read_at last record",
	      itrace_ring_read_at(&rg, 2, &r) == 1 && r.seq == 3);
	CHECK("read_at past the end", itrace_ring_read_at(&rg, 3, &r) == 0);
	/* writer frozen after seq = 0 and head++: try again, not skip */
	st[3].seq = 0;
	rg.head = 4;
	CHECK("read_at record being written is not ready",
	      itrace_ring_read_at(&rg, 3, &r) == 0);
	r = mk(4);
	st[3] = r;
	CHECK("read_at completed record",
	      itrace_ring_read_at(&rg, 3, &r) == 1 && r.seq == 4);
	for (i = 5; i <= 9; i++) {
		r = mk(i);
		itrace_ring_push(&rg, &r);
	}
	/* 9 pushed into 4: numbers 0..4 are gone, 5..8 are seqs 6..9 */
	CHECK("read_at lapped record", itrace_ring_read_at(&rg, 4, &r) == -1);
	CHECK("read_at oldest kept",
	      itrace_ring_read_at(&rg, 5, &r) == 1 && r.seq == 6);
	/* the writer came round to number 5's slot (seq = 0, head++) */
	st[5 & 3].seq = 0;
	rg.head = 10;
	CHECK("read_at slot being overwritten is lapped",
	      itrace_ring_read_at(&rg, 5, &r) == -1);
}

static bool seq_range(const u64 *seqs, int n, u64 first)
{
	int i;

	for (i = 0; i < n; i++)
		if (seqs[i] != first + (u64)i)
			return false;
	return true;
}

/*
 * A reader behind a live writer: after the iteration began, the writer
 * overwrote the oldest record with one newer than the ceiling. That one
 * is late; the older records after it are still there and must still
 * be read (a late record must not count as the last one seen).
 */
static void test_lapped_oldest(void)
{
	struct itrace_rec st[4], r;
	struct itrace_ring_iter it;
	struct itrace_ring rg;
	u64 seqs[4];
	int n = 0, i;

	itrace_ring_init(&rg, st, 4, 0);
	for (i = 1; i <= 6; i++) {
		r = mk(i);
		itrace_ring_push(&rg, &r);
	}
	itrace_ring_iter_start(&it, &rg, 0, 6);
	r = mk(7);
	itrace_ring_push(&rg, &r);	/* over seq 3, the oldest */
	while (n < 4 && itrace_ring_iter_next(&it, &r))
		seqs[n++] = r.seq;
	CHECK("ring late oldest does not hide the older records after it",
	      n == 3 && seq_range(seqs, n, 4) && it.late == 1 &&
	      it.torn == 0);
}

int main(void)
{
	struct itrace_rec r;
	u64 seqs[N], torn;
	int n, i;

	itrace_ring_init(&ring, store, N, 0);
	n = read_all(0, seqs, &torn);
	CHECK("ring empty", n == 0 && torn == 0);

	for (i = 1; i <= 5; i++) {
		r = mk(i);
		itrace_ring_push(&ring, &r);
	}
	n = read_all(0, seqs, &torn);
	CHECK("ring partial fill in order", n == 5 && seq_range(seqs, n, 1));

	for (i = 6; i <= 21; i++) {
		r = mk(i);
		itrace_ring_push(&ring, &r);
	}
	/* 21 pushed into 8: seqs 1..13 overwritten, 14..21 kept */
	n = read_all(0, seqs, &torn);
	CHECK("ring wrap keeps newest N in order",
	      n == N && seq_range(seqs, n, 14) && torn == 0);

	n = read_all(17, seqs, &torn);
	CHECK("ring clear floor hides older records",
	      n == 4 && seq_range(seqs, n, 18));

	/*
	 * Writer frozen after "seq = 0", before "head++": the slot about to
	 * be overwritten (the oldest) is torn; the rest are intact.
	 */
	{
		struct itrace_rec *slot = &store[ring.head & ring.mask];

		slot->seq = 0;
		slot->from = 0xdead;	/* half-written */
		n = read_all(0, seqs, &torn);
		CHECK("ring torn oldest skipped",
		      n == N - 1 && seq_range(seqs, n, 15) && torn == 1);
		/* frozen after head++, fields partly written */
		ring.head++;
		n = read_all(0, seqs, &torn);
		CHECK("ring torn newest skipped",
		      n == N - 1 && seq_range(seqs, n, 15) && torn == 1);
		/* the writer resumes and completes */
		r = mk(22);
		*slot = r;
		n = read_all(0, seqs, &torn);
		CHECK("ring completed write visible",
		      n == N && seq_range(seqs, n, 15) && torn == 0);
	}
	/* a stale record (seq going backwards) is never shown */
	{
		store[(ring.head - 1) & ring.mask] = mk(3);
		n = read_all(0, seqs, &torn);
		CHECK("ring stale record skipped",
		      n == N - 1 && seq_range(seqs, n, 15) && torn == 1);
	}
	/* a snapshot ceiling: records newer than it are counted, not shown */
	{
		u64 late;

		n = read_upto(0, 18, seqs, &torn, &late);
		CHECK("ring ceiling hides newer records",
		      n == 4 && seq_range(seqs, n, 15) && late == 3 &&
		      torn == 1);
	}
	test_read_at();
	test_lapped_oldest();
	CHECK("ring record is 64 bytes, a cache line", sizeof(struct itrace_rec) == 64);
	return check_failed ? 1 : 0;
}
