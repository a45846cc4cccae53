// SPDX-License-Identifier: GPL-2.0
/*
 * A slot's copy of its task's executable mappings (image.c takes it,
 * symmap.h reads it), kept up to date: taken at arming, and taken again
 * when the task runs code that none of them holds, which is how a
 * library opened with dlopen() after arming (by any thread of the
 * process), or any file mapped executable later, gets its name and
 * symbols. The `range <mapping>` the slot was given is resolved again
 * with each copy, so a range in such a library starts to record once
 * the library is there.
 *
 * Contexts: itrace_remap_take() as the task, in its own context (the
 * arming work, the remap work: it sleeps, takes mmap_lock and may read
 * files). itrace_remap_miss() in the step trap, IRQs off, for current's
 * armed slot: it reads the copy (the task's own, written only by the
 * task itself, never at the same time as its traps) and queues the
 * remap work. Other readers (kdb, xmon, debugfs) read the copy through
 * its sequence count, as at arming.
 *
 * The cost of a step is two compares per control transfer: the trap
 * remembers the mapping the last transfer went into and searches the
 * copy only when one goes elsewhere. A transfer that no mapping of the
 * copy holds queues a new copy only if the task's mm has a different
 * number of mappings than when that was last looked at, so code outside
 * the copy for good (a 17th executable mapping, ITRACE_MAP_MAX) costs a
 * search, never a copy per step.
 */
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/task_work.h>
#include "core.h"
#include "image.h"

/*
 * `range <mapping>`: the span of the executable mappings the log names
 * so, from the copy just taken; none: nothing is recorded, and status
 * says why. Before arming, or as the task between its traps: the trap
 * path reads these only once the slot is ARMED, and only as the task.
 */
static void range_resolve(struct itrace_slot *s)
{
	u64 lo = U64_MAX, hi = 0;
	u32 i;

	if (!s->range.map[0])
		return;
	for (i = 0; i < s->map.nr; i++) {
		const struct itrace_map *m = &s->map.map[i];

		if (strncmp(m->name, s->range.map, sizeof(m->name)))
			continue;
		lo = min(lo, m->start);
		hi = max(hi, m->end);
	}
	s->range_on = true;
	s->range_lo = hi ? lo : 0;
	s->range_hi = hi;
}

/*
 * As the task, in its own context: copy its mappings into @s, note how
 * many its mm had (read first: a mapping added meanwhile makes the next
 * miss look again), forget the last transfer's mapping.
 */
void itrace_remap_take(struct itrace_slot *s)
{
	struct mm_struct *mm = current->mm;

	might_sleep();
	s->known_vmas = mm ? READ_ONCE(mm->map_count) : 0;
	itrace_maps_take(&s->map);
	range_resolve(s);
	s->known_lo = 0;
	s->known_len = 0;
}

static void remap_work(struct callback_head *cb)
{
	struct itrace_slot *s = container_of(cb, struct itrace_slot,
					     remap_work);

	/* not after `off`, an exec (the arming takes its own) or the exit */
	if (s->task == current && !(current->flags & PF_EXITING) &&
	    itrace_state(&s->state) == ITRACE_ARMED &&
	    !READ_ONCE(itrace_shutdown))
		itrace_remap_take(s);
	itrace_work_done(&s->remap_queued);
}

/*
 * Step trap, current's slot @s: a transfer went to @to, outside the
 * mapping the last one went into (the inline test in itrace_emit()).
 */
void itrace_remap_miss(struct itrace_slot *s, unsigned long to)
{
	const struct itrace_map *e = itrace_symmap_find(&s->map, to);
	int vmas;

	lockdep_assert_irqs_disabled();
	if (e) {
		s->known_lo = e->start;
		s->known_len = e->end - e->start;
		return;
	}
	vmas = READ_ONCE(current->mm->map_count);
	if (vmas == s->known_vmas || READ_ONCE(itrace_shutdown))
		return;
	s->known_vmas = vmas;
	itrace_work_queue(current, &s->remap_work, &s->remap_queued,
			  remap_work, TWA_RESUME);
}
