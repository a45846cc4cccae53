/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A memo of the x86 decoder for the trap path. Each trap reads the 16
 * bytes at the stepped ip anyway; a direct-mapped table indexed by the
 * ip remembers what those bytes decode to. The bytes (and the mode) are
 * the key, so an entry is never stale: rewritten code, another mapping
 * at the address or another task's program only miss. One table per
 * CPU, written only by that CPU's traps. Pure C, shared with host tests.
 */
#ifndef _ITRACE_X86_INSN_CACHE_H
#define _ITRACE_X86_INSN_CACHE_H

#include "insn_decode.h"

/* Entries per table, a power of two: 256 x 32 bytes per CPU. */
#define ITRACE_X86_DCACHE	256

struct itrace_x86_dcache {
	u64 w[2];			/* the 16 bytes at the ip */
	struct itrace_x86_insn d;	/* what they decode to */
	u8 tag;				/* 1 + enum itrace_x86_mode; 0: empty */
};

/* The miss path of itrace_x86_decode_cached(): decode, and remember. */
int itrace_x86_dcache_fill(struct itrace_x86_dcache *e, u64 w0, u64 w1,
			   enum itrace_x86_mode mode,
			   struct itrace_x86_insn *out);

/*
 * Decode the instruction whose 16 bytes at @ip are @w0 and @w1 (each
 * as loaded from memory: w0 holds the first 8), through @tab. Same
 * result as itrace_x86_decode() on those bytes.
 */
static inline int itrace_x86_decode_cached(struct itrace_x86_dcache *tab,
					   u64 ip, u64 w0, u64 w1,
					   enum itrace_x86_mode mode,
					   struct itrace_x86_insn *out)
{
	struct itrace_x86_dcache *e = &tab[ip & (ITRACE_X86_DCACHE - 1)];

	if (likely(e->tag == mode + 1 && e->w[0] == w0 && e->w[1] == w1)) {
		*out = e->d;
		return 0;
	}
	return itrace_x86_dcache_fill(e, w0, w1, mode, out);
}

#endif /* _ITRACE_X86_INSN_CACHE_H */
