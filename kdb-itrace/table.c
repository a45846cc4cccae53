// SPDX-License-Identifier: GPL-2.0
/*
 * The traced-task table: a fixed array of slots allocated at load time.
 * Readers (the trap path, kdb) scan it without locks; slots change state
 * only by cmpxchg (see enum itrace_state).
 */
#include <linux/vmalloc.h>
#include <linux/sched/task.h>
#include "itrace.h"

struct itrace_slot *itrace_slots;
unsigned int itrace_nr_slots;

/* One past the highest slot ever claimed: bounds the trap-path scan. */
static unsigned int slots_used;

int itrace_table_init(unsigned int nr)
{
	unsigned int i;

	/*
	 * Not kcalloc(): the slots hold the callback_heads we queue with
	 * task_work_add() from kdb, and on KASAN kernels that records the
	 * caller's stack for any slab object (stack depot lock, maybe an
	 * allocation: lockdep saw depot_lock taken in kdb's NMI context).
	 * For vmalloc memory it records nothing.
	 */
	itrace_slots = vcalloc(nr, sizeof(*itrace_slots));
	if (!itrace_slots)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		itrace_slots[i].idx = i;
	itrace_nr_slots = nr;
	return 0;
}

void itrace_table_free(void)
{
	vfree(itrace_slots);
	itrace_slots = NULL;
}

/* Trap path: the live (non-FREE) slot of @p, if any. */
struct itrace_slot *itrace_slot_of(struct task_struct *p)
{
	unsigned int i, n = READ_ONCE(slots_used);

	for (i = 0; i < n; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (READ_ONCE(s->task) == p &&
		    atomic_read(&s->state) != ITRACE_FREE)
			return s;
	}
	return NULL;
}

struct itrace_slot *itrace_slot_by_pid(pid_t pid)
{
	unsigned int i, n = READ_ONCE(slots_used);

	for (i = 0; i < n; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		if (s->pid == pid && atomic_read(&s->state) != ITRACE_FREE)
			return s;
	}
	return NULL;
}

/*
 * kdb: take a FREE slot whose task_work is not still queued on some
 * task (its callback_head is in use until the callback has run).
 */
struct itrace_slot *itrace_slot_claim(void)
{
	unsigned int i;

	for (i = 0; i < itrace_nr_slots; i++) {
		struct itrace_slot *s = &itrace_slots[i];

		/* a task pointer on a FREE slot: release in progress */
		if (READ_ONCE(s->work_queued) || READ_ONCE(s->task) ||
		    itrace_arch_slot_busy(&s->arch))
			continue;
		if (atomic_cmpxchg(&s->state, ITRACE_FREE, ITRACE_PENDING) !=
		    ITRACE_FREE)
			continue;
		s->gen++;
		s->steps = 0;
		s->records = 0;
		atomic64_set(&s->dropped, 0);
		memset(&s->map, 0, sizeof(s->map));
		if (i >= slots_used)
			WRITE_ONCE(slots_used, i + 1);
		return s;
	}
	return NULL;
}

/*
 * Process context only (it may drop the last task reference). The slot
 * keeps pid, comm and map so `itrace log` can still name old records.
 */
void itrace_slot_release(struct itrace_slot *s)
{
	struct task_struct *p;

	if (atomic_xchg(&s->state, ITRACE_FREE) == ITRACE_FREE)
		return;
	p = s->task;
	WRITE_ONCE(s->task, NULL);
	if (p)
		put_task_struct(p);
}

const char *itrace_state_name(int state)
{
	switch (state) {
	case ITRACE_FREE:	return "free";
	case ITRACE_PENDING:	return "pending";
	case ITRACE_ARMED:	return "armed";
	case ITRACE_OFF:	return "stopping";
	case ITRACE_LINGER:	return "off";
	}
	return "?";
}
