// SPDX-License-Identifier: GPL-2.0
/* The miss path of the x86 decoder memo (see insn_cache.h). */
#include "insn_cache.h"

int itrace_x86_dcache_fill(struct itrace_x86_dcache *e, u64 w0, u64 w1,
			   enum itrace_x86_mode mode,
			   struct itrace_x86_insn *out)
{
	u8 buf[sizeof(e->w)];

	memcpy(buf, &w0, sizeof(w0));
	memcpy(buf + sizeof(w0), &w1, sizeof(w1));
	if (itrace_x86_decode(buf, sizeof(buf), mode, out))
		return -1;
	e->w[0] = w0;
	e->w[1] = w1;
	e->d = *out;
	e->tag = mode + 1;
	return 0;
}
