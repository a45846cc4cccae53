// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_listen: job control under a debugger (PTRACE_SEIZE, as gdb's
 * non-stop mode and strace -D use it). The child blocks reading a pipe;
 * the parent seizes it and sends SIGSTOP: a signal-delivery stop, which
 * the parent lets through, so the child enters group stop (an
 * EVENT_STOP stop with SIGSTOP). PTRACE_LISTEN leaves it stopped but
 * listening: waitpid(WNOHANG) sees nothing. SIGCONT then ends the group
 * stop: an EVENT_STOP stop with SIGTRAP, then SIGCONT's own delivery
 * stop, passed on. The child's read restarts, it gets a byte and exits
 * with it (9). Each stop is printed as it comes; the kernel fixes their
 * order.
 *
 * Catches: a tracer that runs the task out of its group stop or LISTEN
 * state (its own step trap while the task should be stopped), or loses
 * the restart of the interrupted read.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static void show(int status)
{
	if (WIFSTOPPED(status))
		tt_say("parent: stop: signal %d, event %s\n", WSTOPSIG(status),
		       status >> 16 == PTRACE_EVENT_STOP ? "STOP" :
		       status >> 16 ? "other" : "none");
	else
		tt_say_end("parent: child", status);
}

TT_MAIN
{
	int p[2], status;
	pid_t pid;
	char c;

	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0) {
		if (read(p[0], &c, 1) != 1)
			_exit(10);
		_exit(c);
	}
	tt_say("SIGSTOP is %d, SIGTRAP %d, SIGCONT %d\n", SIGSTOP, SIGTRAP,
	       SIGCONT);
	tt_sys(ptrace(PTRACE_SEIZE, pid, NULL, NULL));
	tt_sys(kill(pid, SIGSTOP));
	tt_sys(waitpid(pid, &status, 0));
	show(status);
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP &&
		 status >> 16 == 0);
	/* let SIGSTOP through: group stop */
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, (void *)SIGSTOP));
	tt_sys(waitpid(pid, &status, 0));
	show(status);
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP &&
		 status >> 16 == PTRACE_EVENT_STOP);
	tt_sys(ptrace(PTRACE_LISTEN, pid, NULL, NULL));
	tt_say("parent: listening; waitpid(WNOHANG) sees %s\n",
	       waitpid(pid, &status, WNOHANG) == 0 ? "nothing" : "a change");
	tt_sys(kill(pid, SIGCONT));
	tt_sys(waitpid(pid, &status, 0));
	show(status);
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP &&
		 status >> 16 == PTRACE_EVENT_STOP);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	show(status);
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGCONT &&
		 status >> 16 == 0);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, (void *)SIGCONT));
	c = 9;
	tt_check(write(p[1], &c, 1) == 1);
	tt_sys(waitpid(pid, &status, 0));
	show(status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 9);
	tt_ok();
	return 0;
}
