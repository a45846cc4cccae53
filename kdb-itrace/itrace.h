/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Core state of the module: the traced-task table, the per-CPU logs and
 * the entry points the command glue (kdb, debugfs), the notifiers and
 * the arch code use.
 */
#ifndef _ITRACE_H
#define _ITRACE_H

#include <linux/atomic.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "arch.h"
#include "lib/out.h"
#include "lib/parse.h"
#include "lib/ring.h"
#include "state.h"
#include "trigger.h"
#include "lib/symmap.h"

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
	u8 ended;			/* why tracing ended itself: ITRACE_END_* */
	bool range_on;			/* record only what touches the range */
	u64 range_lo, range_hi;		/* [lo, hi), resolved at arming */
	struct itrace_range range;	/* as given */
	u32 max;			/* record budget per `on`, 0: none */
	u32 budget;			/* of which this many are left */
	char func[ITRACE_FUNC_NAME + 1];	/* `func`, or "" */
	char start[ITRACE_FUNC_NAME + 1];	/* `start`, or "" */
	char stop[ITRACE_FUNC_NAME + 1];	/* `stop`, or "" */
	u32 count;			/* its first N entries only, 0: all */
	struct itrace_trigger trig;	/* its state (trigger.c) */
	bool work_queued;		/* work below is on the task's list */
	bool rearm_queued;		/* rearm_work is on the task's list */
	char comm[TASK_COMM_LEN];
	struct callback_head work;	/* arming (start.c) */
	struct callback_head rearm_work;	/* after uprobes (rearm.c) */
	unsigned long rearm_from;	/* the probe, or where a signal came */
	unsigned long prev_ip;		/* where the last step trap left it */
	u64 steps;			/* step traps taken (ours, a tracer's) */
	u64 records;			/* records logged */
	u64 gen_records;		/* of those, before the gen's exec */
	struct itrace_arch_slot arch;
	struct itrace_symmap map;
	struct itrace_capmaps __rcu *capmaps;	/* capture.c */
};

/* Why a slot's tracing ended without an `off` (status says so). */
enum itrace_end {
	ITRACE_END_NONE,
	ITRACE_END_MAX,		/* the record budget was spent */
};

/* The `on` options @s was armed with (followed tasks inherit them). */
void itrace_slot_opts(const struct itrace_slot *s, struct itrace_on_opts *o);
/* "func" or "start" if @r starts a trigger's invocation, else NULL */
const char *itrace_rec_entry(const struct itrace_rec *r, u64 prev_to);

/* Upper bound of the max_tasks module parameter. */
#define ITRACE_MAX_TASKS	256

extern struct itrace_slot *itrace_slots;
extern unsigned int itrace_nr_slots;
extern atomic_t itrace_nr_live;
extern bool itrace_shutdown;

/*
 * Set a false *@flag to true, atomically; false if it was true already.
 * Through u8: on powerpc the byte cmpxchg returns the rest of the word
 * too, and the cast of that to bool is not the old byte.
 */
static inline bool itrace_take_flag(bool *flag)
{
	return !cmpxchg((u8 *)flag, 0, 1);
}

/* table.c */
int itrace_table_init(unsigned int nr);
void itrace_table_free(void);
struct itrace_slot *itrace_slot_of(struct task_struct *p);
struct itrace_slot *itrace_slot_of_current(void);
struct itrace_slot *itrace_slot_claim(void);
bool itrace_slot_take_work(struct itrace_slot *s);
unsigned int itrace_slots_free(void);
unsigned int itrace_slots_used(void);
const char *itrace_state_name(int state);
const struct itrace_symmap *itrace_slot_map(const struct itrace_rec *r);

/* log.c */
int itrace_log_init(unsigned int per_cpu);
void itrace_log_free(void);
void itrace_emit_rec(struct itrace_slot *s, unsigned int kind,
		     unsigned long from, unsigned long to);
void itrace_log_clear(void);
const u64 *itrace_log_dropped(bool stopped);
unsigned int itrace_log_per_cpu(void);
const struct itrace_ring *itrace_log_ring(unsigned int cpu);
u64 itrace_log_last_seq(void);
u64 itrace_log_clear_seq(void);

