// SPDX-License-Identifier: GPL-2.0
/*
 * The code memo's writes and lookups (codememo.h has the rules): the
 * trap path's fill when an entry changes, and the console's lookup.
 * Pure C; no state of its own.
 */
#include "codememo.h"

void itrace_code_fill(struct itrace_code_ent *e, u64 ip, u64 w0, u64 w1,
		      unsigned int len)
{
	if (!ip || !len || len > ITRACE_CODE_MAX)
		return;
	WRITE_ONCE(e->seq, e->seq + 1);
	smp_wmb();	/* readers see the count odd before new bytes */
	WRITE_ONCE(e->ip, ip);
	WRITE_ONCE(e->w[0], w0);
	WRITE_ONCE(e->w[1], w1);
	WRITE_ONCE(e->len, len);
	smp_wmb();	/* and the bytes before it is even again */
	WRITE_ONCE(e->seq, e->seq + 1);
}

unsigned int itrace_code_find(const struct itrace_code_memo *m, u64 ip,
			      u8 out[ITRACE_CODE_MAX])
{
	const struct itrace_code_ent *e = &m->e[itrace_code_idx(ip)];
	u32 seq = READ_ONCE(e->seq), len;
	u64 w[2];

	if (!ip || (seq & 1))
		return 0;
	smp_rmb();	/* pairs with the fill's second smp_wmb() */
	if (READ_ONCE(e->ip) != ip)
		return 0;
	w[0] = READ_ONCE(e->w[0]);
	w[1] = READ_ONCE(e->w[1]);
	len = READ_ONCE(e->len);
	smp_rmb();	/* pairs with its first: no fill began meanwhile */
	if (READ_ONCE(e->seq) != seq || !len || len > ITRACE_CODE_MAX)
		return 0;
	memcpy(out, w, sizeof(w));
	return len;
}

/*
 * The slot's task is not trapping (a claim, or the task itself at a
 * followed exec): no fill is half-way.
 */
void itrace_code_forget(struct itrace_code_memo *m)
{
	unsigned int i;

	for (i = 0; i < ITRACE_CODE_MEMO; i++)
		WRITE_ONCE(m->e[i].ip, 0);
}
