/* SPDX-License-Identifier: GPL-2.0 */
/* x86 per-task tracing state, embedded in the core's struct itrace_slot. */
#ifndef _ITRACE_ARCH_TYPES_H
#define _ITRACE_ARCH_TYPES_H

#include <linux/types.h>
#include <linux/task_work.h>

/* A call with prefixes: up to the 15-byte instruction limit. */
#define ITRACE_CALL_LEN_MAX	15

/* Signal frames deeper than this stay pinned until exit or exec. */
#define ITRACE_X86_FRAMES	8

/* Where a frame holding our TF lives: [lo, hi), or above lo if hi is ~0. */
struct itrace_x86_frame {
	unsigned long lo;
	unsigned long hi;
};

struct itrace_arch_slot {
	bool btf;	/* hardware BTF was armed for the coming trap */
	bool line;	/* BTF ran since prev_ip, then ptrace dropped it */
	u8 btf_miss;	/* consecutive BTF traps that were plain steps */
	u8 nframes;			/* signal frames pinning the module */
	struct itrace_x86_frame frame[ITRACE_X86_FRAMES];
};

/* The die events of the uprobes hand-off (kdb-itrace/rearm.c). */
#define ITRACE_DIE_BREAKPOINT	DIE_INT3
#define ITRACE_DIE_XOL_STEP	DIE_DEBUG

/* ibt.c: IBT off on this CPU around a call into sealed kernel text. */
u64 itrace_arch_foreign_call_begin(void);
void itrace_arch_foreign_call_end(u64 saved);
#define itrace_arch_foreign_call_begin itrace_arch_foreign_call_begin

#endif /* _ITRACE_ARCH_TYPES_H */