/* capture.c: the mappings a capture needs, and the debugfs `maps` file */
void itrace_capture_take(struct itrace_slot *s);
void itrace_capture_exit(void);

/* merge.c */
struct itrace_merge *itrace_merge_alloc(void);
void itrace_merge_free(struct itrace_merge *m);
int itrace_merge_copy(struct itrace_merge *m, u64 max_seq);
void itrace_merge_start(struct itrace_merge *m, int pid, u64 max_seq);
bool itrace_merge_next(struct itrace_merge *m, struct itrace_rec *out,
		       unsigned int *out_cpu);
u64 itrace_merge_torn(const struct itrace_merge *m);
u64 itrace_merge_late(const struct itrace_merge *m);
struct itrace_tail *itrace_tail_alloc(void);
void itrace_tail_free(struct itrace_tail *t);
void itrace_tail_start(struct itrace_tail *t);
bool itrace_tail_next(struct itrace_tail *t, struct itrace_rec *out,
		      unsigned int *out_cpu, bool *waiting);
u64 itrace_tail_take_lost(struct itrace_tail *t);

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

/* start.c: a slot claimed and queued, armed, released */
struct itrace_slot *itrace_start(struct task_struct *p,
				 struct itrace_slot *s, u8 mode,
				 const struct itrace_on_opts *o);
void itrace_start_undo(struct task_struct *p);
void itrace_arm_work(struct callback_head *cb);
void itrace_slot_release(struct itrace_slot *s);
void itrace_slot_release_all(struct task_struct *p, struct itrace_slot *keep);

/* lifecycle.c */
int itrace_lifecycle_init(void);
void itrace_lifecycle_exit(void);
extern atomic_t itrace_follow_missed;
void itrace_disarm_all_stopped(void);

/* work.c: the task_work callbacks, queued and retired */
int itrace_work_add(struct task_struct *p, struct callback_head *cb,
		    bool *queued, task_work_func_t fn,
		    enum task_work_notify_mode mode);
int itrace_work_queue(struct task_struct *p, struct callback_head *cb,
		      bool *queued, task_work_func_t fn,
		      enum task_work_notify_mode mode);
void itrace_work_done(bool *queued);
void itrace_works_exit(void);

/* trigger.c: `func`, `start`, `stop`; trigger_cond.c: `if` */
bool itrace_trigger_setup(struct itrace_slot *s);
bool itrace_trigger_cond_holds(struct itrace_trigger *t, struct pt_regs *regs);
void itrace_trigger_cond_init(void);
void itrace_trigger_release(struct itrace_slot *s);
void itrace_trigger_status(const struct itrace_slot *s, char *buf,
			   size_t len);
int itrace_trigger_cond_compile(struct itrace_cond *c, int argc,
				const char *const *argv, bool kdb, char *err,
				size_t errlen);
void itrace_trigger_cond_print(const struct itrace_cond *c, char *buf,
			       size_t len);
void itrace_triggers_init(void);
void itrace_triggers_exit(void);

/*
 * The task with thread id @pid in the initial pid namespace (the ids
 * kdb and debugfs use), or NULL. Inside rcu_read_lock(), or in kdb.
 */
static inline struct task_struct *itrace_task_of(int pid)
{
	return pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
}

static inline bool itrace_slot_opts_places(const struct itrace_on_opts *o)
{
	return o->func[0] || o->start[0] || o->stop[0];
}

static inline bool itrace_slot_has_trigger(const struct itrace_slot *s)
{
	return s->func[0] || s->start[0] || s->stop[0];
}

/*
 * An invocation (or start..stop) is over: wait for the next entry, or be
 * done if `count N` allowed no more, or if there is no entry to wait for
 * (a stop alone).
 */
static inline u8 itrace_trigger_next(const struct itrace_slot *s)
{
	const struct itrace_trigger *t = &s->trig;

	if ((s->count && t->entries >= s->count) ||
	    (!s->func[0] && !s->start[0]))
		return ITRACE_TRIG_DONE;
	return ITRACE_TRIG_WAITING;
}

