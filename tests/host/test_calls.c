// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the shadow call stack walker (kdb-itrace/lib/calls.c): calls
 * and returns matched by return address, returns out of frames entered
 * before tracing, a longjmp past frames, a return to no call site, the
 * frame buffer running full, and recursion counted exactly.
 */
#include "check.h"
#include "lib/calls.h"
#include "lib/kind.h"

static struct itrace_frame frames[8];
static struct itrace_walk w;
static u64 seq;

static enum itrace_walk_event rec(unsigned int kind, u64 from, u64 to)
{
	struct itrace_rec r = {
		.seq = ++seq, .from = from, .to = to, .kind = kind,
	};

	return itrace_walk_rec(&w, &r);
}

/* x86-like: a 5-byte call at @site into @fn */
static enum itrace_walk_event call(u64 site, u64 fn)
{
	return rec(ITRACE_K_CALL, site, fn);
}

static enum itrace_walk_event ret(u64 from, u64 to)
{
	return rec(ITRACE_K_RET, from, to);
}

static void start(u32 max)
{
	itrace_walk_init(&w, frames, max, 15);
	seq = 0;
}

static void nested(void)
{
	start(8);
	CHECK("walk: insn is no event",
	      rec(ITRACE_K_INSN, 0x1000, 0x1003) == ITRACE_WALK_OTHER);
	CHECK("walk: a call pushes", call(0x1003, 0x2000) == ITRACE_WALK_CALL &&
	      w.nr == 1 && w.depth == 1 && frames[0].site == 0x1003 &&
	      frames[0].entry == 0x2000 && frames[0].seq == 2);
	CHECK("walk: an indirect call pushes",
	      rec(ITRACE_K_ICALL, 0x2010, 0x3000) == ITRACE_WALK_CALL &&
	      w.nr == 2 && w.depth == 2);
	CHECK("walk: a return to the inner call site pops it",
	      ret(0x3009, 0x2012) == ITRACE_WALK_RET && w.nr == 1 &&
	      w.depth == 1);
	CHECK("walk: and the outer", ret(0x2020, 0x1008) == ITRACE_WALK_RET &&
	      !w.nr && !w.depth && w.min_depth == 0);
	CHECK("walk: counts", w.calls == 2 && w.rets == 2 && !w.rets_before &&
	      !w.unwound && !w.unmatched && !w.overflow && w.records == 5);
	CHECK("walk: the last record", w.last.seq == 5 && w.last.to == 0x1008);
}

static void began_deep(void)
{
	start(8);
	CHECK("walk: a return first leaves a frame entered before tracing",
	      ret(0x5000, 0x1008) == ITRACE_WALK_RET_BEFORE &&
	      w.depth == -1 && w.min_depth == -1 && w.rets_before == 1);
	call(0x1010, 0x2000);
	CHECK("walk: a call from there is at depth 0", w.depth == 0 &&
	      w.nr == 1);
	ret(0x2001, 0x1015);
	CHECK("walk: and returns", w.depth == -1 && !w.nr);
	CHECK("walk: a second return out of an older frame",
	      ret(0x1020, 0x900) == ITRACE_WALK_RET_BEFORE &&
	      w.min_depth == -2 && w.rets_before == 2);
}

static void longjmp_past(void)
{
	start(8);
	call(0x1000, 0x2000);
	call(0x2000, 0x3000);
	call(0x3000, 0x4000);
	CHECK("walk: a return to the outermost call site",
	      ret(0x4010, 0x1005) == ITRACE_WALK_RET && !w.nr && !w.depth &&
	      w.unwound == 2);
	call(0x1000, 0x2000);
	CHECK("walk: a return to no call site pops the innermost",
	      ret(0x2010, 0x7777) == ITRACE_WALK_RET && !w.nr &&
	      w.unmatched == 1 && !w.depth);
	call(0x1000, 0x2000);
	CHECK("walk: 16 bytes past the call is no return to it",
	      ret(0x2010, 0x1010) == ITRACE_WALK_RET && w.unmatched == 2);
	call(0x1000, 0x2000);
	CHECK("walk: 15 bytes past is (a long call)",
	      ret(0x2010, 0x100f) == ITRACE_WALK_RET && w.unmatched == 2);
}

static void full(void)
{
	unsigned int i;

	start(4);
	for (i = 0; i < 6; i++)
		call(0x1000 + 0x100 * i, 0x1100 + 0x100 * i);
	CHECK("walk: a full buffer forgets the outermost",
	      w.nr == 4 && w.overflow == 2 && w.depth == 6 &&
	      frames[0].site == 0x1200 && frames[3].site == 0x1500);
	for (i = 6; i > 0; i--)
		ret(0x1100 + 0x100 * (i - 1) + 0x10, 0x1000 + 0x100 * (i - 1) + 5);
	CHECK("walk: returns into forgotten frames are not 'before tracing'",
	      !w.nr && !w.depth && !w.rets_before && !w.unmatched);
	CHECK("walk: but the next return is",
	      ret(0x1010, 0x500) == ITRACE_WALK_RET_BEFORE &&
	      w.rets_before == 1);
}

/* fact(5): main calls fact, fact calls itself 4 times; ppc-like, bl = 4 */
static void recursion(void)
{
	unsigned int i, calls = 0;

	itrace_walk_init(&w, frames, 8, 4);
	if (rec(ITRACE_K_CALL, 0x100, 0x200) == ITRACE_WALK_CALL)
		calls++;
	for (i = 0; i < 4; i++)
		if (rec(ITRACE_K_CALL, 0x210, 0x200) == ITRACE_WALK_CALL)
			calls++;
	CHECK("walk: recursion 5 deep", calls == 5 && w.depth == 5 &&
	      w.nr == 5);
	for (i = 0; i < 4; i++)
		rec(ITRACE_K_RET, 0x220, 0x214);
	CHECK("walk: unwinds to the first call", w.nr == 1 && w.depth == 1);
	CHECK("walk: a bl returns exactly 4 past",
	      rec(ITRACE_K_RET, 0x220, 0x104) == ITRACE_WALK_RET && !w.nr &&
	      !w.unmatched);
}

int main(void)
{
	nested();
	began_deep();
	longjmp_past();
	full();
	recursion();
	return check_failed ? 1 : 0;
}
