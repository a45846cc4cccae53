/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced-task table's slot, published to the whole module: the core
 * writes it, the executor and the front-ends read it (`status`, `on`),
 * the arch code keeps its part in it (struct itrace_arch_slot). Its
 * state changes only through state.h's helpers. The readers here run in
 * any context, kdb's stopped machine included: they take no lock.
 */
#ifndef _ITRACE_CORE_SLOT_H
#define _ITRACE_CORE_SLOT_H

#include <linux/atomic.h>
#include <linux/sched.h>
#include <linux/types.h>
#include "arch.h"
#include "lib/codememo.h"
#include "lib/parse.h"
#include "lib/ring.h"
#include "lib/shadow.h"
#include "lib/symmap.h"
#include "state.h"
#include "trigger.h"

/*
 * A traced thread's system call that returned (values.c): to where, its
 * number and return value. A few, for block mode's straight lines.
 */
struct itrace_sysret {
	u64 ip;
	long nr, ret;
};

#define ITRACE_SYSRETS	4

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
	struct itrace_shadow shadow;	/* the live call stack (stack.c) */
	bool stack_inherited;		/* a fork's copy: kept at arming */
	struct itrace_symmap map;
	/* map kept up to date (remap.c): as the task, or in its traps */
	u64 known_lo, known_len;	/* where the last transfer went */
	int known_vmas;			/* mm->map_count when last looked at */
	bool remap_queued;		/* remap_work is on the task's list */
	struct callback_head remap_work;
	struct itrace_capmaps __rcu *capmaps;	/* capture.c */
	/* the flight recorder (keep.c) */
	u32 keep;			/* `keep N` as given, 0: none */
	struct itrace_ring kept;	/* its own ring; recs NULL: none */
	u16 kept_gen;			/* the gen kept's records are of */
	atomic_t kept_readers;		/* readers walking kept now */
	u8 keep_note;			/* enum itrace_keep_note */
	u8 frozen;			/* enum itrace_froze: kept stopped */
	int frozen_sig;			/* the signal that froze it */
	bool frozen_fault;		/* a fault's signal: frozen_addr holds */
	u64 frozen_ip, frozen_addr;	/* where; the fault's address */
	/* values in records (values.c) */
	u8 args;			/* `args N`, 0: none */
	u16 val_kinds;			/* kinds whose records get values */
	/* a trigger's entry: its arguments, for the record that starts it */
	u8 entry_nval;
	u64 entry_val[ITRACE_REC_VALS];
	/* system calls that returned, their records not made yet */
	struct itrace_sysret sysret[ITRACE_SYSRETS];
	u32 sysret_head, sysret_tail;
	/* the bytes of what it ran, noted by its traps (log -i) */
	struct itrace_code_memo code;
};

/* Why a slot's kept ring stopped taking records (keep.c). */
enum itrace_froze {
	ITRACE_FROZE_NOT,
	ITRACE_FROZE_SIGNAL,	/* a fatal signal (frozen_sig) */
	ITRACE_FROZE_STOP,	/* its `stop` place */
};

/* What keep.c could not do as asked (status says). */
enum itrace_keep_note {
	ITRACE_KEEP_OK,
	ITRACE_KEEP_NOMEM,	/* no memory for the ring: none kept */
	ITRACE_KEEP_BUSY,	/* readers held the old ring: its size kept */
	ITRACE_KEEP_NO_KDB,	/* break: no kgdb I/O driver to enter kdb */
};

/* Why a slot's tracing ended without an `off` (status says so). */
enum itrace_end {
	ITRACE_END_NONE,
	ITRACE_END_MAX,		/* the record budget was spent */
};

/* Upper bound of the max_tasks module parameter. */
#define ITRACE_MAX_TASKS	256

extern struct itrace_slot *itrace_slots;
extern unsigned int itrace_nr_slots;
extern atomic_t itrace_nr_live;

/*
 * Set a false *@flag to true, atomically; false if it was true already.
 * Through u8: on powerpc the byte cmpxchg returns the rest of the word
 * too, and the cast of that to bool is not the old byte.
 */
static inline bool itrace_take_flag(bool *flag)
{
	return !cmpxchg((u8 *)flag, 0, 1);
}

/* table.c: the readers */
struct itrace_slot *itrace_slot_of(struct task_struct *p);
unsigned int itrace_slots_free(void);
const struct itrace_symmap *itrace_slot_map(const struct itrace_rec *r);
unsigned int itrace_rec_code(const struct itrace_rec *r,
			     u8 out[ITRACE_CODE_MAX]);
/* The `on` options @s was armed with (followed tasks inherit them). */
void itrace_slot_opts(const struct itrace_slot *s, struct itrace_on_opts *o);
/* "func" or "start" if @r starts a trigger's invocation, else NULL */
const char *itrace_rec_entry(const struct itrace_rec *r, u64 prev_to);

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

#endif /* _ITRACE_CORE_SLOT_H */
