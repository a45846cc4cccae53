// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the live shadow call stack (kdb-itrace/lib/shadow.c):
 * calls and returns matched by return address, a longjmp past frames, a
 * signal handler's return to no call site (no pop), returns out of
 * frames entered before tracing, the ring running full and unwinding
 * through the frames it forgot, recursion, a reset, a fork's copy, and
 * a reader seeing the writer frozen half-way.
 */
#include "check.h"
#include "lib/shadow.h"

static struct itrace_shadow_frame frames[8];
static struct itrace_shadow sh;
static struct itrace_shadow_frame out[16];
static struct itrace_shadow_view v;

static void start(u32 entries)
{
	memset(frames, 0, sizeof(frames));
	itrace_shadow_init(&sh, frames, entries, 15);
}

static void read_all(u32 max)
{
	memset(out, 0, sizeof(out));
	itrace_shadow_read(&sh, out, max, &v);
}

/* The frames held, innermost first, are exactly these call sites. */
static int sites_are(const u64 *want, u32 n)
{
	u32 i;

	read_all(16);
	if (!v.whole || v.nr != n || v.held != n)
		return 0;
	for (i = 0; i < n; i++)
		if (out[i].site != want[i])
			return 0;
	return 1;
}

static void nested(void)
{
	static const u64 two[] = { 0x2010, 0x1003 }, one[] = { 0x1003 };

	start(8);
	CHECK("shadow: empty at first", sites_are(NULL, 0) && !v.calls);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	itrace_shadow_call(&sh, 0x2010, 0x3000);
	CHECK("shadow: two calls, innermost first", sites_are(two, 2) &&
	      out[0].entry == 0x3000 && out[1].entry == 0x2000);
	itrace_shadow_ret(&sh, 0x2015);
	CHECK("shadow: a return just past the inner call site pops it",
	      sites_are(one, 1));
	itrace_shadow_ret(&sh, 0x1008);
	CHECK("shadow: and the outer", sites_are(NULL, 0) && v.calls == 2 &&
	      v.rets == 2 && !v.before && !v.unmatched && !v.unwound &&
	      !v.forgotten);
	CHECK("shadow: the sequence count is even and moved",
	      !(sh.seq & 1) && sh.seq == 8);
}

static void odd_returns(void)
{
	static const u64 three[] = { 0x3020, 0x2010, 0x1003 };
	static const u64 one[] = { 0x1003 };

	start(8);
	itrace_shadow_ret(&sh, 0x9000);
	itrace_shadow_ret(&sh, 0x9100);
	CHECK("shadow: returns with no frame held: entered before tracing",
	      sites_are(NULL, 0) && v.before == 2 && v.rets == 2);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	itrace_shadow_call(&sh, 0x2010, 0x3000);
	itrace_shadow_call(&sh, 0x3020, 0x4000);
	/* a signal handler returns to its restorer: no call site there */
	itrace_shadow_ret(&sh, 0x7f0000001000ULL);
	CHECK("shadow: a return to no call site pops nothing",
	      sites_are(three, 3) && v.unmatched == 1);
	/* longjmp out of the two inner frames, then main's callee returns */
	itrace_shadow_ret(&sh, 0x1008);
	CHECK("shadow: a return to an outer frame leaves the inner ones",
	      sites_are(NULL, 0) && v.unwound == 2);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	itrace_shadow_call(&sh, 0x1003 + 15, 0x2000);
	itrace_shadow_ret(&sh, 0x1003 + 15 + 16);
	CHECK("shadow: a return beyond the longest call is no match",
	      v.unmatched == 1 && sh.nr == 2);
	itrace_shadow_ret(&sh, 0x1003 + 15 + 2);
	CHECK("shadow: within it, a match", sites_are(one, 1));
}

