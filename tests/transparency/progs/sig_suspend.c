// SPDX-License-Identifier: GPL-2.0
/*
 * sig_suspend: a sigsuspend() loop fed by a child. The parent keeps
 * SIGUSR1 blocked and waits in sigsuspend(empty mask); the child queues
 * SIGUSR1 with values 0..19, one at a time, each after the parent's ack
 * on a pipe. Each sigsuspend must return EINTR after exactly one
 * handler run, with the blocked mask back in place. Then the child sends
 * SIGUSR2 and SIGUSR1 and says so on a second pipe before the parent
 * suspends: one sigsuspend runs both handlers. Values, counts and the mask are checked and printed.
 *
 * Catches: a tracer that disturbs sigsuspend's saved mask (the signal
 * mask restored after the handler, TIF_RESTORE_SIGMASK / the frame's
 * mask), loses a wakeup, or lets a blocked signal through outside it.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int got, usr2, last_val = -1, out_of_order;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (si->si_code == SI_QUEUE) {
		if (si->si_value.sival_int != last_val + 1)
			out_of_order++;
		last_val = si->si_value.sival_int;
	}
	got++;
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2++;
}

static void child(int ack, int sent, pid_t parent)
{
	union sigval v;
	char c;
	int i;

	for (i = 0; i < 20; i++) {
		v.sival_int = i;
		if (sigqueue(parent, SIGUSR1, v) || read(ack, &c, 1) != 1)
			_exit(2);
	}
	if (kill(parent, SIGUSR2) || kill(parent, SIGUSR1))
		_exit(3);
	if (write(sent, "s", 1) != 1)	/* both are pending now */
		_exit(4);
	_exit(0);
}

TT_MAIN
{
	sigset_t block, none, cur;
	int ack[2], sent[2], i, r, eintr = 0, extra = 0, status;
	pid_t pid;
	char c;

	tt_handle(SIGUSR1, on_usr1, 0);
	tt_handle_plain(SIGUSR2, on_usr2, 0);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigaddset(&block, SIGUSR2);
	tt_sys(sigprocmask(SIG_BLOCK, &block, NULL));
	sigemptyset(&none);
	tt_sys(pipe(ack));
	tt_sys(pipe(sent));

	pid = tt_sys(fork());
	if (pid == 0)
		child(ack[0], sent[1], getppid());
	for (i = 0; i < 20; i++) {
		int before = got;

		r = sigsuspend(&none);
		if (r == -1 && errno == EINTR)
			eintr++;
		if (got != before + 1)
			extra++;
		tt_sys(sigprocmask(SIG_SETMASK, NULL, &cur));
		if (!sigismember(&cur, SIGUSR1))
			extra++;
		tt_check(write(ack[1], "k", 1) == 1);
	}
	tt_say("20 sigsuspends: EINTR %d, handled %d, last value %d\n",
	       eintr, got, last_val);
	tt_say("out of order: %d, wrong counts or masks: %d\n",
	       out_of_order, extra);
	tt_check(eintr == 20 && got == 20 && last_val == 19);
	tt_check(!out_of_order && !extra);

	/* the child says both are pending: one sigsuspend takes both */
	tt_check(read(sent[0], &c, 1) == 1);
	tt_sys(sigpending(&cur));
	tt_check(sigismember(&cur, SIGUSR1) && sigismember(&cur, SIGUSR2));
	r = sigsuspend(&none);
	tt_say("both pending: sigsuspend %d, SIGUSR1 %d, SIGUSR2 %d\n",
	       r, got - 20, usr2);
	tt_check(r == -1 && got == 21 && usr2 == 1);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
