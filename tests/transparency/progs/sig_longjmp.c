// SPDX-License-Identifier: GPL-2.0
/*
 * sig_longjmp: a SIGUSR1 handler never returns: it leaves with
 * siglongjmp() to the sigsetjmp() in main, 50 times with savemask=1
 * (SIGUSR1, blocked in the handler, must be unblocked again after each
 * jump), then once with savemask=0 (SIGUSR1 must stay blocked after the
 * jump; the program unblocks it). Prints the counts and mask states.
 *
 * Catches: a tracer that keeps per-frame state for a signal frame that
 * is never sigreturned from (50 abandoned frames), and so misbehaves
 * later; a mask or stack pointer restored wrongly by the jump.
 */
#include "../tt.h"
#include <setjmp.h>
#include <signal.h>

static sigjmp_buf env;
static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	siglongjmp(env, handled);
}

static int usr1_blocked(void)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, SIGUSR1);
}

TT_MAIN
{
	volatile int jumps = 0, blocked_after = 0;
	sigset_t usr1;

	tt_handle_plain(SIGUSR1, on_usr1, 0);

	if (sigsetjmp(env, 1) != 0) {
		jumps++;
		if (usr1_blocked())
			blocked_after++;
	}
	if (handled < 50) {
		raise(SIGUSR1);
		tt_fail("handler returned");
	}
	tt_say("jumps with savemask=1: %d\n", jumps);
	tt_say("blocked after them: %d\n", blocked_after);
	tt_check(jumps == 50 && blocked_after == 0);

	if (sigsetjmp(env, 0) == 0) {
		raise(SIGUSR1);
		tt_fail("handler returned");
	}
	tt_say("jump with savemask=0: blocked after: %s\n",
	       usr1_blocked() ? "yes" : "no");
	tt_check(usr1_blocked());
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	tt_sys(sigprocmask(SIG_UNBLOCK, &usr1, NULL));
	tt_check(!usr1_blocked());
	tt_say("handled: %d\n", handled);
	tt_check(handled == 51);
	tt_ok();
	return 0;
}
