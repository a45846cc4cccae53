// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_siginject: a debugger decides the program's signals. The child
 * (PTRACE_TRACEME) has handlers for SIGUSR1, SIGUSR2, SIGHUP and
 * SIGRTMIN and sends itself, in turn, SIGUSR1, SIGUSR2, SIGRTMIN (by
 * sigqueue, value 5) and SIGTERM (no handler: it would kill). At each
 * signal-delivery stop the parent reads PTRACE_GETSIGINFO and: drops
 * SIGUSR1; replaces SIGUSR2 by SIGHUP (the kernel then makes the
 * siginfo an SI_USER one from the parent); rewrites SIGRTMIN's si_value
 * to 99 with PTRACE_SETSIGINFO; drops SIGTERM. The child prints which
 * handlers ran with what, and exits 0.
 *
 * Catches: a tracer whose signal-delivery handling (it has its own, for
 * its step state across handlers) acts on the signal the task dequeued
 * instead of the one the debugger left, or loses the debugger's siginfo.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

static volatile int usr1, usr2, hup, hup_from_parent, rt, rt_value;

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig == SIGUSR1)
		usr1++;
	else if (sig == SIGUSR2)
		usr2++;
	else if (sig == SIGHUP) {
		hup++;
		hup_from_parent = si->si_code == SI_USER &&
				  si->si_pid == getppid();
	} else if (sig == SIGRTMIN) {
		rt++;
		rt_value = si->si_value.sival_int;
	}
}

static void child(void)
{
	int sigs[] = { SIGUSR1, SIGUSR2, SIGHUP, SIGRTMIN };
	union sigval v = { .sival_int = 5 };
	unsigned int i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		tt_handle(sigs[i], on_sig, 0);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	raise(SIGUSR1);
	raise(SIGUSR2);
	sigqueue(getpid(), SIGRTMIN, v);
	raise(SIGTERM);
	tt_say("child: SIGUSR1 handled %d, SIGUSR2 handled %d\n", usr1, usr2);
	tt_say("child: SIGHUP handled %d, SI_USER from the parent: %s\n", hup,
	       hup_from_parent ? "yes" : "no");
	tt_say("child: SIGRTMIN handled %d with value %d\n", rt, rt_value);
	tt_say("child: survived SIGTERM\n");
	_exit(!usr1 && !usr2 && hup == 1 && hup_from_parent && rt == 1 &&
	      rt_value == 99 ? 0 : 12);
}

TT_MAIN
{
	int status, n = 0, sig, inject;
	siginfo_t si;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	for (;;) {
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		sig = WSTOPSIG(status);
		tt_sys(ptrace(PTRACE_GETSIGINFO, pid, NULL, &si));
		tt_check(si.si_signo == sig);
		inject = 0;
		if (sig == SIGUSR1) {
			tt_say("parent: stop %d: SIGUSR1, dropped\n", ++n);
		} else if (sig == SIGUSR2) {
			tt_say("parent: stop %d: SIGUSR2, replaced by SIGHUP\n",
			       ++n);
			inject = SIGHUP;
		} else if (sig == SIGRTMIN) {
			tt_say("parent: stop %d: SIGRTMIN, SI_QUEUE value %d, set to 99\n",
			       ++n, si.si_code == SI_QUEUE ?
			       si.si_value.sival_int : -1);
			si.si_value.sival_int = 99;
			tt_sys(ptrace(PTRACE_SETSIGINFO, pid, NULL, &si));
			inject = SIGRTMIN;
		} else if (sig == SIGTERM) {
			tt_say("parent: stop %d: SIGTERM, dropped\n", ++n);
		} else {
			tt_say("parent: stop %d: signal %d, passed on\n", ++n,
			       sig);
			inject = sig;
		}
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, (void *)(long)inject));
	}
	tt_say_end("parent: child", status);
	tt_check(n == 4);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
