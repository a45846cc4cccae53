// SPDX-License-Identifier: GPL-2.0
/*
 * proc_pending: the program exits with signals still pending: SIGUSR1
 * (raised while blocked), SIGUSR2 sent to the process, and 3 queued
 * SIGRTMIN, all blocked; it checks sigpending() shows them, prints the
 * verdict and ends with exit(5), which must be its end (status 5, not a
 * signal).
 *
 * Catches: a tracer that delivers or drops blocked signals at its own
 * stops (e.g. by rewriting the mask), or disturbs an exit with a
 * non-empty pending set (the end becomes a death by signal, or another
 * status).
 */
#include "../tt.h"
#include <signal.h>

TT_MAIN
{
	sigset_t set, pend;
	union sigval v = { .sival_int = 0 };
	int i;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	tt_sys(raise(SIGUSR1));
	tt_sys(kill(getpid(), SIGUSR2));
	for (i = 0; i < 3; i++)
		tt_sys(sigqueue(getpid(), SIGRTMIN, v));
	tt_sys(sigpending(&pend));
	tt_say("pending: SIGUSR1 %d, SIGUSR2 %d, SIGRTMIN %d, SIGTRAP %d\n",
	       sigismember(&pend, SIGUSR1), sigismember(&pend, SIGUSR2),
	       sigismember(&pend, SIGRTMIN), sigismember(&pend, SIGTRAP));
	tt_check(sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGUSR2));
	tt_check(sigismember(&pend, SIGRTMIN) && !sigismember(&pend, SIGTRAP));
	tt_say("exit 5 with them pending\n");
	tt_ok();
	exit(5);
}
