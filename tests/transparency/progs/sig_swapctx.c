// SPDX-License-Identifier: GPL-2.0
/*
 * sig_swapctx: user-level context switches. A SIGUSR1 handler
 * swapcontext()s to a makecontext() context on its own stack, which
 * checks that SIGUSR1 is unblocked there (its own mask), and switches
 * back; the handler checks SIGUSR1 is blocked again and returns. Then
 * main and a coroutine ping-pong with swapcontext() 20 times, each side
 * appending to a sequence that is printed.
 *
 * Catches: a tracer confused by a stack switch that is neither a call
 * nor a signal (a context swapped away inside a handler and back), or by
 * sigprocmask changes from inside a handler; lost state across swaps.
 */
#include "../tt.h"
#include <signal.h>
#include <ucontext.h>

#define STK	(64 * 1024)

static ucontext_t hctx, side, mainctx, co;
static volatile int side_ran, side_unblocked, hdl_blocked_after;
static char seq[64];
static int seq_len;

static int usr1_blocked(void)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, SIGUSR1);
}

static void side_fn(void)
{
	side_ran++;
	side_unblocked = !usr1_blocked();
	swapcontext(&side, &hctx);
}

static void on_usr1(int sig)
{
	(void)sig;
	swapcontext(&hctx, &side);
	hdl_blocked_after = usr1_blocked();
}

static void co_fn(void)
{
	int i;

	for (i = 0; i < 20; i++) {
		seq[seq_len++] = 'a' + i;
		swapcontext(&co, &mainctx);
	}
}

TT_MAIN
{
	int i;

	tt_sys(getcontext(&side));
	side.uc_stack.ss_sp = malloc(STK);
	side.uc_stack.ss_size = STK;
	side.uc_link = NULL;
	tt_check(side.uc_stack.ss_sp);
	makecontext(&side, side_fn, 0);

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_sys(raise(SIGUSR1));
	tt_say("handler: side context ran %d, SIGUSR1 unblocked there: %s\n",
	       side_ran, side_unblocked ? "yes" : "no");
	tt_say("handler: blocked again after swap back: %s\n",
	       hdl_blocked_after ? "yes" : "no");
	tt_say("main: blocked after handler: %s\n",
	       usr1_blocked() ? "yes" : "no");
	tt_check(side_ran == 1 && side_unblocked && hdl_blocked_after);
	tt_check(!usr1_blocked());

	tt_sys(getcontext(&co));
	co.uc_stack.ss_sp = malloc(STK);
	co.uc_stack.ss_size = STK;
	co.uc_link = &mainctx;
	tt_check(co.uc_stack.ss_sp);
	makecontext(&co, co_fn, 0);
	for (i = 0; i < 20; i++) {
		tt_sys(swapcontext(&mainctx, &co));
		seq[seq_len++] = 'A' + i;
	}
	seq[seq_len] = 0;
	tt_say("ping-pong: %s\n", seq);
	tt_check(seq_len == 40);
	tt_ok();
	return 0;
}