/* Is @s's task to be stepped now (not waiting for its function)? */
static inline bool itrace_slot_stepping(const struct itrace_slot *s)
{
	u8 t = READ_ONCE(s->trig.state);

	return t == ITRACE_TRIG_NONE || t == ITRACE_TRIG_INSIDE;
}

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

/* watch.c: `on comm` */
int itrace_watch_add(const char *comm, u8 mode,
		     const struct itrace_on_opts *o);
int itrace_watch_remove(const char *comm);
void itrace_watch_exec(struct task_struct *p);
struct itrace_ctx;
void itrace_watch_status(struct itrace_ctx *ctx);

/* rearm.c: the uprobes hand-off */
void itrace_rearm_after(struct itrace_slot *s, unsigned long from);
void itrace_rearm_drop_stray(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs);
void itrace_rearm_pre_notify(struct itrace_slot *s, unsigned long val,
			     struct pt_regs *regs);

/* notify.c */
int itrace_notify_init(void);
void itrace_notify_exit(void);

/* command.c, command_onoff.c, command_view.c: one command, every front-end */
struct itrace_ctx {
	struct itrace_out *out;
	struct itrace_merge *merge;	/* `log` state, the caller's own */
	bool stopped;			/* kdb: every other CPU is stopped */
	bool kdb_words;			/* the words are kdb_parse()'s (cond.h) */
};

/*
 * Run the command whose words (after `itrace`) are @argv. Returns 0, or
 * a negative errno when it was refused (bad syntax: -EINVAL); either way
 * its output, errors included, went to ctx->out. Outside kdb the caller
 * runs one command at a time.
 */
int itrace_exec(int argc, const char *const *argv, struct itrace_ctx *ctx);
int itrace_cmd_on(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_off(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
/* command_view.c */
int itrace_cmd_calls(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_stack(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);
int itrace_cmd_regs(const struct itrace_cmd *cmd, struct itrace_ctx *ctx);

/*
 * Front-ends: each runs itrace_exec(). The ones that came up at load
 * (main.c sets them), named by `status` and the load message
 * (command.c).
 */
enum {
	ITRACE_FE_KDB = 1 << 0,
	ITRACE_FE_DEBUGFS = 1 << 1,
	ITRACE_FE_XMON = 1 << 2,
};

extern unsigned int itrace_frontends;
const char *itrace_frontends_str(char *buf, size_t len);

/* kdb_cmd.c, built only on kernels with kdb (CONFIG_KGDB_KDB) */
#if IS_ENABLED(CONFIG_KGDB_KDB)
int itrace_kdb_init(void);
void itrace_kdb_exit(void);
#else
static inline int itrace_kdb_init(void)
{
	return -ENODEV;
}

static inline void itrace_kdb_exit(void)
{
}
#endif

/*
 * xmon.c, built only on kernels with xmon (CONFIG_XMON): the entry
 * points xmon's `p` command calls, and their load-time buffer.
 */
#if IS_ENABLED(CONFIG_XMON)
int itrace_xmon_init(void);
void itrace_xmon_exit(void);
long itrace_xmon_on(unsigned long pid, unsigned long mode,
		    unsigned long flags, unsigned long kinds);
long itrace_xmon_off(unsigned long pid);
long itrace_xmon_log(unsigned long pid, unsigned long count,
		     unsigned long raw);
long itrace_xmon_calls(unsigned long pid, unsigned long count);
long itrace_xmon_stack(unsigned long pid);
long itrace_xmon_regs(unsigned long pid);
long itrace_xmon_status(void);
long itrace_xmon_clear(void);
long itrace_xmon_help(void);
#else
static inline int itrace_xmon_init(void)
{
	return -ENODEV;
}

static inline void itrace_xmon_exit(void)
{
}
#endif

/* debugfs.c: 0, or why there are no debugfs files (lockdown, ...) */
int itrace_debugfs_init(void);
void itrace_debugfs_exit(void);

#endif /* _ITRACE_H */
