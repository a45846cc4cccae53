// SPDX-License-Identifier: GPL-2.0
/*
 * sig_unblock: signals made pending while blocked, all delivered by one
 * sigprocmask() that unblocks them. Pending: SIGWINCH, SIGUSR2, SIGUSR1
 * (sent in that order) and SIGRTMIN+1 (values 3, 4), SIGRTMIN (1, 2).
 * Round 1: every handler blocks all signals (sa_mask full), so they run
 * one after another, at each sigreturn, lowest number first, queued RT
 * ones in order. Round 2: empty sa_mask, so the kernel stacks a frame
 * per signal before returning to user mode; the entry/exit order is
 * printed as the kernel makes it. Both rounds: all ran before the
 * sigprocmask returned. Round 3: SIG_IGN discards a pending signal,
 * a blocked ignored signal is still queued (and dropped at unblock),
 * and SIG_DFL of a default-ignore signal (SIGWINCH) discards it too.
 *
 * Catches: a tracer that delivers pending signals at its own stops (too
 * early, while still blocked), changes their order or nesting, drops
 * one, or runs main between handlers that must run back to back.
 */
#include "../tt.h"
#include <signal.h>

static char order[128];
static volatile int pos;

static void note(char c)
{
	if (pos < (int)sizeof(order) - 1)
		order[pos++] = c;
}

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig == SIGUSR1)
		note('a');
	else if (sig == SIGUSR2)
		note('b');
	else if (sig == SIGWINCH)
		note('w');
	else
		note('0' + si->si_value.sival_int);
	note('.');
}

static void install(int full)
{
	static const int sigs[] = { SIGUSR1, SIGUSR2, SIGWINCH, 0, 0 };
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	if (full)
		sigfillset(&sa.sa_mask);
	else
		sigemptyset(&sa.sa_mask);
	for (i = 0; i < 3; i++)
		tt_sys(sigaction(sigs[i], &sa, NULL));
	tt_sys(sigaction(SIGRTMIN, &sa, NULL));
	tt_sys(sigaction(SIGRTMIN + 1, &sa, NULL));
}

static void make_pending(void)
{
	union sigval v;

	tt_sys(kill(getpid(), SIGWINCH));
	tt_sys(kill(getpid(), SIGUSR2));
	tt_sys(kill(getpid(), SIGUSR1));
	v.sival_int = 3;
	tt_sys(sigqueue(getpid(), SIGRTMIN + 1, v));
	v.sival_int = 1;
	tt_sys(sigqueue(getpid(), SIGRTMIN, v));
	v.sival_int = 4;
	tt_sys(sigqueue(getpid(), SIGRTMIN + 1, v));
	v.sival_int = 2;
	tt_sys(sigqueue(getpid(), SIGRTMIN, v));
}

static void set_blocked(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGWINCH);
	sigaddset(set, SIGRTMIN);
	sigaddset(set, SIGRTMIN + 1);
}

static void round_(int full)
{
	sigset_t set, pend;
	int n;

	install(full);
	set_blocked(&set);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	pos = 0;
	make_pending();
	tt_sys(sigpending(&pend));
	tt_check(pos == 0);
	tt_check(sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGRTMIN + 1));
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	n = pos;		/* all handled before sigprocmask returned */
	order[n] = 0;
	tt_say("%s: %d handled at unblock: %s\n",
	       full ? "sa_mask full" : "sa_mask empty", n / 2, order);
	tt_check(n == 14);
	tt_check(strchr(order, 'a') && strchr(order, 'b') && strchr(order, 'w'));
	tt_check(strchr(order, '1') && strchr(order, '4'));
	tt_check(strchr(order, '1') < strchr(order, '2'));
	tt_check(strchr(order, '3') < strchr(order, '4'));
	if (full)
		tt_check(!strcmp(order, "a.b.w.1.2.3.4."));
}

static void discard(void)
{
	struct sigaction sa;
	sigset_t set, pend;

	install(1);
	set_blocked(&set);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	pos = 0;
	tt_sys(kill(getpid(), SIGUSR1));
	tt_sys(kill(getpid(), SIGWINCH));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	tt_sys(sigaction(SIGUSR1, &sa, NULL));	/* discards it */
	sa.sa_handler = SIG_DFL;
	tt_sys(sigaction(SIGWINCH, &sa, NULL));	/* default ignore: discards */
	tt_sys(sigpending(&pend));
	tt_say("after SIG_IGN/SIG_DFL: SIGUSR1 pending %d, SIGWINCH pending %d\n",
	       sigismember(&pend, SIGUSR1), sigismember(&pend, SIGWINCH));
	tt_check(!sigismember(&pend, SIGUSR1) && !sigismember(&pend, SIGWINCH));
	sa.sa_handler = SIG_IGN;
	tt_sys(sigaction(SIGUSR2, &sa, NULL));
	tt_sys(kill(getpid(), SIGUSR2));	/* blocked: queued even so */
	tt_sys(sigpending(&pend));
	tt_say("blocked SIG_IGN SIGUSR2 raised: pending %d\n",
	       sigismember(&pend, SIGUSR2));
	tt_check(sigismember(&pend, SIGUSR2));
	install(1);
	tt_sys(sigaction(SIGUSR2, &sa, NULL));
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	tt_sys(sigpending(&pend));
	tt_say("after unblock: handled %d, SIGUSR2 pending %d\n", pos,
	       sigismember(&pend, SIGUSR2));
	tt_check(pos == 0 && !sigismember(&pend, SIGUSR2));
}

TT_MAIN
{
	round_(1);
	round_(0);
	discard();
	tt_ok();
	return 0;
}
