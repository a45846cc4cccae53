/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live shadow call stack of one traced thread: the trap path pushes
 * a frame at every call it classifies and pops at every return, so the
 * stack is exact at any moment however long the thread has run, unlike
 * the one calls.h rebuilds from the log, which a busy ring overwrites.
 * Bounded: a ring of frames; a call deeper than it holds forgets the
 * outermost frame and counts it, and a return with no frame held leaves
 * one of those, or else one entered before tracing (counted too).
 *
 * One writer, the thread itself (its trap path, or its own process
 * context for a reset); readers anywhere: kdb may have frozen the writer
 * half-way, debugfs reads while it runs. A sequence count, odd while the
 * writer changes anything, tells a reader whether its copy is whole.
 * Pure C, shared with host tests.
 */
#ifndef _ITRACE_SHADOW_H
#define _ITRACE_SHADOW_H

#include "compat.h"

struct itrace_shadow_frame {
	u64 site;	/* the call instruction */
	u64 entry;	/* where it went */
};

struct itrace_shadow {
	u32 seq;	/* odd while the writer is changing the stack */
	u32 mask;	/* frames[] entries - 1: a power of two, or 0: none */
	u32 top;	/* frames[(top - 1) & mask] is the innermost */
	u32 nr;		/* frames held, at most mask + 1 */
	u32 call_len_max;	/* longest call instruction (arch) */
	u32 resets;	/* times the stack began again (arming, exec, entry) */
	u64 forgotten;	/* outer frames the ring let go of, not returned yet */
	u64 before;	/* returns out of frames entered before tracing */
	u64 unmatched;	/* returns to no held frame's call site: no pop */
	u64 unwound;	/* frames left without their return (longjmp) */
	u64 calls, rets;
	struct itrace_shadow_frame *frames;
};

/* @frames: @entries (a power of two, or 0) frames of the caller's. */
void itrace_shadow_init(struct itrace_shadow *sh,
			struct itrace_shadow_frame *frames, u32 entries,
			u32 call_len_max);

/* The writer: begin again with no frame (a new program, an entry). */
void itrace_shadow_reset(struct itrace_shadow *sh);
/* The writer: a call at @site went to @entry. */
void itrace_shadow_call(struct itrace_shadow *sh, u64 site, u64 entry);
/*
 * The writer: a return went to @to. It leaves the innermost held frame
 * whose call site lies within call_len_max bytes before @to, and every
 * frame inside that one (left by a longjmp: unwound). A return that
 * matches no held frame pops nothing: a signal handler's return to its
 * restorer, or a return used as a jump, leaves the stack it interrupted
 * as it was.
 */
void itrace_shadow_ret(struct itrace_shadow *sh, u64 to);

/*
 * The writer of @dst: begin again as a copy of @src, which does not
 * change meanwhile: its innermost frames, as many as @dst holds (the
 * rest counted forgotten), and its returns out of frames entered before
 * tracing.
 */
void itrace_shadow_copy(struct itrace_shadow *dst,
			const struct itrace_shadow *src);

/* What a reader copied: the frames innermost first, and the counts. */
struct itrace_shadow_view {
	u32 nr;		/* frames copied into the caller's buffer */
	u32 held;	/* frames the stack held (more than nr: buffer full) */
	u32 resets;
	bool whole;	/* false: the writer changed it meanwhile */
	u64 forgotten, before, unmatched, unwound, calls, rets;
};

/*
 * Copy the stack, innermost first, into @out (@max frames). One try: a
 * reader that may wait (debugfs) calls again while !v->whole; in kdb
 * the writer may be frozen in the middle and the copy is what there is.
 */
void itrace_shadow_read(const struct itrace_shadow *sh,
			struct itrace_shadow_frame *out, u32 max,
			struct itrace_shadow_view *v);

#endif /* _ITRACE_SHADOW_H */
