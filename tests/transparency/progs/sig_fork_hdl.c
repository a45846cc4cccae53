// SPDX-License-Identifier: GPL-2.0
/*
 * sig_fork_hdl: a SIGUSR1 handler, entered from the program's own
 * raise(), calls fork(). The child returns from the handler (through the
 * signal frame copied with its memory) into main and leaves with
 * _exit(0) after a marker; the parent waits and prints the child's
 * status, then returns from the handler itself.
 *
 * Catches: a child forked inside a handler that inherits the tracer's
 * single-step state (TF / MSR_SE in the copied frame or registers) and
 * dies of SIGTRAP, or a sigreturn in the child that restores a wrong
 * context; also a parent whose own sigreturn is disturbed.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile pid_t child;
static volatile int in_child, handled;

static void on_usr1(int sig)
{
	pid_t p = fork();

	if (p == -1)
		_exit(2);
	if (p == 0)
		in_child = 1;
	else
		child = p;
	handled = sig;
}

TT_MAIN
{
	int status;

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_sys(raise(SIGUSR1));

	if (in_child) {
		/* back in main after the handler's sigreturn */
		if (handled != SIGUSR1)
			_exit(4);
		tt_say("child: returned from handler to main\n");
		_exit(0);
	}
	tt_check(handled == SIGUSR1);
	tt_check(child > 0);
	tt_sys(waitpid(child, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_say("parent: returned from handler to main\n");
	tt_ok();
	return 0;
}
