// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the branch-log ring: order, wrap-around (the newest
 * records stay; the log counts the others as dropped when it is read),
 * the clear floor, and torn records left by a writer frozen at each
 * point of a push.
 */
#include <stdlib.h>
#include "check.h"
#include "../../kdb-itrace/ring.h"

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
static int read_all(u64 min_seq, u64 *seqs, u64 *torn)
{
	struct itrace_ring_iter it;
	struct itrace_rec r;
	int n = 0;

	itrace_ring_iter_start(&it, &ring, min_seq);
	while (itrace_ring_iter_next(&it, &r)) {
		struct itrace_rec want = mk(r.seq);

		if (memcmp(&r, &want, sizeof(r)))
			return -1;	/* fields do not belong to that seq */
		seqs[n++] = r.seq;
	}
	*torn = it.torn;
	return n;
}

static bool seq_range(const u64 *seqs, int n, u64 first)
{
	int i;

	for (i = 0; i < n; i++)
		if (seqs[i] != first + (u64)i)
			return false;
	return true;
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
	/* 21 pushed into 8: the oldest 13 are gone */
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
	CHECK("ring record is 32 bytes", sizeof(struct itrace_rec) == 32);
	return check_failed ? 1 : 0;
}
