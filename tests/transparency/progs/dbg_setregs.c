// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_setregs: a debugger changes the program's registers. The child
 * (PTRACE_TRACEME, raise(SIGSTOP)) calls getppid() with a raw system
 * call; the parent runs it with PTRACE_SYSCALL (TRACESYSGOOD) to that
 * call's exit stop, reads the registers with PTRACE_GETREGSET
 * (NT_PRSTATUS) and writes 4242 into the return register (rax / r3)
 * with PTRACE_SETREGSET, then PTRACE_CONTs. The child prints the value
 * it got (4242) and whether a second, untouched getppid() is the real
 * one, then exits 0.
 *
 * Catches: register writes of a debugger lost or overwritten by the
 * kernel tracer's own saved state (e.g. it restores registers it saved
 * before the stop), syscall stops missed or doubled under tracing.
 */
#include "../tt_dbg.h"
#include "../tt_sc.h"
#include <sys/syscall.h>

static void child(void)
{
	long faked, real;

	faked = raw_syscall3(SYS_getppid, 0, 0, 0);
	real = raw_syscall3(SYS_getppid, 0, 0, 0);
	tt_say("child: first getppid returned %ld\n", faked);
	tt_say("child: second getppid is the parent: %s\n",
	       real == getppid() && real != 4242 ? "yes" : "no");
	_exit(0);
}

TT_MAIN
{
	int status, stops = 0, entries = 0, done = 0;
	tt_regs_t r;
	pid_t pid;

	pid = tt_fork_tracee();
	if (pid == 0)
		child();
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)PTRACE_O_TRACESYSGOOD));
	/* syscall stops come in entry/exit pairs; the child's first
	 * are those of raise() unblocking signals, then getppid */
	while (!done && stops < 40) {
		tt_sys(ptrace(PTRACE_SYSCALL, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		tt_check(WIFSTOPPED(status));
		tt_check(WSTOPSIG(status) == (SIGTRAP | 0x80));
		stops++;
		tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
		if (stops & 1) {	/* entry */
			if ((long)TT_R_NR(r) == SYS_getppid)
				entries++;
			continue;
		}
		if (entries == 1) {	/* exit of the first getppid */
			TT_R_RET(r) = 4242;
			tt_check(tt_regs(pid, PTRACE_SETREGSET, &r) == 0);
			done = 1;
		}
	}
	tt_check(done);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: set the return value at a getppid exit stop\n");
	tt_say_end("parent: child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