static void ring_full(void)
{
	u64 want[4];
	u32 i;

	start(4);
	/* recursion: six calls from the same site, four held */
	itrace_shadow_call(&sh, 0x1000, 0x5000);
	for (i = 0; i < 5; i++)
		itrace_shadow_call(&sh, 0x5010, 0x5000);
	for (i = 0; i < 4; i++)
		want[i] = 0x5010;
	CHECK("shadow: deeper than the ring: the innermost kept",
	      sites_are(want, 4) && v.forgotten == 2 && v.calls == 6);
	read_all(2);
	CHECK("shadow: a short buffer gets the innermost, held says all",
	      v.nr == 2 && v.held == 4 && out[0].site == 0x5010);
	for (i = 0; i < 4; i++)
		itrace_shadow_ret(&sh, 0x5015);
	CHECK("shadow: the held frames returned", sites_are(NULL, 0) &&
	      v.forgotten == 2 && !v.before);
	itrace_shadow_ret(&sh, 0x5015);
	itrace_shadow_ret(&sh, 0x1005);
	itrace_shadow_ret(&sh, 0x0005);
	read_all(16);
	CHECK("shadow: then out of the two forgotten, then before tracing",
	      !v.forgotten && v.before == 1 && v.rets == 7);
	itrace_shadow_reset(&sh);
	read_all(16);
	CHECK("shadow: a reset begins again",
	      v.whole && !v.nr && !v.calls && !v.rets && v.resets == 1);
}

static void torn(void)
{
	start(8);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	/* as kdb finds a writer stopped between its two count bumps */
	sh.seq++;
	read_all(16);
	CHECK("shadow: a reader sees an odd count: not whole",
	      !v.whole && v.nr == 1);
	sh.seq++;
	read_all(16);
	CHECK("shadow: and whole once the writer is done", v.whole);
	sh.nr = 1000;
	read_all(16);
	CHECK("shadow: a held count past the ring is cut to it",
	      v.held == 8 && v.nr == 8);
}

/* A followed fork's child: its parent's stack, as much as it holds. */
static void copied(void)
{
	static struct itrace_shadow_frame small[2];
	static const u64 want[] = { 0x3020, 0x2010, 0x1003 };
	struct itrace_shadow child;

	start(8);
	itrace_shadow_ret(&sh, 0x9000);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	itrace_shadow_call(&sh, 0x2010, 0x3000);
	itrace_shadow_call(&sh, 0x3020, 0x4000);
	itrace_shadow_init(&child, small, 2, 15);
	itrace_shadow_copy(&child, &sh);
	itrace_shadow_read(&child, out, 16, &v);
	CHECK("shadow: a copy holds the innermost frames that fit",
	      v.whole && v.nr == 2 && out[0].site == 0x3020 &&
	      out[1].site == 0x2010 && out[0].entry == 0x4000);
	CHECK("shadow: the rest counted, the parent's before kept, no calls",
	      v.forgotten == 1 && v.before == 1 && !v.calls && !v.rets &&
	      v.resets == 1);
	itrace_shadow_ret(&child, 0x3025);
	itrace_shadow_ret(&child, 0x2015);
	itrace_shadow_ret(&child, 0x1008);
	itrace_shadow_read(&child, out, 16, &v);
	CHECK("shadow: the child returns through them, then the forgotten one",
	      !v.nr && !v.forgotten && !v.unmatched && v.rets == 3);
	CHECK("shadow: the parent's stack is untouched", sites_are(want, 3));
	itrace_shadow_init(&child, NULL, 0, 15);
	itrace_shadow_copy(&child, &sh);
	CHECK("shadow: a copy into no frames does nothing", !child.nr &&
	      !child.resets);
}

static void no_frames(void)
{
	itrace_shadow_init(&sh, NULL, 0, 15);
	itrace_shadow_call(&sh, 0x1003, 0x2000);
	itrace_shadow_ret(&sh, 0x1008);
	read_all(16);
	CHECK("shadow: with no frames nothing is kept, nothing faults",
	      v.whole && !v.nr && !v.calls && !v.rets);
}

int main(void)
{
	nested();
	odd_returns();
	ring_full();
	torn();
	copied();
	no_frames();
	return check_failed ? 1 : 0;
}
