// SPDX-License-Identifier: GPL-2.0
/*
 * sig_many30: 30 different signals, each with its own SA_SIGINFO
 * handler: every standard signal but SIGKILL and SIGSTOP (including
 * SIGTRAP, SIGSEGV, SIGILL, SIGTSTP, SIGCONT...) and SIGRTMIN. Pass 1
 * raises each once: handled at once, si_code SI_TKILL. Pass 2 blocks
 * all 30, sends each by kill (SI_USER), and unblocks them in one
 * sigprocmask with handlers that block everything: the kernel hands
 * them out one per sigreturn, the synchronous ones (ILL, TRAP, BUS,
 * FPE, SEGV, SYS) first, then by number; the order is printed. They are
 * sent from the highest down, so SIGCONT comes after SIGTSTP, SIGTTIN
 * and SIGTTOU and discards them: those three run once only.
 *
 * Catches: a tracer that treats a signal number as its own (SIGTRAP,
 * SIGSEGV, SIGILL raised by kill are the program's), stops on a
 * job-control signal that has a handler, or drops or doubles one.
 */
#include "../tt.h"
#include <signal.h>

static int sigs[30];
static volatile int count[65], bad_code, want_code;
static char order[256];
static volatile int pos;

/* a pending SIGCONT discards these */
static int sig_kernel_stop(int sig)
{
	return sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	count[sig]++;
	if (si->si_code != want_code || si->si_signo != sig)
		bad_code++;
	pos += snprintf(order + pos, sizeof(order) - pos, " %d", sig);
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t set;
	int i, n = 0, wrong = 0;

	for (i = 1; i < 32; i++)
		if (i != SIGKILL && i != SIGSTOP)
			sigs[n++] = i;
	sigs[n++] = SIGRTMIN;
	tt_check(n == 30);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sig;
	sa.sa_flags = SA_SIGINFO;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < n; i++)
		tt_sys(sigaction(sigs[i], &sa, NULL));

	want_code = SI_TKILL;
	for (i = 0; i < n; i++) {
		tt_sys(raise(sigs[i]));
		wrong += count[sigs[i]] != 1;
	}
	tt_say("pass 1: raised 30, not handled once at once: %d, wrong si_code: %d\n",
	       wrong, bad_code);
	tt_check(!wrong && !bad_code);

	want_code = SI_USER;
	pos = 0;
	sigemptyset(&set);
	for (i = 0; i < n; i++)
		sigaddset(&set, sigs[i]);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	for (i = n - 1; i >= 0; i--)
		tt_sys(kill(getpid(), sigs[i]));
	tt_check(pos == 0);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	for (i = 0; i < n; i++)
		wrong += count[sigs[i]] != (sig_kernel_stop(sigs[i]) ? 1 : 2);
	tt_say("pass 2 order:%s\n", order);
	tt_say("pass 2: not handled as expected: %d, wrong si_code: %d\n",
	       wrong, bad_code);
	tt_check(!wrong && !bad_code);
	tt_ok();
	return 0;
}
