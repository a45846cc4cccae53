/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the core's own files share and nobody above them may call: the
 * table's claim and release, the logs' set-up, the task_work and the
 * arming, the trap path's notifier and re-arm, the triggers' innards.
 * The executor and the front-ends see itrace.h, the arch code
 * arch_api.h (both included here). Contexts: as each call says.
 */
#ifndef _ITRACE_CORE_CORE_H
#define _ITRACE_CORE_CORE_H

#include <linux/ptrace.h>
#include <linux/task_work.h>
#include "arch_api.h"
#include "itrace.h"

struct k_sigaction;
struct kernel_siginfo;

/* table.c */
int itrace_table_init(unsigned int nr);
void itrace_table_free(void);
struct itrace_slot *itrace_slot_of_current(void);
struct itrace_slot *itrace_slot_claim(void);
bool itrace_slot_take_work(struct itrace_slot *s);
unsigned int itrace_slots_used(void);

/* stack.c: the live shadow stacks, begun again as the task */
int itrace_stacks_init(unsigned int frames);
void itrace_stacks_free(void);
void itrace_stack_begin(struct itrace_slot *s);
void itrace_stack_fork(struct itrace_slot *cs, struct itrace_slot *ps,
		       struct task_struct *child);

/* log.c */
int itrace_log_init(unsigned int per_cpu);
void itrace_log_free(void);
const struct itrace_ring *itrace_log_ring(unsigned int cpu);
u64 itrace_log_clear_seq(void);

/* capture.c: the mappings a capture needs */
void itrace_capture_take(struct itrace_slot *s);
void itrace_capture_exit(void);

/* start.c: a slot armed, released */
void itrace_arm_work(struct callback_head *cb);
void itrace_slot_release(struct itrace_slot *s);
void itrace_slot_release_all(struct task_struct *p, struct itrace_slot *keep);

/* lifecycle.c */
int itrace_lifecycle_init(void);
void itrace_lifecycle_exit(void);
void itrace_disarm_all_stopped(void);

/* work.c: the task_work callbacks, queued and retired */
int itrace_work_add(struct task_struct *p, struct callback_head *cb,
		    bool *queued, task_work_func_t fn,
		    enum task_work_notify_mode mode);
void itrace_works_exit(void);

/* trigger.c: `func`, `start`, `stop`; trigger_cond.c: `if` */
bool itrace_trigger_setup(struct itrace_slot *s);
bool itrace_trigger_cond_holds(struct itrace_trigger *t, struct pt_regs *regs);
void itrace_trigger_cond_init(void);
void itrace_triggers_init(void);
void itrace_triggers_exit(void);

/* Has the step at @sp, @ip left invocation @f (returned, or jumped out)? */
static inline bool itrace_frame_left(const struct itrace_trig_frame *f,
				     unsigned long sp, unsigned long ip)
{
	return sp > f->sp || (sp == f->sp && ip == f->ret_ip);
}

void itrace_trigger_unnest(struct itrace_trigger *t, unsigned long sp,
			   unsigned long ip);

/*
 * Trap context, every step: has the step in @regs left the `func`
 * invocation's frame (stack pointer above the entry's, or at it and back
 * at the return address)? Then the slot waits for the next entry, or
 * with `count N` after the Nth is done with its function. Inline:
 * without `func` it is one compare; inside a recursion of F, the inner
 * frames it left are counted off (trigger.c).
 */
static inline bool itrace_trigger_left(struct itrace_slot *s,
				       struct pt_regs *regs)
{
	struct itrace_trigger *t = &s->trig;
	unsigned long sp, ip;

	if (t->state != ITRACE_TRIG_INSIDE || !t->by_frame)
		return false;
	sp = user_stack_pointer(regs);
	ip = instruction_pointer(regs);
	if (!itrace_frame_left(&t->frame[0], sp, ip)) {
		if (t->depth > 1)
			itrace_trigger_unnest(t, sp, ip);
		return false;
	}
	WRITE_ONCE(t->state, itrace_trigger_next(s));
	return true;
}

/* values.c: values in records, and the sys_exit hook they need */
void itrace_values_init(void);
void itrace_values_exit(void);
void itrace_values_setup(struct itrace_slot *s);
void itrace_values_entry(struct itrace_slot *s, struct pt_regs *regs);
unsigned int itrace_values_take(struct itrace_slot *s, unsigned int kind,
				unsigned long from, unsigned long to, u64 *v);

/* keep.c: the flight recorder */
void itrace_keep_setup(struct itrace_slot *s);
void itrace_keep_exit(void);
void itrace_keep_push(struct itrace_slot *s, const struct itrace_rec *r,
		      unsigned int cpu);
bool itrace_keep_get(struct itrace_slot *s, struct itrace_ring *copy);
void itrace_keep_put(struct itrace_slot *s);
void itrace_keep_signal(struct itrace_slot *s, int sig,
			const struct kernel_siginfo *info,
			const struct k_sigaction *ka);
void itrace_keep_stop(struct itrace_slot *s, unsigned long ip);

/* remap.c: the slot's copy of the task's mappings, as the task */
void itrace_remap_take(struct itrace_slot *s);

/* watch.c: `on comm` at exec, and at a rename without exec */
void itrace_watch_exec(struct task_struct *p);
void itrace_watch_rename(struct task_struct *p, const char *comm);

/* rearm.c: the uprobes hand-off */
void itrace_rearm_after(struct itrace_slot *s, unsigned long from);
void itrace_rearm_drop_stray(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs);
void itrace_rearm_pre_notify(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs);

/* notify.c */
int itrace_notify_init(void);
void itrace_notify_exit(void);

#endif /* _ITRACE_CORE_CORE_H */
