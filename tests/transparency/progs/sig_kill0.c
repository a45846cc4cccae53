// SPDX-License-Identifier: GPL-2.0
/*
 * sig_kill0: kill(0, SIGUSR1) to the whole process group. The program
 * first makes its own process group (so nothing else, e.g. the harness,
 * is hit), blocks SIGUSR1 and forks a child; the child says it is ready
 * through a pipe and waits in sigsuspend(); the parent sends
 * kill(0, SIGUSR1), takes its own copy in sigsuspend(), waits for the
 * child (which exits 7 after its handler ran) and reports both, in
 * order.
 *
 * Catches: a group signal that a traced member misses, takes twice, or
 * takes at the wrong point; a child whose handler or sigsuspend return
 * breaks when the parent (or the child) is traced.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

TT_MAIN
{
	sigset_t usr1, none;
	int ready[2], status;
	pid_t child;
	char c;

	if (getpgrp() != getpid())
		tt_sys(setpgid(0, 0));
	tt_check(getpgrp() == getpid());

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	sigemptyset(&none);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	tt_sys(sigprocmask(SIG_BLOCK, &usr1, NULL));
	tt_sys(pipe(ready));

	child = tt_sys(fork());
	if (child == 0) {
		if (write(ready[1], "r", 1) != 1)
			_exit(2);
		while (!got)
			sigsuspend(&none);
		_exit(got == 1 ? 7 : 3);
	}
	tt_check(read(ready[0], &c, 1) == 1);
	tt_sys(kill(0, SIGUSR1));
	while (!got)
		sigsuspend(&none);
	tt_sys(waitpid(child, &status, 0));
	tt_say("parent: SIGUSR1 handled %d\n", got);
	if (WIFEXITED(status))
		tt_say("child: exited %d (7: handled once)\n",
		       WEXITSTATUS(status));
	else
		tt_say("child: killed by signal %d\n", WTERMSIG(status));
	tt_check(got == 1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	tt_ok();
	return 0;
}
