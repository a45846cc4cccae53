// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_kill_tracee: a debugger kills the program while it is stopped,
 * three ways. 1: a child stopped after 5 PTRACE_SINGLESTEPs (in a
 * step's SIGTRAP stop) is killed with PTRACE_KILL. 2: a child stopped at
 * a syscall-entry stop (PTRACE_SYSCALL) gets kill(SIGKILL). 3: a helper
 * process seizes a sibling blocked in a pipe read with
 * PTRACE_O_EXITKILL, interrupts it and exits without detaching: the
 * sibling dies of SIGKILL. The parent prints each end.
 *
 * Catches: a tracer that does not let go of a task killed in the middle
 * of a step or a syscall stop (its state left behind, the death turned
 * into something else), or a kill racing its step trap.
 */
#include "../tt_dbg.h"

static volatile long sink;

static pid_t stopped_child(void)
{
	pid_t pid = tt_fork_tracee();

	if (pid == 0) {
		long s = 0;
		int i;

		for (i = 0; i < 1000; i++)
			s += i;
		sink = s;
		for (;;)
			getppid();
	}
	return pid;
}

static void say_end(const char *how, int status)
{
	char who[64];

	snprintf(who, sizeof(who), "%s: child", how);
	tt_say_end(who, status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TT_MAIN
{
	int status, i, p[2];
	pid_t pid, victim, helper;
	char c;

	/* 1: PTRACE_KILL in a single-step stop */
	pid = stopped_child();
	for (i = 0; i < 5; i++) {
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_wait_stop(pid, SIGTRAP);
	}
	tt_sys(ptrace(PTRACE_KILL, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	say_end("PTRACE_KILL after 5 steps", status);

	/* 2: SIGKILL at a syscall-entry stop */
	pid = stopped_child();
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESYSGOOD));
	tt_sys(ptrace(PTRACE_SYSCALL, pid, NULL, NULL));
	tt_wait_stop(pid, SIGTRAP | 0x80);
	tt_sys(kill(pid, SIGKILL));
	tt_sys(waitpid(pid, &status, 0));
	/*
	 * Before 5.19 the dying child still reports its syscall-exit stop
	 * on its way out when its tracer waits soon enough: the kernel's
	 * race with the kill, seen untraced too. Its death follows.
	 */
	if (WIFSTOPPED(status) && WSTOPSIG(status) == (SIGTRAP | 0x80))
		tt_sys(waitpid(pid, &status, 0));
	say_end("SIGKILL at a syscall stop", status);

	/* 3: the tracer exits; PTRACE_O_EXITKILL kills its tracee */
	tt_sys(pipe(p));
	victim = tt_sys(fork());
	if (victim == 0) {
		close(p[1]);
		if (read(p[0], &c, 1) != 0)
			_exit(10);
		_exit(11);	/* EOF: the helper's end did not kill */
	}
	helper = tt_sys(fork());
	if (helper == 0) {
		if (ptrace(PTRACE_SEIZE, victim, NULL,
			   (void *)PTRACE_O_EXITKILL) ||
		    ptrace(PTRACE_INTERRUPT, victim, NULL, NULL) ||
		    waitpid(victim, &status, __WALL) != victim ||
		    !WIFSTOPPED(status))
			_exit(20);
		_exit(0);
	}
	close(p[0]);
	tt_sys(waitpid(helper, &status, 0));
	tt_say("EXITKILL: the tracer exited %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(p[1]);
	tt_sys(waitpid(victim, &status, 0));
	say_end("EXITKILL", status);
	tt_ok();
	return 0;
}
