// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_exec_exit: a debugger sees the program exec and exit. Child 1
 * (PTRACE_TRACEME, raise(SIGSTOP)) gets TRACEEXEC and TRACEEXIT and
 * re-executes /proc/self/exe "exec42": the parent must see an exec event
 * stop (PTRACE_GETEVENTMSG: the former thread id, the child's pid), then
 * the new image prints a line and exits 42, seen first as an exit event
 * stop whose message is that status, then as the exit. Child 2 has no
 * options and re-executes "exec43": the exec shows as the old-style
 * SIGTRAP stop; it exits 43.
 *
 * Catches: a tracer following the exec (follow-exec) that swallows or
 * doubles the debugger's exec stop or its SIGTRAP, leaves a step bit
 * armed across the new image, or changes the exit status the exit event
 * reports.
 */
#include "../tt_dbg.h"

static pid_t start(char *arg)
{
	char *args[] = { "dbg_exec_exit", arg, NULL };
	pid_t pid = tt_fork_tracee();

	if (pid == 0) {
		execv("/proc/self/exe", args);
		_exit(11);
	}
	return pid;
}

TT_MAIN
{
	unsigned long msg;
	int status, ev_status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "exec42")) {
		tt_say("exec'd image: running, exiting 42\n");
		return 42;
	}
	if (argc > 1 && !strcmp(argv[1], "exec43")) {
		tt_say("exec'd image: running, exiting 43\n");
		return 43;
	}

	pid = start("exec42");
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)(PTRACE_O_TRACEEXEC | PTRACE_O_TRACEEXIT)));
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	tt_check(status >> 16 == PTRACE_EVENT_EXEC);
	tt_sys(ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg));
	tt_say("parent: exec event stop, former tid the child's pid: %s\n",
	       msg == (unsigned long)pid ? "yes" : "no");
	tt_check(msg == (unsigned long)pid);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	tt_check(status >> 16 == PTRACE_EVENT_EXIT);
	tt_sys(ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg));
	ev_status = msg;
	tt_say("parent: exit event stop, status exited %d\n",
	       WIFEXITED(ev_status) ? WEXITSTATUS(ev_status) : -1);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 42);
	tt_check(WIFEXITED(ev_status) && WEXITSTATUS(ev_status) == 42);

	pid = start("exec43");
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP);
	tt_say("parent: plain SIGTRAP stop after exec, no event: %s\n",
	       status >> 16 == 0 ? "yes" : "no");
	tt_check(status >> 16 == 0);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 43);
	tt_ok();
	return 0;
}
