// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_parent_step: the program itself is the debugger's tracee while it
 * runs. After a pipe handshake the parent computes a checksum over 300
 * rounds again and again until a flag is set; its forked child seizes it
 * (PTRACE_SEIZE; PR_SET_PTRACER is asked for in case Yama is on),
 * interrupts it wherever it is (PTRACE_INTERRUPT: an EVENT_STOP stop),
 * PTRACE_SINGLESTEPs it 100 times (each a SIGTRAP stop), sets the flag
 * with PTRACE_POKEDATA and detaches. The parent must end its loop with
 * the right checksum and see the child exit 0.
 *
 * Catches: the key case of a kernel tracer and a debugger on the same
 * task: steps of both fighting over the one step bit (TF / MSR_SE),
 * the debugger's steps taken for the tracer's (or the reverse), a step
 * bit left set after the detach (the parent dies of SIGTRAP), a stop
 * missed while the tracer is stepping the task.
 */
#include "../tt_dbg.h"
#include <sys/prctl.h>

#define STEPS	100
#define ROUNDS	300

static volatile int released;

__attribute__((noinline)) unsigned long checksum(void)
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < ROUNDS; i++)
		sum = sum * 31 + (i ^ (sum >> 7));
	return sum;
}

/* the debugger, in the child: 0 if all went as expected */
static int debugger(pid_t pid)
{
	int status, i, e;

	e = tt_seize_stop(pid);
	if (e)
		return 19 + e;		/* 20: refused, 21: another stop */
	for (i = 0; i < STEPS; i++) {
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL) ||
		    waitpid(pid, &status, __WALL) != pid)
			return 22;
		if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGTRAP)
			return 23;
	}
	if (ptrace(PTRACE_POKEDATA, pid, (void *)&released, (void *)1L) ||
	    ptrace(PTRACE_DETACH, pid, NULL, NULL))
		return 24;
	return 0;
}

TT_MAIN
{
	unsigned long sum = 0;
	int p[2], status;
	pid_t pid;
	char c;

	prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0) {
		if (read(p[0], &c, 1) != 1)
			_exit(10);
		_exit(debugger(getppid()));
	}
	tt_check(write(p[1], "g", 1) == 1);
	do
		sum = checksum();
	while (!released);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("parent: checksum %lx after being stepped, the same as unstepped: %s\n",
	       sum, sum == checksum() ? "yes" : "no");
	tt_say_end("parent: debugger child", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_check(sum == checksum());
	tt_ok();
	return 0;
}
