// SPDX-License-Identifier: GPL-2.0
/*
 * sig_trap_user: SIGTRAP that no trap instruction made. The program's
 * SA_SIGINFO SIGTRAP handler gets: kill(getpid()) (SI_USER), raise
 * (SI_TKILL), sigqueue (SI_QUEUE, value 5), each also sent from inside
 * a SIGUSR1 handler (nested SIGTRAP, depth 2); one blocked, pending and
 * then unblocked; and one from a forked child (si_pid the child's) while
 * the parent sleeps in a pipe read, which restarts (SA_RESTART). Codes,
 * depths and counts printed.
 *
 * Catches: a tracer that takes every SIGTRAP for a trap of its own
 * (swallowing it or rewriting its siginfo into TRAP_TRACE/TRAP_BRKPT),
 * or that single-steps into a handler for one and loses track.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int traps, depth, last_code, last_val, last_depth;
static volatile pid_t last_pid;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	depth++;
	traps++;
	last_code = si->si_code;
	last_val = si->si_code == SI_QUEUE ? si->si_value.sival_int : 0;
	last_pid = si->si_pid;
	last_depth = depth;
	depth--;
}

static const char *code_name(int c)
{
	switch (c) {
	case SI_USER: return "SI_USER";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TKILL: return "SI_TKILL";
	case SI_KERNEL: return "SI_KERNEL";
	case TRAP_BRKPT: return "TRAP_BRKPT";
	case TRAP_TRACE: return "TRAP_TRACE";
	default: return "other";
	}
}

static void send3(int i)
{
	union sigval v = { .sival_int = 5 };

	if (i == 0)
		kill(getpid(), SIGTRAP);
	else if (i == 1)
		raise(SIGTRAP);
	else
		sigqueue(getpid(), SIGTRAP, v);
}

static volatile int which;

static void on_usr1(int sig)
{
	(void)sig;
	depth++;
	send3(which);
	depth--;
}

static void expect(const char *how, int n, int code, int d)
{
	tt_say("%-22s traps %d, %s, value %d, depth %d, own pid %d\n", how,
	       traps, code_name(last_code), last_val, last_depth,
	       last_pid == getpid());
	tt_check(traps == n && last_code == code && last_depth == d);
}

TT_MAIN
{
	static const char *names[] = { "kill", "raise", "sigqueue" };
	static const int codes[] = { SI_USER, SI_TKILL, SI_QUEUE };
	char how[32], c;
	int i, p[2], status;
	sigset_t set;
	pid_t pid;

	tt_handle(SIGTRAP, on_trap, SA_RESTART);
	tt_handle_plain(SIGUSR1, on_usr1, 0);

	for (i = 0; i < 3; i++) {
		send3(i);
		expect(names[i], 2 * i + 1, codes[i], 1);
		which = i;
		raise(SIGUSR1);
		snprintf(how, sizeof(how), "%s in a handler", names[i]);
		expect(how, 2 * i + 2, codes[i], 2);
	}

	sigemptyset(&set);
	sigaddset(&set, SIGTRAP);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	kill(getpid(), SIGTRAP);
	tt_check(traps == 6);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	expect("blocked, unblocked", 7, SI_USER, 1);

	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0) {
		if (kill(getppid(), SIGTRAP) || write(p[1], "d", 1) != 1)
			_exit(2);
		_exit(0);
	}
	tt_check(read(p[0], &c, 1) == 1 && c == 'd');
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_say("from the child: traps %d, %s, its pid %d\n", traps,
	       code_name(last_code), last_pid == pid);
	tt_check(traps == 8 && last_code == SI_USER && last_pid == pid);
	tt_ok();
	return 0;
}
