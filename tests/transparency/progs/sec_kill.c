// SPDX-License-Identifier: GPL-2.0
/*
 * sec_kill: a forked child installs a seccomp filter that answers
 * getppid() with SECCOMP_RET_KILL_PROCESS, and calls it; the parent
 * prints that the child died of SIGSYS (core dumps are off in the child
 * so the status doesn't depend on the machine's core settings).
 *
 * Catches: a traced task killed by seccomp in the middle of a stepped
 * system call, whose death the tracer turns into something else (an
 * exit, another signal) or which leaves the tracer's state behind.
 */
#include "../tt_sec.h"
#include <linux/audit.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

TT_MAIN
{
	struct sock_filter f[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_KILL_PROCESS),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	struct rlimit no_core = { 0, 0 };
	int status;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		if (setrlimit(RLIMIT_CORE, &no_core) ||
		    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(10);
		syscall(SYS_getppid);
		_exit(11);
	}
	tt_sys(waitpid(pid, &status, 0));
	if (WIFSIGNALED(status))
		tt_say("child killed by signal %d (SIGSYS is %d)\n",
		       WTERMSIG(status), SIGSYS);
	else
		tt_say("child exited %d\n", WEXITSTATUS(status));
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGSYS);
	tt_ok();
	return 0;
}
