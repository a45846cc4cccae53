/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The slot life cycle: its states and every change between them, each a
 * named helper, all here. Nothing else writes a slot's state; readers
 * use itrace_state() (the value `itrace status` prints by name).
 *
 *  FREE -claim-> PENDING -arm-> ARMED -stop-> STOPPING -stopped-> OFF
 *                 | | ^ ^          |                ^                 |
 *                 | | | +---exec---+                |                 |
 *                 | | +-----------------restart-----|-----------------+
 *                 | +-stop--------------------------+                 ^
 *                 +-park----------------------------------------------+
 *  any -release-> FREE, or FROZEN -thaw-> FREE (a frozen history's)
 *
 *   claim     FREE -> PENDING      `on` (kdb, xmon, debugfs) or a followed
 *                                  fork: the slot is taken for a task
 *   arm       PENDING -> ARMED     the task's own arming work: step bits set
 *   stop      PENDING -> STOPPING  `off` before the arming work ran (which
 *                                  then releases the slot)
 *             ARMED -> STOPPING    `off`: the step bits go at the next trap
 *   stopped   STOPPING -> OFF      that trap (or a ptrace resume) dropped
 *                                  them; at once for a task waiting for
 *                                  its function (`func`: none set)
 *   park      PENDING -> OFF       the arming work could not be queued
 *   restart   OFF -> PENDING       `on` again for a task that kept its slot
 *   exec      ARMED -> PENDING     follow-exec: the new image is armed by
 *                                  the same work as a new task
 *   release   any -> FREE          the task exits or execs (without
 *                                  follow-exec), or the module unloads
 *             any -> FROZEN        the same for a slot whose kept records
 *                                  were frozen (a crash, `stop` with
 *                                  freeze: keep.c): the slot, its records,
 *                                  stack and maps stay for the readers
 *   thaw      FROZEN -> FREE       `off` of that pid, `off all`
 *
 * OFF keeps the slot for as long as the task lives: an x86 sigreturn
 * whose frame was given our TF just before (arch/x86/sigframe.c) can
 * still trap once after `off`, and that trap must be swallowed or the
 * task dies of SIGTRAP; `on` again reuses the slot. STOPPING is the
 * window in which the step bits may still be set.
 *
 * Every change is one atomic operation: kdb or xmon can freeze any other
 * CPU in the middle of a change, and a change raced by another (an exit
 * against an `off`) has one winner; the loser's helper returns false
 * and its caller backs out. Any context: kdb, xmon, trap, tracepoint,
 * task_work, process.
 */
#ifndef _ITRACE_STATE_H
#define _ITRACE_STATE_H

#include <linux/atomic.h>

enum itrace_state {
	ITRACE_FREE,
	ITRACE_PENDING,
	ITRACE_ARMED,
	ITRACE_STOPPING,
	ITRACE_OFF,
	ITRACE_FROZEN,
};

/* "free", "pending", "armed", "stopping", "off", "frozen" (table.c) */
const char *itrace_state_name(int state);

static inline bool itrace_state_move(atomic_t *state, int from, int to)
{
	return atomic_cmpxchg(state, from, to) == from;
}

static inline int itrace_state(const atomic_t *state)
{
	return atomic_read(state);
}

static inline bool itrace_state_claim(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_FREE, ITRACE_PENDING);
}

static inline bool itrace_state_arm(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_PENDING, ITRACE_ARMED);
}

/* `off`: the state it left, PENDING or ARMED; FREE (0) if neither */
static inline int itrace_state_stop(atomic_t *state)
{
	if (itrace_state_move(state, ITRACE_PENDING, ITRACE_STOPPING))
		return ITRACE_PENDING;
	if (itrace_state_move(state, ITRACE_ARMED, ITRACE_STOPPING))
		return ITRACE_ARMED;
	return ITRACE_FREE;
}

static inline bool itrace_state_stopped(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_STOPPING, ITRACE_OFF);
}

static inline bool itrace_state_park(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_PENDING, ITRACE_OFF);
}

static inline bool itrace_state_restart(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_OFF, ITRACE_PENDING);
}

static inline bool itrace_state_exec(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_ARMED, ITRACE_PENDING);
}

/*
 * Returns the state it left (FREE or FROZEN: someone else released it
 * first, who may have frozen it: then it stays so).
 */
static inline int itrace_state_release(atomic_t *state, bool frozen)
{
	int st = itrace_state(state);

	for (;;) {
		int was;

		if (st == ITRACE_FREE || st == ITRACE_FROZEN)
			return st;
		was = atomic_cmpxchg(state, st, frozen ? ITRACE_FROZEN :
							 ITRACE_FREE);
		if (was == st)
			return st;
		st = was;
	}
}

static inline bool itrace_state_thaw(atomic_t *state)
{
	return itrace_state_move(state, ITRACE_FROZEN, ITRACE_FREE);
}

#endif /* _ITRACE_STATE_H */
