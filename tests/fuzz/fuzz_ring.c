// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the per-CPU branch-log ring (kdb-itrace/lib/ring.c),
 * run against a model. The first byte picks the ring size (1..64
 * records), every further byte one step: pushes, reads above a "clear"
 * floor, and reads while the writer is frozen at each point of the write
 * order ring.c documents (seq = 0, head++, fields, seq), as kdb can
 * freeze it. A read must return exactly the model's newest records above
 * the floor, oldest first, each with its own fields, and count the one
 * slot being written as torn. The ring array is an exactly-sized heap block.
 */
#include "fuzz.h"
#include "lib/ring.h"

struct model {
	u64 *seqs;	/* every seq pushed, in order */
	u64 n;
};

/* The fields are a function of seq, so a mixed-up record shows. */
static struct itrace_rec rec_of(u64 seq)
{
	u64 h = seq * 0x9e3779b97f4a7c15ull;
	struct itrace_rec r = {
		.seq = seq, .from = h, .to = ~h, .pid = (u32)(h >> 32),
		.kind = (u8)h, .slot = (u8)(h >> 8), .gen = (u16)(h >> 16),
	};

	return r;
}

/*
 * Read everything and compare with model records [first, end) above
 * @floor, with @torn slots skipped.
 */
static void expect(const struct itrace_ring *ring, const struct model *m,
		   u64 first, u64 end, u64 floor, u64 torn)
{
	struct itrace_ring_iter it;
	struct itrace_rec got, want;
	u64 i = first;

	itrace_ring_iter_start(&it, ring, floor, ~0ULL);
	while (itrace_ring_iter_next(&it, &got)) {
		while (i < end && m->seqs[i] <= floor)
			i++;
		FUZZ_ASSERT(i < end);
		want = rec_of(m->seqs[i++]);
		FUZZ_ASSERT(!memcmp(&got, &want, sizeof(got)));
	}
	while (i < end && m->seqs[i] <= floor)
		i++;
	FUZZ_ASSERT(i == end);
	FUZZ_ASSERT(it.torn == torn);
}

static u64 window_start(const struct itrace_ring *ring, u64 n)
{
	u64 size = (u64)ring->mask + 1;

	return n > size ? n - size : 0;
}

static void push(struct itrace_ring *ring, struct model *m, u64 seq)
{
	struct itrace_rec r = rec_of(seq);

	itrace_ring_push(ring, &r);
	m->seqs[m->n++] = seq;
}

/*
 * The writer frozen after @stage steps of a push: 0 = seq cleared,
 * 1 = head moved, 2 = half the fields written. Read, then finish it.
 */
static void frozen_push(struct itrace_ring *ring, struct model *m, u64 seq,
			unsigned int stage, u64 floor)
{
	struct itrace_rec r = rec_of(seq);
	struct itrace_rec *slot = &ring->recs[ring->head & ring->mask];
	u64 size = (u64)ring->mask + 1, n = m->n;

	slot->seq = 0;
	if (stage == 0)
		/* the oldest record, if the ring is full, is the torn one */
		expect(ring, m, window_start(ring, n) + (n >= size), n, floor,
		       n >= size);
	ring->head++;
	if (stage >= 2) {
		slot->from = r.from;
		slot->pid = r.pid;
	}
	if (stage >= 1)
		/* the newest slot is torn, the oldest has left the window */
		expect(ring, m, window_start(ring, n + 1), n, floor, 1);
	*slot = r;	/* the writer resumes and completes */
	m->seqs[m->n++] = seq;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct itrace_ring ring;
	struct itrace_rec *recs;
	struct model m;
	u32 entries;
	u64 seq = 0;
	size_t i;

	if (!size)
		return 0;
	entries = 1u << (data[0] % 7);
	recs = (struct itrace_rec *)fuzz_alloc(sizeof(*recs) * entries);
	m.seqs = (u64 *)fuzz_alloc(sizeof(u64) * (size * 64 + 1));
	m.n = 0;
	itrace_ring_init(&ring, recs, entries, 0);

	for (i = 1; i < size; i++) {
		unsigned int arg = data[i] >> 2, k;
		/* a floor that leaves the newest arg records, or fewer */
		u64 keep = arg % (m.n + 1);
		u64 floor = m.n > keep ? m.seqs[m.n - keep - 1] : 0;

		switch (data[i] & 3) {
		case 0:		/* one push; seqs have gaps (other CPUs) */
			seq += 1 + (arg & 7);
			push(&ring, &m, seq);
			break;
		case 1:		/* read above a floor (`itrace clear`) */
			expect(&ring, &m, window_start(&ring, m.n), m.n,
			       floor, 0);
			break;
		case 2:
			seq += 1;
			frozen_push(&ring, &m, seq, arg % 3, arg & 1 ? floor : 0);
			break;
		case 3:		/* a burst, to wrap small rings often */
			for (k = 0; k <= arg; k++)
				push(&ring, &m, ++seq);
			break;
		}
	}
	expect(&ring, &m, window_start(&ring, m.n), m.n, 0, 0);
	free(m.seqs);
	free(recs);
	return 0;
}
