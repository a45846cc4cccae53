// SPDX-License-Identifier: GPL-2.0
/* The miss path of the x86 decoder memo (see insn_cache.h). */
#include "insn_cache.h"

int itrace_x86_dcache_fill(struct itrace_x86_dcache *e, u64 w0, u64 w1,
			   enum itrace_x86_mode mode,
			   struct itrace_x86_insn *out)
{
	/* the entry's words hold the bytes as they were in memory */
	e->tag = 0;
	e->w[0] = w0;
	e->w[1] = w1;
	if (itrace_x86_decode((const u8 *)e->w, sizeof(e->w), mode, &e->d))
		return -1;
	e->tag = mode + 1;
	*out = e->d;
	return 0;
}
