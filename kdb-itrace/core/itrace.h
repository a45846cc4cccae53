/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel core's public face: what the command executor (exec/), the
 * front-ends (frontend/) and the module entry (main.c) may use of it.
 * The slot and its readers are in slot.h; what only the core's own files
 * share is in core.h, what the arch code may use in arch_api.h. Each
 * call says its context; the readers take no lock (kdb calls them on a
 * stopped machine).
 */
#ifndef _ITRACE_CORE_ITRACE_H
#define _ITRACE_CORE_ITRACE_H

#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/sched.h>
#include "lib/out.h"
#include "slot.h"

/*
 * core.c, process context (insmod, rmmod): bring the core up with
 * @max_tasks slots, @log_records per CPU and @stack_frames in each
 * slot's live stack (0: none), or say why not and leave
 * nothing behind; take it down, leaving every traced task running and
 * untraced (no front-end may run a command any more).
 */
int itrace_core_init(unsigned int max_tasks, unsigned int log_records,
		     unsigned int stack_frames);
void itrace_core_exit(void);

/* log.c: the readers of the per-CPU logs */
void itrace_log_clear(void);
const u64 *itrace_log_dropped(bool stopped);
unsigned int itrace_log_per_cpu(void);
u64 itrace_log_last_seq(void);

/* keep.c: a thread's own ring (keep N) and its freeze, any context */
bool itrace_keep_holds(const struct itrace_slot *s);
u64 itrace_keep_overwritten(const struct itrace_slot *s);
const char *itrace_keep_signame(char *buf, size_t len, int sig);
/* `off`: let a frozen slot's history go (FROZEN -> FREE) */
bool itrace_keep_thaw(struct itrace_slot *s);

/* stack.c: a traced thread's live stack, any context */
unsigned int itrace_stack_frames(void);
void itrace_stack_read(const struct itrace_slot *s,
		       struct itrace_shadow_frame *out, u32 max,
		       struct itrace_shadow_view *v, bool stopped);

/* merge.c */
struct itrace_merge *itrace_merge_alloc(void);
void itrace_merge_free(struct itrace_merge *m);
int itrace_merge_copy(struct itrace_merge *m, u64 max_seq);
void itrace_merge_start(struct itrace_merge *m, int pid, u64 max_seq);
/* the thread whose own kept ring that merge reads (keep N), or NULL */
const struct itrace_slot *itrace_merge_kept(const struct itrace_merge *m);
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

/* start.c: `on` claims and queues a slot; undone if the command fails */
struct itrace_slot *itrace_start(struct task_struct *p,
				 struct itrace_slot *s, u8 mode,
				 const struct itrace_on_opts *o);
void itrace_start_undo(struct task_struct *p);

/* lifecycle.c: children `follow` could not trace (table full) */
extern atomic_t itrace_follow_missed;

/* trigger.c, trigger_cond.c: what `on` and `status` ask of a trigger */
void itrace_trigger_release(struct itrace_slot *s);
void itrace_trigger_status(const struct itrace_slot *s, char *buf,
			   size_t len);
int itrace_trigger_cond_compile(struct itrace_cond *c, int argc,
				const char *const *argv, bool kdb, char *err,
				size_t errlen);
void itrace_trigger_cond_print(const struct itrace_cond *c, char *buf,
			       size_t len);

/* watch.c: `on comm` */
int itrace_watch_add(const char *comm, u8 mode,
		     const struct itrace_on_opts *o);
int itrace_watch_remove(const char *comm);
void itrace_watch_status(struct itrace_out *out);

/*
 * capture.c: every slot's mappings text (the debugfs `maps` file) into
 * @buf of @room bytes, if it fits; its length either way. Process
 * context.
 */
size_t itrace_capture_copy(char *buf, size_t room);

/*
 * ksym.c: print @s on xmon's console with xmon_printf() (no locks: it
 * writes through udbg, as xmon does); false if the kernel has no xmon or
 * the function was not found at load. Inside xmon only.
 */
bool itrace_xmon_puts(const char *s);
bool itrace_xmon_printer(void);

/*
 * The task with thread id @pid in the initial pid namespace (the ids
 * kdb and debugfs use), or NULL. Inside rcu_read_lock(), or in kdb.
 */
static inline struct task_struct *itrace_task_of(int pid)
{
	return pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID);
}

#endif /* _ITRACE_CORE_ITRACE_H */
