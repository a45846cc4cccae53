// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_singlestep: a debugger on the program. The child asks to be
 * traced (PTRACE_TRACEME) and stops itself with raise(SIGSTOP); the
 * parent PTRACE_SINGLESTEPs it 50 times, checking each stop is a SIGTRAP
 * with si_code TRAP_TRACE (reading it with PTRACE_GETSIGINFO), then lets
 * it go with PTRACE_CONT; the child runs on and exits 3. The parent
 * prints the counts and the child's end.
 *
 * Catches: the kernel tracer and ptrace fighting over the one step bit
 * (TF / MSR_SE): steps lost (the child runs to its end before 50), extra
 * or misattributed SIGTRAPs, a step bit left set after PTRACE_CONT (the
 * child killed by SIGTRAP) or a stuck stepping state.
 */
#include "../tt_dbg.h"

#define STEPS	50

static volatile long sink;

TT_MAIN
{
	int status, i, traps = 0, trace_code = 0, other = 0;
	siginfo_t si;
	pid_t pid;

	pid = tt_fork_tracee();
	if (pid == 0) {
		long s = 0;

		for (i = 0; i < 100; i++)
			s += i;
		sink = s;
		_exit(s == 4950 ? 3 : 11);
	}
	tt_say("child stopped by SIGSTOP\n");
	for (i = 0; i < STEPS; i++) {
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status)) {
			other++;
			break;
		}
		if (WSTOPSIG(status) != SIGTRAP) {
			other++;
			continue;
		}
		traps++;
		if (ptrace(PTRACE_GETSIGINFO, pid, NULL, &si) == 0 &&
		    si.si_signo == SIGTRAP && si.si_code == TRAP_TRACE)
			trace_code++;
	}
	tt_say("steps: %d, SIGTRAP stops: %d, with TRAP_TRACE: %d, other: %d\n",
	       STEPS, traps, trace_code, other);
	if (WIFSTOPPED(status))
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("child", status);
	tt_check(traps == STEPS && trace_code == STEPS && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	tt_ok();
	return 0;
}
