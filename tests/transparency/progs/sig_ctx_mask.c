// SPDX-License-Identifier: GPL-2.0
/*
 * sig_ctx_mask: a handler edits uc_sigmask, the mask its sigreturn
 * installs. Round 1: the SIGUSR1 handler adds SIGUSR2 (and SIGKILL,
 * SIGSTOP, which the kernel drops): main resumes with SIGUSR2 blocked,
 * KILL/STOP not. Round 2: SIGUSR2 is raised (pending); the handler of a
 * second SIGUSR1 removes SIGUSR2 from uc_sigmask, so its sigreturn
 * unblocks it and SIGUSR2's handler runs before main resumes. Round 3:
 * the handler blocks SIGRTMIN for main, 3 queued SIGRTMIN wait, and a
 * final sigprocmask delivers them in order. The event order is printed.
 *
 * Catches: a tracer that restores the mask of its own at sigreturn, or
 * misses a signal that the sigreturn unblocks (it must be delivered on
 * that sigreturn's way out, not at the next system call).
 */
#include "../tt.h"
#include <signal.h>
#include <ucontext.h>

static char log_[128];
static volatile int pos, mode;

static void note(const char *s)
{
	while (*s && pos < (int)sizeof(log_) - 1)
		log_[pos++] = *s++;
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	note("U1 ");
	switch (mode) {
	case 1:
		sigaddset(&uc->uc_sigmask, SIGUSR2);
		sigaddset(&uc->uc_sigmask, SIGKILL);
		sigaddset(&uc->uc_sigmask, SIGSTOP);
		break;
	case 2:
		sigdelset(&uc->uc_sigmask, SIGUSR2);
		break;
	case 3:
		sigaddset(&uc->uc_sigmask, SIGRTMIN);
		break;
	}
}

static void on_other(int sig, siginfo_t *si, void *ctx)
{
	char buf[8];

	(void)ctx;
	if (sig == SIGUSR2) {
		note("U2 ");
	} else {
		snprintf(buf, sizeof(buf), "R%d ", si->si_value.sival_int);
		note(buf);
	}
}

static sigset_t cur_mask(void)
{
	sigset_t m;

	tt_sys(sigprocmask(SIG_SETMASK, NULL, &m));
	return m;
}

TT_MAIN
{
	union sigval v;
	sigset_t m;
	int i;

	tt_handle(SIGUSR1, on_usr1, 0);
	tt_handle(SIGUSR2, on_other, 0);
	tt_handle(SIGRTMIN, on_other, 0);

	mode = 1;
	note("raise1 ");
	tt_sys(raise(SIGUSR1));
	note("main ");
	m = cur_mask();
	tt_say("round 1: SIGUSR2 blocked %d, SIGKILL %d, SIGSTOP %d\n",
	       sigismember(&m, SIGUSR2), sigismember(&m, SIGKILL),
	       sigismember(&m, SIGSTOP));
	tt_check(sigismember(&m, SIGUSR2) && !sigismember(&m, SIGKILL) &&
		 !sigismember(&m, SIGSTOP));

	mode = 2;
	note("raise2 ");
	tt_sys(raise(SIGUSR2));
	note("raise1 ");
	tt_sys(raise(SIGUSR1));
	note("main ");
	m = cur_mask();
	tt_say("round 2: SIGUSR2 blocked %d\n", sigismember(&m, SIGUSR2));
	tt_check(!sigismember(&m, SIGUSR2));

	mode = 3;
	note("raise1 ");
	tt_sys(raise(SIGUSR1));
	for (i = 1; i <= 3; i++) {
		v.sival_int = i;
		tt_sys(sigqueue(getpid(), SIGRTMIN, v));
	}
	note("main ");
	m = cur_mask();
	tt_say("round 3: SIGRTMIN blocked %d\n", sigismember(&m, SIGRTMIN));
	tt_check(sigismember(&m, SIGRTMIN));
	sigemptyset(&m);
	tt_sys(sigprocmask(SIG_SETMASK, &m, NULL));
	note("main");
	log_[pos] = 0;
	tt_say("order: %s\n", log_);
	tt_check(!strcmp(log_, "raise1 U1 main raise2 raise1 U1 U2 main "
			 "raise1 U1 main R1 R2 R3 main"));
	tt_ok();
	return 0;
}
