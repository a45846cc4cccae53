// SPDX-License-Identifier: GPL-2.0
/*
 * The live shadow call stack (see shadow.h). The writer's work per
 * record is bounded: a call is one frame stored, a return a scan of at
 * most the frames held (the innermost matches unless frames were left
 * by a longjmp). Pure C, shared with host tests.
 */
#include "shadow.h"

void itrace_shadow_init(struct itrace_shadow *sh,
			struct itrace_shadow_frame *frames, u32 entries,
			u32 call_len_max)
{
	memset(sh, 0, sizeof(*sh));
	sh->frames = frames;
	sh->mask = entries ? entries - 1 : 0;
	sh->call_len_max = call_len_max;
}

/* The writer's bracket around a change: odd in between. */
static void write_begin(struct itrace_shadow *sh)
{
	WRITE_ONCE(sh->seq, sh->seq + 1);
	/* odd before any change can be seen */
	smp_wmb();
}

static void write_end(struct itrace_shadow *sh)
{
	/* every change before the even count that vouches for it */
	smp_wmb();
	WRITE_ONCE(sh->seq, sh->seq + 1);
}

/* Between write_begin() and write_end(): @nr frames held, counts anew. */
static void begin_again(struct itrace_shadow *sh, u32 nr, u64 forgotten,
			u64 before)
{
	sh->top = nr;
	sh->nr = nr;
	sh->forgotten = forgotten;
	sh->before = before;
	sh->unmatched = 0;
	sh->unwound = 0;
	sh->calls = 0;
	sh->rets = 0;
	sh->resets++;
}

void itrace_shadow_reset(struct itrace_shadow *sh)
{
	write_begin(sh);
	begin_again(sh, 0, 0, 0);
	write_end(sh);
}

void itrace_shadow_copy(struct itrace_shadow *dst,
			const struct itrace_shadow *src)
{
	u32 n = src->nr, i;

	if (!dst->frames)
		return;
	if (n > dst->mask + 1)
		n = dst->mask + 1;
	write_begin(dst);
	for (i = 0; i < n; i++)
		dst->frames[i] = src->frames[(src->top - n + i) & src->mask];
	begin_again(dst, n, src->forgotten + (src->nr - n), src->before);
	write_end(dst);
}

void itrace_shadow_call(struct itrace_shadow *sh, u64 site, u64 entry)
{
	struct itrace_shadow_frame *f;

	if (!sh->frames)
		return;
	write_begin(sh);
	f = &sh->frames[sh->top & sh->mask];
	f->site = site;
	f->entry = entry;
	sh->top++;
	if (sh->nr <= sh->mask)
		sh->nr++;
	else
		sh->forgotten++;	/* the ring let go of the outermost */
	sh->calls++;
	write_end(sh);
}

/* How many frames in from the innermost the return to @to leaves, or 0. */
static u32 ret_match(const struct itrace_shadow *sh, u64 to)
{
	u32 i;

	for (i = 1; i <= sh->nr; i++) {
		const struct itrace_shadow_frame *f =
			&sh->frames[(sh->top - i) & sh->mask];

		if (to > f->site && to - f->site <= sh->call_len_max)
			return i;
	}
	return 0;
}

void itrace_shadow_ret(struct itrace_shadow *sh, u64 to)
{
	u32 n;

	if (!sh->frames)
		return;
	write_begin(sh);
	sh->rets++;
	if (!sh->nr) {
		/* out of a frame not held: forgotten, or before tracing */
		if (sh->forgotten)
			sh->forgotten--;
		else
			sh->before++;
	} else {
		n = ret_match(sh, to);
		if (!n) {
			sh->unmatched++;
		} else {
			sh->unwound += n - 1;
			sh->top -= n;
			sh->nr -= n;
		}
	}
	write_end(sh);
}

void itrace_shadow_read(const struct itrace_shadow *sh,
			struct itrace_shadow_frame *out, u32 max,
			struct itrace_shadow_view *v)
{
	u32 seq = READ_ONCE(sh->seq), top, i;

	/* the count before the fields it is to vouch for */
	smp_rmb();
	top = READ_ONCE(sh->top);
	v->held = READ_ONCE(sh->nr);
	if (v->held > sh->mask + 1)	/* (torn) */
		v->held = sh->mask + 1;
	v->nr = v->held < max ? v->held : max;
	for (i = 0; i < v->nr; i++) {
		const struct itrace_shadow_frame *f =
			&sh->frames[(top - 1 - i) & sh->mask];

		out[i].site = READ_ONCE(f->site);
		out[i].entry = READ_ONCE(f->entry);
	}
	v->resets = READ_ONCE(sh->resets);
	v->forgotten = READ_ONCE(sh->forgotten);
	v->before = READ_ONCE(sh->before);
	v->unmatched = READ_ONCE(sh->unmatched);
	v->unwound = READ_ONCE(sh->unwound);
	v->calls = READ_ONCE(sh->calls);
	v->rets = READ_ONCE(sh->rets);
	/* the fields read before the count that vouches for them */
	smp_rmb();
	v->whole = !(seq & 1) && READ_ONCE(sh->seq) == seq;
}
