// SPDX-License-Identifier: GPL-2.0
/*
 * The live shadow stacks (lib/shadow.h), one per slot, behind `itrace
 * stack`: their frames allocated at load time beside the table, kept by
 * the trap path at every call and return it classifies (itrace_emit),
 * and begun again only as the task itself, its one writer: when it is
 * armed (also after a follow-exec), at each entry of a trigger's
 * function. A followed fork's child starts from a copy of its parent's
 * stack, which it returns through; a new thread, or a child on a stack
 * of its own, starts empty. Readers: any context (itrace_stack_read).
 */
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/overflow.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>
#include "core.h"
#include "lib/kind.h"

static struct itrace_shadow_frame *stack_store;
static unsigned int stack_frames;

/* Load time, after the table: every slot gets its frames. */
int itrace_stacks_init(unsigned int frames)
{
	unsigned int i;

	/* 0 or 16..65536: main.c refused anything else */
	if (frames)
		frames = roundup_pow_of_two(frames);
	if (frames) {
		stack_store = vzalloc(array3_size(itrace_nr_slots, frames,
						  sizeof(*stack_store)));
		if (!stack_store)
			return -ENOMEM;
	}
	for (i = 0; i < itrace_nr_slots; i++)
		itrace_shadow_init(&itrace_slots[i].shadow,
				   frames ? stack_store + (size_t)i * frames :
					    NULL,
				   frames, ITRACE_CALL_LEN_MAX);
	stack_frames = frames;
	return 0;
}

void itrace_stacks_free(void)
{
	vfree(stack_store);
	stack_store = NULL;
}

unsigned int itrace_stack_frames(void)
{
	return stack_frames;
}

/* Trap context (itrace_emit): a call or a return of @s's task. */
void itrace_emit_frame(struct itrace_slot *s, unsigned int kind,
		       unsigned long from, unsigned long to)
{
	lockdep_assert_irqs_disabled();
	if (kind == ITRACE_K_RET)
		itrace_shadow_ret(&s->shadow, to);
	else
		itrace_shadow_call(&s->shadow, from, to);
}

/*
 * As @s's task, before it is stepped: no frame known (a fork's child
 * keeps the copy it was given).
 */
void itrace_stack_begin(struct itrace_slot *s)
{
	WARN_ON_ONCE(s->task != current);
	if (s->stack_inherited)
		s->stack_inherited = false;
	else
		itrace_shadow_reset(&s->shadow);
}

/*
 * A followed fork (tracepoint, as the parent @ps's task, @child not run
 * yet; its slot @cs just claimed): a child on its parent's stack pointer
 * (fork, vfork) returns through the parent's frames, so it starts with
 * them. The parent is the only writer of its own; no one writes the
 * child's before the child runs.
 */
void itrace_stack_fork(struct itrace_slot *cs, struct itrace_slot *ps,
		       struct task_struct *child)
{
	WARN_ON_ONCE(ps->task != current);
	if (user_stack_pointer(task_pt_regs(child)) !=
	    user_stack_pointer(task_pt_regs(current)))
		return;
	itrace_shadow_copy(&cs->shadow, &ps->shadow);
	cs->stack_inherited = true;
}

/*
 * Copy @s's stack, innermost first, into @out (@max frames). From
 * process context (debugfs) a copy the running task changed meanwhile is
 * taken again, a few times; in kdb or xmon its writer may be frozen half
 * way and the copy is what there is (@v->whole says which).
 */
void itrace_stack_read(const struct itrace_slot *s,
		       struct itrace_shadow_frame *out, u32 max,
		       struct itrace_shadow_view *v, bool stopped)
{
	int tries = stopped ? 1 : 16;

	do {
		itrace_shadow_read(&s->shadow, out, max, v);
	} while (!v->whole && --tries > 0);
}
