/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The instruction bytes a traced task ran, remembered per task for the
 * console (`itrace log -i`): the trap path reads the bytes at the
 * stepped address anyway (to decode or classify them), and notes them
 * here; a reader looks a record's from address up. The console cannot
 * read a user task's memory itself: it may not take the locks a page
 * walk or a fault needs, and the task is not the one running.
 *
 * Direct-mapped by address: a hot loop's instructions stay, an address
 * evicted by another gives nothing (the reader prints '?'). One writer,
 * the task in its own traps; readers anywhere, lock-free: each entry
 * has a sequence count, odd while its bytes change, and a reader that
 * sees it odd, or changed across its copy, or another address, gets
 * nothing (the same address written again, changed code, included). In
 * kdb's stopped machine a writer stopped half-way leaves it odd. Pure C.
 */
#ifndef _ITRACE_CODEMEMO_H
#define _ITRACE_CODEMEMO_H

#include "compat.h"

#define ITRACE_CODE_MEMO	128	/* entries, a power of two */
#define ITRACE_CODE_MAX		16	/* bytes an entry holds */

struct itrace_code_ent {
	u64 ip;			/* 0: empty */
	u64 w[2];		/* the bytes as loaded: w[0] the first 8 */
	u32 len;		/* of the instruction, 1..ITRACE_CODE_MAX */
	u32 seq;		/* odd while being written */
};

struct itrace_code_memo {
	struct itrace_code_ent e[ITRACE_CODE_MEMO];
};

static __always_inline unsigned int itrace_code_idx(u64 ip)
{
	return (ip ^ (ip >> 7)) & (ITRACE_CODE_MEMO - 1);
}

void itrace_code_fill(struct itrace_code_ent *e, u64 ip, u64 w0, u64 w1,
		      unsigned int len);

/*
 * The task's trap: the instruction at @ip is @len bytes, the first 16
 * bytes there @w0 and @w1. Inline only the check that the entry holds
 * them already (the common case in a loop: nothing to write).
 */
static __always_inline void itrace_code_note(struct itrace_code_memo *m,
					     u64 ip, u64 w0, u64 w1,
					     unsigned int len)
{
	struct itrace_code_ent *e = &m->e[itrace_code_idx(ip)];

	if (likely(e->ip == ip && e->w[0] == w0 && e->w[1] == w1 &&
		   e->len == len))
		return;
	itrace_code_fill(e, ip, w0, w1, len);
}

/* Any context: the bytes of the instruction at @ip into @out; how many. */
unsigned int itrace_code_find(const struct itrace_code_memo *m, u64 ip,
			      u8 out[ITRACE_CODE_MAX]);

/* Forget everything (the slot's task or program changed). */
void itrace_code_forget(struct itrace_code_memo *m);

#endif /* _ITRACE_CODEMEMO_H */
