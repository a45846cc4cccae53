// SPDX-License-Identifier: GPL-2.0
/*
 * sig_nodefer300: an SA_NODEFER SIGUSR1 handler raises SIGUSR1 again
 * from inside itself, so each delivery nests a new signal frame on the
 * last, down to depth 300; then all 300 frames unwind through
 * sigreturn. Prints the depth reached, how many handlers returned, and
 * the depth left at the end (0).
 *
 * Catches: a tracer that loses or duplicates a nested delivery, breaks
 * the chain of 300 sigreturns (a frame restored with a wrong context or
 * step state), or runs out of room for per-frame bookkeeping.
 */
#include "../tt.h"
#include <signal.h>

#define DEPTH	300

static volatile int depth, deepest, returned, order_bad;

static void on_usr1(int sig)
{
	int mine = ++depth;

	if (mine > deepest)
		deepest = mine;
	if (mine < DEPTH)
		raise(sig);
	/* every deeper handler has returned by now */
	if (deepest != DEPTH || depth != mine)
		order_bad++;
	depth--;
	returned++;
}

TT_MAIN
{

	tt_handle_plain(SIGUSR1, on_usr1, SA_NODEFER);
	tt_sys(raise(SIGUSR1));
	tt_say("deepest: %d\n", deepest);
	tt_say("returned: %d\n", returned);
	tt_say("depth at end: %d\n", depth);
	tt_say("out of order: %d\n", order_bad);
	tt_check(deepest == DEPTH);
	tt_check(returned == DEPTH);
	tt_check(depth == 0);
	tt_check(order_bad == 0);
	tt_ok();
	return 0;
}
