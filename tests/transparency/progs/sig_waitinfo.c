// SPDX-License-Identifier: GPL-2.0
/*
 * sig_waitinfo: blocked signals taken synchronously. The program queues
 * SIGRTMIN x5 (values 10..14), SIGRTMIN+1 x2, SIGUSR2 by tgkill and
 * SIGUSR1 by kill, all blocked (handlers installed but never to run),
 * then takes them with sigwaitinfo()/sigtimedwait(): the thread's own
 * queue first (the tgkill'd SIGUSR2), then the process's, lowest number
 * first, queued ones in order; each with its si_code and value. Then
 * sigtimedwait with a zero and a 2 ms timeout on an empty set: EAGAIN;
 * then a child's sigqueue(SIGRTMIN+2, 99) awaited by sigwaitinfo, and
 * sigwait() for a SIGUSR1 the child sends after that.
 *
 * Catches: a tracer that lets a blocked signal reach its handler, loses
 * or reorders queued siginfo, or breaks the timed wait's restart or
 * timeout path (EAGAIN versus EINTR).
 */
#include "../tt.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

static volatile int handled;

static void on_any(int sig)
{
	(void)sig;
	handled++;
}

static const char *code_name(int code)
{
	switch (code) {
	case SI_USER: return "SI_USER";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TKILL: return "SI_TKILL";
	default: return "other";
	}
}

static const char *sig_name(int sig)
{
	if (sig == SIGUSR1)
		return "SIGUSR1";
	if (sig == SIGUSR2)
		return "SIGUSR2";
	if (sig >= SIGRTMIN && sig <= SIGRTMIN + 2) {
		static char buf[16];

		snprintf(buf, sizeof(buf), "SIGRTMIN+%d", sig - SIGRTMIN);
		return buf;
	}
	return "other";
}

TT_MAIN
{
	struct timespec zero = { 0, 0 }, ms2 = { 0, 2000000 };
	struct sigaction sa;
	union sigval v;
	siginfo_t si;
	sigset_t set;
	int i, sig, status;
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_any;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	for (i = 0; i < 3; i++)
		sigaddset(&set, SIGRTMIN + i);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	tt_sys(sigaction(SIGUSR2, &sa, NULL));
	for (i = 0; i < 3; i++)
		tt_sys(sigaction(SIGRTMIN + i, &sa, NULL));

	for (i = 0; i < 5; i++) {
		v.sival_int = 10 + i;
		tt_sys(sigqueue(getpid(), SIGRTMIN, v));
		if (i < 2) {
			v.sival_int = 20 + i;
			tt_sys(sigqueue(getpid(), SIGRTMIN + 1, v));
		}
	}
	tt_sys(syscall(SYS_tgkill, getpid(), gettid(), SIGUSR2));
	tt_sys(kill(getpid(), SIGUSR1));

	for (i = 0; i < 9; i++) {
		if (i % 2)
			sig = sigtimedwait(&set, &si, &zero);
		else
			sig = sigwaitinfo(&set, &si);
		tt_check(sig > 0 && si.si_signo == sig);
		tt_check(si.si_pid == getpid());
		if (si.si_code == SI_QUEUE)
			tt_say("took %s %s value %d\n", sig_name(sig),
			       code_name(si.si_code), si.si_value.sival_int);
		else
			tt_say("took %s %s\n", sig_name(sig), code_name(si.si_code));
	}
	errno = 0;
	sig = sigtimedwait(&set, &si, &zero);
	tt_say("empty, zero timeout: %d %s\n", sig,
	       errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(sig == -1 && errno == EAGAIN);
	errno = 0;
	sig = sigtimedwait(&set, &si, &ms2);
	tt_say("empty, 2 ms timeout: %d %s\n", sig,
	       errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(sig == -1 && errno == EAGAIN);

	pid = tt_sys(fork());
	if (pid == 0) {
		v.sival_int = 99;
		if (sigqueue(getppid(), SIGRTMIN + 2, v))
			_exit(2);
		if (kill(getppid(), SIGUSR1))
			_exit(3);
		_exit(0);
	}
	sig = sigwaitinfo(&set, &si);
	tt_check(sig == SIGRTMIN + 2 || sig == SIGUSR1);
	if (sig == SIGUSR1) {
		/* both arrived already: the lower number comes first */
		tt_check(sigwaitinfo(&set, &si) == SIGRTMIN + 2);
		sig = SIGUSR1;
	} else {
		tt_check(sigwait(&set, &sig) == 0);
	}
	tt_check(si.si_pid == pid && si.si_value.sival_int == 99);
	tt_say("from the child: %s value %d, then %s\n",
	       sig_name(si.si_signo), si.si_value.sival_int, sig_name(sig));
	tt_check(sig == SIGUSR1);
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_say("handlers run: %d\n", handled);
	tt_check(handled == 0);
	tt_ok();
	return 0;
}
