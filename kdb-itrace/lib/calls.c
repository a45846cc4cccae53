// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow call stack walker (see calls.h). Bounded work per record:
 * a call is a push (a move of the whole buffer only when it is full), a
 * return a scan of at most max frames. Pure C, shared with host tests.
 */
#include "calls.h"
#include "kind.h"

void itrace_walk_init(struct itrace_walk *w, struct itrace_frame *frames,
		      u32 max, u32 call_len_max)
{
	memset(w, 0, sizeof(*w));
	w->frames = frames;
	w->max = max;
	w->call_len_max = call_len_max;
}

static void push(struct itrace_walk *w, const struct itrace_rec *r)
{
	struct itrace_frame *f;

	if (!w->max)
		return;
	if (w->nr == w->max) {
		/* forget the outermost: the innermost ones matter more */
		memmove(w->frames, w->frames + 1,
			(w->max - 1) * sizeof(w->frames[0]));
		w->nr--;
		w->overflow++;
		w->forgotten++;
	}
	f = &w->frames[w->nr++];
	f->site = r->from;
	f->entry = r->to;
	f->seq = r->seq;
	w->calls++;
	w->depth++;
}

/* Does a return to @to come back from the call at @f? */
static bool returns_to(const struct itrace_walk *w,
		       const struct itrace_frame *f, u64 to)
{
	return to > f->site && to - f->site <= w->call_len_max;
}

static enum itrace_walk_event pop(struct itrace_walk *w,
				  const struct itrace_rec *r)
{
	u32 i;

	w->rets++;
	w->depth--;
	if (w->depth < w->min_depth)
		w->min_depth = w->depth;
	if (!w->nr) {
		if (w->forgotten) {
			w->forgotten--;
			return ITRACE_WALK_RET;
		}
		w->rets_before++;
		return ITRACE_WALK_RET_BEFORE;
	}
	for (i = w->nr; i > 0; i--)
		if (returns_to(w, &w->frames[i - 1], r->to))
			break;
	if (!i) {
		w->unmatched++;
		w->nr--;
		return ITRACE_WALK_RET;
	}
	/* frames above the one returned from were left without a return */
	w->unwound += w->nr - i;
	w->depth -= w->nr - i;
	if (w->depth < w->min_depth)
		w->min_depth = w->depth;
	w->nr = i - 1;
	return ITRACE_WALK_RET;
}

enum itrace_walk_event itrace_walk_rec(struct itrace_walk *w,
				       const struct itrace_rec *r)
{
	w->records++;
	w->last = *r;
	switch (r->kind) {
	case ITRACE_K_CALL:
	case ITRACE_K_ICALL:
		push(w, r);
		return w->max ? ITRACE_WALK_CALL : ITRACE_WALK_OTHER;
	case ITRACE_K_RET:
		return pop(w, r);
	default:
		return ITRACE_WALK_OTHER;
	}
}
