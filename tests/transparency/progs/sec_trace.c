// SPDX-License-Identifier: GPL-2.0
/*
 * sec_trace: a seccomp filter hands system calls to a ptrace tracer
 * (SECCOMP_RET_TRACE, PTRACE_O_TRACESECCOMP), which changes them at the
 * seccomp stop. The child (PTRACE_TRACEME) installs a filter tracing
 * getppid (data 7), getuid (data 8) and write to fd 2 (data 9), and:
 * calls getppid, which the parent turns into getpid (the child gets its
 * own pid); calls getuid, which the parent skips (nr -1) with 555 as
 * the result; writes a 23-byte buffer to fd 2, which the parent cuts to
 * its first line (16 bytes, x86 rdx / POWER r5). The parent prints each
 * stop's event data; the child what it got.
 *
 * Catches: a tracer whose system-call stepping reads the call number or
 * arguments before the seccomp stop changed them, resumes a skipped call
 * at a wrong place, or loses the debugger's register writes.
 */
#include "../tt_dbg.h"
#include "../tt_sec.h"

static void child(void)
{
	struct sock_filter f[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_TRACE | 7),
		TT_SEC_IS_RET(SYS_getuid, SECCOMP_RET_TRACE | 8),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 3),
		TT_SEC_LD(args[0]),
		TT_SEC_IS_RET(2, SECCOMP_RET_TRACE | 9),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	static const char buf[] = "child: cut line\nGARBAGE";
	long a, b, c;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		_exit(10);
	a = syscall(SYS_getppid);
	b = syscall(SYS_getuid);
	c = syscall(SYS_write, 2, buf, sizeof(buf) - 1);
	tt_say("child: getppid gave its own pid: %s\n",
	       a == getpid() ? "yes" : "no");
	tt_say("child: getuid gave %ld\n", b);
	tt_say("child: write returned %ld\n", c);
	_exit(a == getpid() && b == 555 && c == 16 ? 0 : 11);
}

TT_MAIN
{
	unsigned long msg;
	int status, n = 0;
	tt_regs_t r;
	pid_t pid;

	if (tt_sec_lacks(SECCOMP_RET_TRACE))
		return 0;
	pid = tt_fork_tracee();
	if (pid == 0)
		child();
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESECCOMP));
	for (;;) {
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		tt_check(status >> 16 == PTRACE_EVENT_SECCOMP);
		tt_sys(ptrace(PTRACE_GETEVENTMSG, pid, NULL, &msg));
		tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
		n++;
		if (msg == 7) {
			tt_say("parent: seccomp stop, data 7, getppid: %s; made getpid\n",
			       (long)TT_R_NR(r) == SYS_getppid ? "yes" : "no");
			TT_R_NR(r) = SYS_getpid;
		} else if (msg == 8) {
			tt_say("parent: seccomp stop, data 8, getuid: %s; skipped, 555\n",
			       (long)TT_R_NR(r) == SYS_getuid ? "yes" : "no");
			TT_R_NR(r) = -1;
			TT_R_RET(r) = 555;	/* the skipped call's result */
		} else if (msg == 9) {
			tt_say("parent: seccomp stop, data 9, write of %ld; cut to 16\n",
			       (long)TT_R_ARG2(r));
			TT_R_ARG2(r) = 16;
		} else {
			tt_say("parent: seccomp stop, data %lu\n", msg);
		}
		tt_check(tt_regs(pid, PTRACE_SETREGSET, &r) == 0);
	}
	tt_say_end("parent: child", status);
	tt_check(n == 3);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
