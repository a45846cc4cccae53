// SPDX-License-Identifier: GPL-2.0
/*
 * sig_stopcont: job control of a child blocked in a pipe read. The
 * parent stops it with SIGSTOP (waitpid WUNTRACED: stopped by 19),
 * continues it with SIGCONT (waitpid WCONTINUED: continued), then the
 * same with SIGTSTP through waitid (CLD_STOPPED status 20, then
 * CLD_CONTINUED). The child's SIGCONT handler (SA_RESTART) acks each
 * continue on a pipe, and its read restarts: it finally gets the
 * parent's byte and exits with it (42). The child has a process group
 * of its own (not an orphaned one, where SIGTSTP would be discarded).
 *
 * Catches: a tracer that breaks group stop (the task never stops, or
 * stops twice), swallows SIGCONT, disturbs the restart of the read
 * after the stop, or reports a stop of its own to the parent.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static int ack[2];

static void on_cont(int sig)
{
	(void)sig;
	if (write(ack[1], "c", 1) != 1)
		_exit(9);
}

/* send @sig, then waitid(@how) must report @code (named @name), @sig */
static void send_wait(pid_t pid, int sig, const char *what, int how,
		      int code, const char *name)
{
	siginfo_t si;

	tt_sys(kill(pid, sig));
	memset(&si, 0, sizeof(si));
	tt_sys(waitid(P_PID, pid, &si, how));
	tt_say("%s: %s status %d\n", what, si.si_code == code ? name : "other",
	       si.si_status);
	tt_check(si.si_code == code && si.si_status == sig);
}
#define SEND_WAIT(pid, sig, how, code)					\
	send_wait(pid, sig, #sig, how, code, #code)

static void child(int rd)
{
	unsigned char c;

	if (read(rd, &c, 1) != 1)
		_exit(2);
	_exit(c);
}

TT_MAIN
{
	int data[2], status;
	pid_t pid;
	char c;

	tt_handle_plain(SIGCONT, on_cont, SA_RESTART);
	tt_sys(pipe(ack));
	tt_sys(pipe(data));
	pid = tt_sys(fork());
	if (pid == 0) {
		setpgid(0, 0);
		child(data[0]);
	}
	/*
	 * its own process group, whose parent (we) is in another group of
	 * the same session: not orphaned, so SIGTSTP is not discarded
	 */
	tt_sys(setpgid(pid, pid));

	tt_sys(kill(pid, SIGSTOP));
	tt_sys(waitpid(pid, &status, WUNTRACED));
	tt_say("SIGSTOP: stopped %d by signal %d\n", WIFSTOPPED(status),
	       WIFSTOPPED(status) ? WSTOPSIG(status) : -1);
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	tt_sys(kill(pid, SIGCONT));
	tt_sys(waitpid(pid, &status, WCONTINUED));
	tt_say("SIGCONT: continued %d\n", WIFCONTINUED(status));
	tt_check(WIFCONTINUED(status));
	tt_check(read(ack[0], &c, 1) == 1);
	tt_say("child's SIGCONT handler ran\n");

	SEND_WAIT(pid, SIGTSTP, WSTOPPED, CLD_STOPPED);
	SEND_WAIT(pid, SIGCONT, WCONTINUED, CLD_CONTINUED);
	tt_check(read(ack[0], &c, 1) == 1);
	tt_say("child's SIGCONT handler ran\n");

	tt_check(write(data[1], "*", 1) == 1);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == '*');
	tt_ok();
	return 0;
}
