/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core state of the module: the traced-task table, the per-CPU logs and
 * the entry points the kdb command, the notifiers and the arch code use.
 */
#ifndef _ITRACE_H
#define _ITRACE_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "arch.h"
#include "parse.h"
#include "ring.h"
#include "symmap.h"

/*
 * Slot life cycle. Transitions are cmpxchg'ed: kdb can freeze any other
 * CPU in the middle of one.
 *   FREE -> PENDING (kdb `on`: task_work queued)
 *   PENDING -> ARMED (task_work, in the task) | FREE (off before it ran)
 *   ARMED -> OFF (kdb `off`) -> LINGER (next trap cleared TF)
 *   LINGER -> ARMED again via PENDING (`on` the same task)
 *   any -> FREE at exit/exec of the task (or unload)
 * LINGER exists because x86 signal frames save TF: a task that was in a
 * handler at `off` gets TF back at sigreturn, and that trap must still
 * be swallowed or the task dies of SIGTRAP.
 */
enum itrace_state {
	ITRACE_FREE,
	ITRACE_PENDING,
	ITRACE_ARMED,
	ITRACE_OFF,
	ITRACE_LINGER,
};

struct itrace_slot {
	atomic_t state;
	struct task_struct *task;	/* referenced while not FREE */
	pid_t pid;			/* the task's tid */
	pid_t tgid;			/* its process */
	u16 gen;			/* bumped at every claim (and exec) */
	u8 idx;
	u8 mode;			/* enum itrace_mode */
	u8 flags;			/* ITRACE_F_*, inherited when followed */
	u16 kinds;			/* kinds to record, bit per enum itrace_kind */
	u16 emit_kinds;			/* what the mode logs of those */
	bool work_queued;		/* work below is on the task's list */
	char comm[TASK_COMM_LEN];
	struct callback_head work;
	unsigned long prev_ip;		/* where the last step trap left it */
	u64 steps;			/* our traps taken */
	u64 records;			/* records logged */
	u64 gen_records;		/* of those, before the gen's exec */
	struct itrace_arch_slot arch;
	struct itrace_symmap map;
};

/* Upper bound of the max_tasks module parameter. */
#define ITRACE_MAX_TASKS	256

extern struct itrace_slot *itrace_slots;
extern unsigned int itrace_nr_slots;
extern bool itrace_shutdown;

/* table.c */
int itrace_table_init(unsigned int nr);
void itrace_table_free(void);
struct itrace_slot *itrace_slot_of(struct task_struct *p);
struct itrace_slot *itrace_slot_of_current(void);
struct itrace_slot *itrace_slot_claim(void);
unsigned int itrace_slots_free(void);
void itrace_slot_release(struct itrace_slot *s);
const char *itrace_state_name(int state);

/* log.c */
int itrace_log_init(unsigned int per_cpu);
void itrace_log_free(void);
void itrace_emit_rec(struct itrace_slot *s, unsigned int kind,
		     unsigned long from, unsigned long to);
void itrace_log_clear(void);
const u64 *itrace_log_dropped(void);
void itrace_log_show(const struct itrace_cmd *cmd);
unsigned int itrace_log_per_cpu(void);

/*
 * Trap context, IRQs off: log that current's slot @s went from @from to
 * @to through an instruction of @kind, if its mode and kind filter want
 * that kind. The filter is inline: insn mode under a kind filter and
 * block mode drop most steps.
 */
static __always_inline void itrace_emit(struct itrace_slot *s,
					unsigned int kind, unsigned long from,
					unsigned long to)
{
	if (s->emit_kinds & (1u << kind))
		itrace_emit_rec(s, kind, from, to);
}

/* lifecycle.c */
int itrace_lifecycle_init(void);
void itrace_lifecycle_exit(void);
struct itrace_slot *itrace_start(struct task_struct *p,
				 struct itrace_slot *s, u8 mode, u8 flags,
				 u16 kinds);
extern atomic_t itrace_follow_missed;
int itrace_work_queue(struct task_struct *p, struct callback_head *cb,
		      bool *queued, task_work_func_t fn,
		      enum task_work_notify_mode mode);
void itrace_work_done(bool *queued);
void itrace_disarm_all_stopped(void);

/* notify.c */
int itrace_notify_init(void);
void itrace_notify_exit(void);

/* kdb_cmd.c */
int itrace_kdb_init(void);
void itrace_kdb_exit(void);

#endif /* _ITRACE_H */
