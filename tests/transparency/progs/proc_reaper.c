// SPDX-License-Identifier: GPL-2.0
/*
 * proc_reaper: orphans, a child subreaper and the parent-death signal.
 * The program makes itself a subreaper (PR_SET_CHILD_SUBREAPER), forks
 * M, and M forks two grandchildren: G1 asks for SIGUSR1 when its parent
 * dies (PR_SET_PDEATHSIG), G2 asks for nothing. M exits once both are
 * ready. G1's handler runs when M is gone, sees the program as its new
 * parent and G1 exits 6; G2 waits for the program's word, then checks
 * the same and exits 16. The program reaps M (5), then G1 (its only
 * child that can have exited), then tells G2 and reaps it: all
 * grandchildren came back to it.
 *
 * Catches: a tracer that loses or mishandles a traced task whose parent
 * changes (state or accounting tied to the original parent), or that
 * disturbs the pdeath signal sent from the exiting parent's context.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

static volatile int pdeath;

static void on_usr1(int sig)
{
	pdeath = sig;
}

static void g1(pid_t top, int ready)
{
	struct sigaction sa;
	sigset_t set, old;
	int s = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigprocmask(SIG_BLOCK, &set, &old) || sigaction(SIGUSR1, &sa, NULL))
		_exit(2);
	if (prctl(PR_SET_PDEATHSIG, SIGUSR1) ||
	    prctl(PR_GET_PDEATHSIG, &s) || s != SIGUSR1)
		_exit(3);
	if (write(ready, "1", 1) != 1)
		_exit(4);
	while (!pdeath)
		sigsuspend(&old);
	_exit(getppid() == top ? 6 : 7);
}

static void g2(pid_t top, int ready, int go)
{
	char c;

	if (write(ready, "2", 1) != 1 || read(go, &c, 1) != 1)
		_exit(14);
	_exit(getppid() == top ? 16 : 17);
}

static void report(const char *who, int status)
{
	if (WIFEXITED(status))
		tt_say("%s: exited %d\n", who, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		tt_say("%s: killed by signal %d\n", who, WTERMSIG(status));
}

TT_MAIN
{
	int ready[2], go[2], status, on = 0;
	pid_t top = getpid(), m, g;
	char c[2];

	if (prctl(PR_SET_CHILD_SUBREAPER, 1) && errno == EINVAL) {
		tt_say("subreaper: not available\n");
		tt_ok();
		return 0;
	}
	tt_sys(prctl(PR_GET_CHILD_SUBREAPER, &on));
	tt_say("subreaper: %d\n", on);
	tt_check(on == 1);
	tt_sys(pipe(ready));
	tt_sys(pipe(go));
	m = tt_sys(fork());
	if (m == 0) {
		if (fork() == 0)
			g1(top, ready[1]);
		if (fork() == 0)
			g2(top, ready[1], go[0]);
		/* both ready (G1's pdeath signal set) before M leaves */
		if (read(ready[0], c, 2) != 2 &&
		    read(ready[0], c + 1, 1) != 1)
			_exit(1);
		_exit(5);
	}
	tt_sys(waitpid(m, &status, 0));
	report("M", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	g = tt_sys(waitpid(-1, &status, 0));
	report("first orphan (pdeath signal)", status);
	tt_check(g != m && WIFEXITED(status) && WEXITSTATUS(status) == 6);
	tt_check(write(go[1], "g", 1) == 1);
	g = tt_sys(waitpid(-1, &status, 0));
	report("second orphan", status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 16);
	tt_check(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
	tt_ok();
	return 0;
}
