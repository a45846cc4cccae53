// SPDX-License-Identifier: GPL-2.0
/*
 * sig_abort: abort() always ends the process by SIGABRT. Child 1 has
 * SIGABRT blocked, child 2 ignores it: both must die of signal 6 (the
 * parent prints it). Then the program's own SIGABRT handler runs once
 * from abort(), prints, checks its siginfo (SI_TKILL, own pid) and
 * returns; abort() then resets the disposition and raises again, and
 * the run ends by signal 6 (status 134). RLIMIT_CORE is set to 0 first
 * so that no core file is written.
 *
 * Catches: a tracer that survives or alters a core-dumping death (the
 * dump path runs with the tracer's state still on the task), or that
 * eats the first SIGABRT, or delivers the handler twice.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

static volatile int handled, code;

static void on_abrt(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	handled++;
	code = si->si_code;
	tt_say("SIGABRT handler: run %d, signal %d, %s, own pid %d\n",
	       handled, sig, si->si_code == SI_TKILL ? "SI_TKILL" : "other",
	       si->si_pid == getpid());
	if (handled == 1)
		tt_ok();
}

/* @what: how the child was, with a colon */
static void child_status(const char *what, pid_t pid)
{
	int status;

	tt_sys(waitpid(pid, &status, 0));
	tt_say_end(what, status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
}

TT_MAIN
{
	struct rlimit rl = { 0, 0 };
	sigset_t set;
	pid_t pid;

	tt_sys(setrlimit(RLIMIT_CORE, &rl));
	pid = tt_sys(fork());
	if (pid == 0) {
		sigemptyset(&set);
		sigaddset(&set, SIGABRT);
		sigprocmask(SIG_BLOCK, &set, NULL);
		abort();
	}
	child_status("child with SIGABRT blocked:", pid);
	pid = tt_sys(fork());
	if (pid == 0) {
		signal(SIGABRT, SIG_IGN);
		abort();
	}
	child_status("child ignoring SIGABRT:", pid);

	tt_handle(SIGABRT, on_abrt, 0);
	tt_say("abort(): death by signal %d expected after the handler\n",
	       SIGABRT);
	abort();
}
