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
#include "../tt.h"
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

TT_MAIN
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
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
