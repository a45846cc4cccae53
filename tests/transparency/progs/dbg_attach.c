// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_attach: a debugger comes and goes on a running program. The child
 * runs 20 rounds of "read a token from a pipe, add it, write an ack";
 * while it is blocked in the read, the parent attaches with PTRACE_SEIZE
 * + PTRACE_INTERRUPT (round 5) and with PTRACE_ATTACH (SIGSTOP, round
 * 10), waits for the stop and detaches. The child's interrupted reads
 * restart unseen; it exits with its sum's check (0) and the parent
 * prints the stops seen and the child's status.
 *
 * Catches: a kernel tracer that doesn't survive a ptrace attach/detach
 * of its task (step state lost or left set after detach: the child
 * dies of SIGTRAP), or breaks the restart of the interrupted read.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#define ROUNDS	20

static void child(int in, int out)
{
	int i, sum = 0;
	char c;

	for (i = 0; i < ROUNDS; i++) {
		if (read(in, &c, 1) != 1)
			_exit(10);
		sum += c;
		if (write(out, "k", 1) != 1)
			_exit(11);
	}
	_exit(sum == ROUNDS * 'a' + ROUNDS * (ROUNDS - 1) / 2 ? 0 : 12);
}

TT_MAIN
{
	int to[2], from[2], i, status, seize_ok = 0, attach_ok = 0;
	pid_t pid;
	char c;

	tt_sys(pipe(to));
	tt_sys(pipe(from));
	pid = tt_sys(fork());
	if (pid == 0)
		child(to[0], from[1]);
	for (i = 0; i < ROUNDS; i++) {
		if (i == 5) {
			/* the child is in, or on its way to, its read */
			tt_sys(ptrace(PTRACE_SEIZE, pid, NULL, NULL));
			tt_sys(ptrace(PTRACE_INTERRUPT, pid, NULL, NULL));
			tt_sys(waitpid(pid, &status, 0));
			seize_ok = WIFSTOPPED(status) &&
				   status >> 16 == PTRACE_EVENT_STOP;
			tt_sys(ptrace(PTRACE_DETACH, pid, NULL, NULL));
		}
		if (i == 10) {
			tt_sys(ptrace(PTRACE_ATTACH, pid, NULL, NULL));
			tt_sys(waitpid(pid, &status, 0));
			attach_ok = WIFSTOPPED(status) &&
				    WSTOPSIG(status) == SIGSTOP;
			/* detach with no signal: the SIGSTOP is consumed */
			tt_sys(ptrace(PTRACE_DETACH, pid, NULL, NULL));
		}
		c = 'a' + i;
		tt_check(write(to[1], &c, 1) == 1);
		tt_check(read(from[0], &c, 1) == 1 && c == 'k');
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("seize+interrupt stop: %s\n", seize_ok ? "yes" : "no");
	tt_say("attach SIGSTOP stop: %s\n", attach_ok ? "yes" : "no");
	tt_say_end("child", status);
	tt_check(seize_ok && attach_ok);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
