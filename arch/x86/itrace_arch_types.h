/* SPDX-License-Identifier: GPL-2.0 */
/* x86 per-task tracing state, embedded in the core's struct itrace_slot. */
#ifndef _ITRACE_ARCH_TYPES_H
#define _ITRACE_ARCH_TYPES_H

#include <linux/types.h>
#include <linux/task_work.h>
#include "lib/insn_decode.h"

/* A call with prefixes: up to the 15-byte instruction limit. */
#define ITRACE_CALL_LEN_MAX	15

/*
 * The program's own TF is kept apart from ours (sigframe.c, which owns
 * tf, utf, soft and the sigret fields).
 */
struct itrace_arch_slot {
	bool btf;	/* hardware BTF was armed for the coming trap */
	bool line;	/* BTF ran since prev_ip, then ptrace dropped it */
	u8 btf_miss;	/* consecutive BTF traps that were plain steps */
	bool tf;	/* our TF is set in the task's registers */
	bool utf;	/* the TF the program itself has set, as it sees it */
	bool soft;	/* block mode steps in software from now on */
	bool sigret;	/* a sigreturn frame holds our TF: module pinned */
	bool sigret_tf;	/* the TF that frame held for the program */
	bool sigret_queued;		/* sigret_work is on the task's list */
	unsigned long sigret_ip;	/* that sigreturn's system call */
	unsigned long sigret_resume;	/* the ip its frame resumes at */
	struct callback_head sigret_work;
	struct itrace_x86_insn insn;	/* the trap path's decode of prev_ip */
};

/* The die events of the uprobes hand-off (kdb-itrace/core/rearm.c). */
#define ITRACE_DIE_BREAKPOINT	DIE_INT3
#define ITRACE_DIE_XOL_STEP	DIE_DEBUG

/* sigframe.c: the sigreturn work may still be queued on the slot's task */
bool itrace_arch_slot_busy(const struct itrace_arch_slot *a);
#define itrace_arch_slot_busy itrace_arch_slot_busy

/* ibt.c: IBT off on this CPU around a call into sealed kernel text. */
u64 itrace_arch_foreign_call_begin(void);
void itrace_arch_foreign_call_end(u64 saved);
#define itrace_arch_foreign_call_begin itrace_arch_foreign_call_begin

#endif /* _ITRACE_ARCH_TYPES_H */
