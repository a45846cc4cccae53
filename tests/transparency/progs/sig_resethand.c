// SPDX-License-Identifier: GPL-2.0
/*
 * sig_resethand: SA_RESETHAND (SA_ONESHOT). In a forked child, the first
 * SIGUSR2 runs the handler, which sees its disposition already reset to
 * SIG_DFL and SIGUSR2 blocked inside it (Linux does not add SA_NODEFER);
 * the second SIGUSR2 kills the child (the parent prints the signal).
 * Then the program's own SIGUSR1 handler, after the same checks and the
 * verdict line, raises SIGUSR1 again: blocked, it stays pending, and the
 * handler's sigreturn unblocks it with the default action: the run ends
 * by signal 10 (status 138), before main runs again.
 *
 * Catches: a tracer that keeps a one-shot handler (or re-installs one),
 * survives or changes a default-action death (here one that falls due
 * at a sigreturn), or turns it into an exit.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int handled, reset_seen, blocked_seen;

static void on_sig(int sig)
{
	struct sigaction old;
	sigset_t mask;

	handled++;
	if (!sigaction(sig, NULL, &old) && old.sa_handler == SIG_DFL)
		reset_seen++;
	if (!sigprocmask(SIG_SETMASK, NULL, &mask) && sigismember(&mask, sig))
		blocked_seen++;
	if (sig != SIGUSR1)
		return;
	tt_say("SIGUSR1 handler: handled %d, reset to SIG_DFL in it %d, "
	       "blocked in it %d\n", handled, reset_seen, blocked_seen);
	tt_check(handled == 1 && reset_seen == 1 && blocked_seen == 1);
	tt_ok();
	tt_say("raise again: death by signal %d at the sigreturn expected\n",
	       SIGUSR1);
	raise(SIGUSR1);
}

static void install(int sig)
{

	tt_handle_plain(sig, on_sig, SA_RESETHAND);
}

TT_MAIN
{
	int status;
	pid_t pid;

	install(SIGUSR2);
	pid = tt_sys(fork());
	if (pid == 0) {
		raise(SIGUSR2);
		if (handled != 1 || reset_seen != 1 || blocked_seen != 1)
			_exit(2);
		raise(SIGUSR2);
		_exit(3);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("child:", status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR2);

	install(SIGUSR1);
	raise(SIGUSR1);
	tt_say("still alive after the handler\n");
	return 1;
}
