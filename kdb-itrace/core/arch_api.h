/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the core publishes to arch/<arch>/, and all the arch code may call
 * or read of it: the slot (slot.h), the record emitter of the trap path,
 * the task_work helpers, and the unload flag. The arch implements arch.h
 * (its hooks); it calls nothing else of the core, so that the core's
 * insides can change without touching an arch (scripts/layers.conf:
 * "published"). Trap context for itrace_emit(); the work helpers in any
 * context the arch hook calling them runs in (see work.c).
 */
#ifndef _ITRACE_CORE_ARCH_API_H
#define _ITRACE_CORE_ARCH_API_H

#include <linux/task_work.h>
/* the ITRACE_K_* kinds the arch's records carry */
#include "lib/kind.h"
#include "slot.h"

/*
 * Set once at unload, or when a load fails after the core came up
 * (core.c): from then on traps disarm, never re-arm.
 */
extern bool itrace_shutdown;

/* log.c */
void itrace_emit_rec(struct itrace_slot *s, unsigned int kind,
		     unsigned long from, unsigned long to);
/* stack.c: a call or return kept in the task's live stack */
void itrace_emit_frame(struct itrace_slot *s, unsigned int kind,
		       unsigned long from, unsigned long to);

/* The kinds the live shadow stack follows (core/stack.c). */
#define ITRACE_KINDS_FRAME	((1u << ITRACE_K_CALL) | \
				 (1u << ITRACE_K_ICALL) | (1u << ITRACE_K_RET))

/* remap.c: a transfer outside the mapping the last one went into */
void itrace_remap_miss(struct itrace_slot *s, unsigned long to);

/*
 * Trap context, IRQs off: current's slot @s went from @from to @to
 * through an instruction of @kind. A transfer into code outside the
 * task's mappings as @s knows them has them copied again; calls and
 * returns go to its live stack whatever is logged; the record goes to
 * the log if its mode and kind filter want that kind. The tests are
 * inline: most steps are no transfer, or one within the same mapping,
 * and insn mode under a kind filter and block mode drop most steps.
 */
static __always_inline void itrace_emit(struct itrace_slot *s,
					unsigned int kind, unsigned long from,
					unsigned long to)
{
	if ((ITRACE_KINDS_TRANSFER & (1u << kind)) &&
	    unlikely(to - s->known_lo >= s->known_len))
		itrace_remap_miss(s, to);
	if (ITRACE_KINDS_FRAME & (1u << kind))
		itrace_emit_frame(s, kind, from, to);
	if (s->emit_kinds & (1u << kind))
		itrace_emit_rec(s, kind, from, to);
}

/* work.c: queue a task_work of the module's, and retire it as it runs */
int itrace_work_queue(struct task_struct *p, struct callback_head *cb,
		      bool *queued, task_work_func_t fn,
		      enum task_work_notify_mode mode);
void itrace_work_done(bool *queued);

#endif /* _ITRACE_CORE_ARCH_API_H */
