// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_sysemu: a debugger emulates a system call (PTRACE_SYSEMU, as
 * User-Mode Linux does). The child (PTRACE_TRACEME) stops itself with a
 * raw kill(SIGSTOP) and then makes a raw write(1, "REAL\n", 5); the
 * parent resumes it with PTRACE_SYSEMU, which stops it at that write's
 * entry without running it; the parent checks the call and its
 * arguments, sets the return value to 77 and PTRACE_CONTs. The child
 * prints what write() returned (77) and "REAL" never appears. Both
 * arches (powerpc has PTRACE_SYSEMU since 4.20).
 *
 * Catches: a kernel tracer whose system-call handling runs the call
 * anyway, reports it twice, or replaces the debugger's return value.
 */
#include "../tt_dbg.h"
#include "../tt_sc.h"
#include <sys/syscall.h>

TT_MAIN
{
	int status, args_ok;
	tt_regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		long got;

		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		raw_syscall3(SYS_kill, raw_syscall3(SYS_getpid, 0, 0, 0),
			     SIGSTOP, 0);
		got = raw_syscall3(SYS_write, 1, (long)"REAL\n", 5);
		tt_say("child: write returned %ld\n", got);
		_exit(0);
	}
	tt_wait_stop(pid, SIGSTOP);
	tt_sys(ptrace(PTRACE_SYSEMU, pid, NULL, NULL));
	tt_wait_stop(pid, SIGTRAP);
	tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
	args_ok = (long)TT_R_NR(r) == SYS_write && TT_R_ARG0(r) == 1 &&
		  TT_R_ARG2(r) == 5;
	TT_R_RET(r) = 77;
	tt_check(tt_regs(pid, PTRACE_SETREGSET, &r) == 0);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: stopped at write entry, args as made: %s\n",
	       args_ok ? "yes" : "no");
	tt_say_end("parent: child", status);
	tt_check(args_ok);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
