// SPDX-License-Identifier: GPL-2.0
/*
 * proc_waitid: the wait family on one child through its whole life.
 * The child blocks on a pipe; WNOHANG waits (waitid, waitpid) find
 * nothing. On a pipe command it stops itself (raise(SIGSTOP)): waitid
 * WSTOPPED reports CLD_STOPPED/SIGSTOP, a second WSTOPPED|WNOHANG
 * nothing more. SIGCONT: WCONTINUED reports CLD_CONTINUED (and waitpid
 * WCONTINUED|WNOHANG then nothing). On the next command it exits 42:
 * waitid WEXITED|WNOWAIT reports it and leaves it, wait4 reaps it with
 * its rusage, and then there is no child (ECHILD). A second child in its
 * own group is killed by SIGKILL and reaped by waitid(P_PGID).
 *
 * Catches: a tracer that interferes with job-control stops of a traced
 * task (its trap seen as a stop, a stop lost or reported twice, a
 * continue that resumes with a wrong step state), or with zombie and
 * reaping state.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static const char *code(int c)
{
	switch (c) {
	case CLD_EXITED: return "CLD_EXITED";
	case CLD_KILLED: return "CLD_KILLED";
	case CLD_DUMPED: return "CLD_DUMPED";
	case CLD_STOPPED: return "CLD_STOPPED";
	case CLD_CONTINUED: return "CLD_CONTINUED";
	default: return "none";
	}
}

static int wid(idtype_t t, id_t id, siginfo_t *si, int opts)
{
	memset(si, 0, sizeof(*si));
	return waitid(t, id, si, opts);
}

static void child(int cmd)
{
	char c;

	for (;;) {
		if (read(cmd, &c, 1) != 1)
			_exit(2);
		if (c == 's')
			raise(SIGSTOP);
		else
			_exit(42);
	}
}

TT_MAIN
{
	struct rusage ru;
	siginfo_t si;
	int p[2], status, r;
	pid_t pid, k;

	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0) {
		close(p[1]);	/* EOF, not a hang, if the parent dies */
		child(p[0]);
	}

	tt_sys(wid(P_PID, pid, &si, WEXITED | WSTOPPED | WNOHANG));
	tt_say("running: waitid WNOHANG: %s\n", si.si_pid ? "found" : "nothing");
	tt_check(si.si_pid == 0);
	r = waitpid(pid, &status, WNOHANG);
	tt_say("running: waitpid WNOHANG: %d\n", r);
	tt_check(r == 0);

	tt_check(write(p[1], "s", 1) == 1);
	tt_sys(wid(P_PID, pid, &si, WSTOPPED));
	tt_say("stopped: %s, signal %d\n", code(si.si_code), si.si_status);
	tt_check(si.si_pid == pid && si.si_code == CLD_STOPPED &&
		 si.si_status == SIGSTOP);
	tt_sys(wid(P_PID, pid, &si, WSTOPPED | WNOHANG));
	tt_say("stopped: reported once: %s\n", si.si_pid ? "no" : "yes");
	tt_check(si.si_pid == 0);

	tt_sys(kill(pid, SIGCONT));
	tt_sys(wid(P_PID, pid, &si, WCONTINUED));
	tt_say("continued: %s, signal %d\n", code(si.si_code), si.si_status);
	tt_check(si.si_pid == pid && si.si_code == CLD_CONTINUED &&
		 si.si_status == SIGCONT);
	r = waitpid(pid, &status, WCONTINUED | WNOHANG);
	tt_say("continued: reported once: %s\n", r == 0 ? "yes" : "no");
	tt_check(r == 0);

	tt_check(write(p[1], "e", 1) == 1);
	tt_sys(wid(P_PID, pid, &si, WEXITED | WNOWAIT));
	tt_say("exited: %s, status %d (WNOWAIT)\n", code(si.si_code),
	       si.si_status);
	tt_check(si.si_pid == pid && si.si_code == CLD_EXITED &&
		 si.si_status == 42);
	memset(&ru, 0xff, sizeof(ru));
	r = tt_sys(wait4(pid, &status, 0, &ru));
	tt_say("wait4: reaped: %s, status %d, rusage filled: %s\n",
	       r == pid ? "yes" : "no", WEXITSTATUS(status),
	       ru.ru_utime.tv_usec >= 0 && ru.ru_utime.tv_usec < 1000000 &&
	       ru.ru_nsignals >= 0 ? "yes" : "no");
	tt_check(r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 42);
	r = wid(P_ALL, 0, &si, WEXITED | WNOHANG);
	tt_say("then: %s\n", r == -1 && errno == ECHILD ? "ECHILD" : "a child");
	tt_check(r == -1 && errno == ECHILD);

	k = tt_sys(fork());
	if (k == 0) {
		setpgid(0, 0);
		for (;;)
			pause();
	}
	tt_sys(setpgid(k, k));
	tt_sys(kill(k, SIGKILL));
	tt_sys(wid(P_PGID, k, &si, WEXITED));
	tt_say("P_PGID: %s, signal %d, pid right: %s\n", code(si.si_code),
	       si.si_status, si.si_pid == k ? "yes" : "no");
	tt_check(si.si_code == CLD_KILLED && si.si_status == SIGKILL &&
		 si.si_pid == k);
	tt_ok();
	return 0;
}
