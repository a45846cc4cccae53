// SPDX-License-Identifier: GPL-2.0
/*
 * sig_rtqueue: with SIGRTMIN and SIGRTMIN+1 blocked, sigqueue()s 50
 * real-time signals, alternating the two numbers, each carrying its
 * sequence number in si_value; then unblocks them. Each handler blocks
 * both while it runs, so the deliveries come one at a time: all of
 * SIGRTMIN first (lowest number first) in the order queued, then all of
 * SIGRTMIN+1. Checks the order, the payloads, si_code == SI_QUEUE and
 * si_pid, and prints a summary.
 *
 * Catches: queued signals lost, merged, reordered or with a payload
 * damaged while the task is traced, or a delivery at a trap instead of
 * at the unblock.
 */
#include "../tt.h"
#include <signal.h>

#define N	50

static volatile int got_sig[N], got_val[N], n_got, bad_info;
static pid_t me;

static void on_rt(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (si->si_code != SI_QUEUE || si->si_pid != me)
		bad_info++;
	if (n_got < N) {
		got_sig[n_got] = sig - SIGRTMIN;
		got_val[n_got] = si->si_value.sival_int;
	}
	n_got++;
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t rt, old;
	union sigval v;
	int i, in_order = 1, before;

	me = getpid();
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigaddset(&rt, SIGRTMIN + 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sa.sa_mask = rt;
	tt_sys(sigaction(SIGRTMIN, &sa, NULL));
	tt_sys(sigaction(SIGRTMIN + 1, &sa, NULL));

	tt_sys(sigprocmask(SIG_BLOCK, &rt, &old));
	for (i = 0; i < N; i++) {
		v.sival_int = 1000 + i;
		tt_sys(sigqueue(me, SIGRTMIN + (i & 1), v));
	}
	before = n_got;
	tt_sys(sigprocmask(SIG_SETMASK, &old, NULL));

	/* expected: RTMIN with 1000,1002,..,1048 then RTMIN+1 with 1001,.. */
	for (i = 0; i < N && i < n_got; i++) {
		int k = i < N / 2 ? 2 * i : 2 * (i - N / 2) + 1;

		if (got_sig[i] != (k & 1) || got_val[i] != 1000 + k)
			in_order = 0;
	}
	tt_say("delivered while blocked: %d\n", before);
	tt_say("delivered: %d\n", n_got);
	tt_say("first: RTMIN+%d value %d\n", got_sig[0], got_val[0]);
	tt_say("last: RTMIN+%d value %d\n", got_sig[N - 1], got_val[N - 1]);
	tt_say("order and payloads: %s\n", in_order ? "as queued" : "wrong");
	tt_say("bad siginfo: %d\n", bad_info);
	tt_check(before == 0 && n_got == N && in_order && !bad_info);
	tt_ok();
	return 0;
}
