// SPDX-License-Identifier: GPL-2.0
/*
 * sig_chld20: a SIGCHLD handler reaps 20 children. The children exit
 * with codes 0..19 as soon as they start; SIGCHLDs coalesce, so the
 * handler loops waitpid(-1, WNOHANG) and records each code once; main
 * waits in sigsuspend (SIGCHLD blocked outside it) until all 20 are in.
 * Then with SIGCHLD set to SIG_IGN (auto-reap) 3 more children exit and
 * wait() blocks until they are gone and fails with ECHILD.
 *
 * Catches: a tracer following forks that loses or duplicates a
 * SIGCHLD, breaks sigsuspend's wakeup, or keeps a child's exit from
 * being reported (a zombie that stays, or an exit code changed).
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int reaped, dup_code, bad_status, sum;
static volatile unsigned int seen;

static void on_chld(int sig)
{
	int status, e = errno;
	pid_t pid;

	(void)sig;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (!WIFEXITED(status) || WEXITSTATUS(status) >= 20) {
			bad_status++;
			continue;
		}
		if (seen & (1u << WEXITSTATUS(status)))
			dup_code++;
		seen |= 1u << WEXITSTATUS(status);
		sum += WEXITSTATUS(status);
		reaped++;
	}
	errno = e;
}

TT_MAIN
{
	sigset_t block, none;
	int i, r;

	tt_handle_plain(SIGCHLD, on_chld, SA_NOCLDSTOP | SA_RESTART);
	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	tt_sys(sigprocmask(SIG_BLOCK, &block, NULL));
	sigemptyset(&none);

	for (i = 0; i < 20; i++) {
		pid_t pid = tt_sys(fork());

		if (pid == 0)
			_exit(i);
	}
	while (reaped < 20)
		sigsuspend(&none);
	tt_say("reaped %d, exit codes sum %d, all codes %d\n", reaped, sum,
	       seen == 0xfffffu);
	tt_say("duplicates %d, bad statuses %d\n", dup_code, bad_status);
	tt_check(reaped == 20 && sum == 190 && seen == 0xfffffu);
	tt_check(!dup_code && !bad_status);
	r = waitpid(-1, NULL, WNOHANG);
	tt_check(r == -1 && errno == ECHILD);

	tt_handle_plain(SIGCHLD, SIG_IGN, 0);
	tt_sys(sigprocmask(SIG_UNBLOCK, &block, NULL));
	for (i = 0; i < 3; i++) {
		pid_t pid = tt_sys(fork());

		if (pid == 0)
			_exit(7);
	}
	r = wait(NULL);
	tt_say("SIG_IGN: wait() %d %s\n", r, errno == ECHILD ? "ECHILD" : "other");
	tt_check(r == -1 && errno == ECHILD && reaped == 20);
	tt_ok();
	return 0;
}
