/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The shadow call stack of one thread, rebuilt from its call and return
 * records in log order: behind `itrace calls` (the call tree) and
 * `itrace stack` (the frames at the last record). Neither frame
 * pointers nor unwind tables are needed: a return is matched to the
 * innermost frame whose call site it returns just past. Works the same
 * on insn- and block-mode logs (both hold every call and return). Pure
 * C over the caller's frame buffer, shared with host tests: usable in
 * kdb.
 */
#ifndef _ITRACE_CALLS_H
#define _ITRACE_CALLS_H

#include "compat.h"
#include "ring.h"

struct itrace_frame {
	u64 site;	/* the call instruction */
	u64 entry;	/* where it went */
	u64 seq;	/* its record */
};

struct itrace_walk {
	struct itrace_frame *frames;	/* caller's; [nr - 1] innermost */
	u32 max;			/* frames[] entries */
	u32 call_len_max;		/* longest call instruction (arch) */
	u32 nr;				/* calls not returned, known */
	s32 depth;			/* call depth; 0 at the first record */
	s32 min_depth;			/* its least value */
	u64 records, calls, rets;
	u64 rets_before;	/* returns out of frames entered before tracing */
	u64 unwound;		/* calls left by a return to an outer frame */
	u64 unmatched;		/* returns to no frame's call site */
	u64 overflow;		/* outermost frames forgotten: max reached */
	u64 forgotten;		/* of those, not yet returned out of */
	struct itrace_rec last;	/* the last record */
};

enum itrace_walk_event {
	ITRACE_WALK_OTHER,	/* no call or return */
	ITRACE_WALK_CALL,	/* frames[nr - 1] is the new frame */
	ITRACE_WALK_RET,	/* back into a known frame (or an unknown one) */
	ITRACE_WALK_RET_BEFORE,	/* out of a frame entered before tracing */
	ITRACE_WALK_ENTRY,	/* views only: a trigger's entry starts over */
};

void itrace_walk_init(struct itrace_walk *w, struct itrace_frame *frames,
		      u32 max, u32 call_len_max);

/*
 * Feed the thread's next record. A call pushes a frame at depth + 1. A
 * return pops up to the innermost frame whose call site lies within
 * call_len_max bytes before its target (frames above it were left by a
 * longjmp or an exception: unwound); with no frame known it leaves one
 * entered before tracing (depth goes below 0); when it matches no known
 * frame it pops the innermost (unmatched: a signal frame, a stack
 * switch).
 */
enum itrace_walk_event itrace_walk_rec(struct itrace_walk *w,
				       const struct itrace_rec *r);

#endif /* _ITRACE_CALLS_H */
