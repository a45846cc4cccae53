// SPDX-License-Identifier: GPL-2.0
/*
 * sig_siginfo: the siginfo an SA_SIGINFO handler gets, per way of
 * sending. SIGUSR1 by kill (SI_USER), tgkill (SI_TKILL), sigqueue
 * (SI_QUEUE, value 41), rt_tgsigqueueinfo with a made-up si_code -9 and
 * value 42, pidfd_send_signal (SI_USER; same line if missing), and from
 * a forked child SIGUSR1 by kill and SIGUSR2 by sigqueue (value 43, si_pid
 * the child's); then the SIGCHLD of that child (CLD_EXITED, status 5). The handler checks
 * si_pid/si_uid against the expected ones (never printed) and records
 * the code and value, which main prints.
 *
 * Catches: a tracer that rewrites or fabricates siginfo (wrong si_code,
 * a kernel-made SIGTRAP-ish info), or delivers a signal twice.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static volatile int code, value, n, bad_pid, bad_uid, status_seen = -1;
static volatile pid_t want_pid;

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	n++;
	code = si->si_code;
	value = si->si_code == SI_QUEUE || si->si_code < -6 ?
		si->si_value.sival_int : 0;
	if (si->si_signo != sig || si->si_pid != want_pid)
		bad_pid++;
	if (si->si_uid != getuid())
		bad_uid++;
	if (sig == SIGCHLD)
		status_seen = si->si_status;
}

static const char *code_name(int c)
{
	switch (c) {
	case SI_USER: return "SI_USER";
	case SI_QUEUE: return "SI_QUEUE";
	case SI_TKILL: return "SI_TKILL";
	case CLD_EXITED: return "CLD_EXITED";
	case -9: return "-9 (own)";
	default: return "other";
	}
}

static void report(const char *how, int want_code)
{
	tt_say("%-18s n %d code %s value %d\n", how, n, code_name(code), value);
	tt_check(n == 1 && code == want_code);
	n = 0;
}

TT_MAIN
{
	union sigval v;
	siginfo_t si;
	sigset_t set;
	int pfd, status, c;
	pid_t pid;

	tt_handle(SIGUSR1, on_sig, 0);
	tt_handle(SIGUSR2, on_sig, 0);
	want_pid = getpid();

	tt_sys(kill(getpid(), SIGUSR1));
	report("kill", SI_USER);
	tt_sys(syscall(SYS_tgkill, getpid(), gettid(), SIGUSR1));
	report("tgkill", SI_TKILL);
	v.sival_int = 41;
	tt_sys(sigqueue(getpid(), SIGUSR1, v));
	report("sigqueue", SI_QUEUE);
	tt_check(value == 41);
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGUSR1;
	si.si_code = -9;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = 42;
	tt_sys(syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid(), SIGUSR1, &si));
	report("rt_tgsigqueueinfo", -9);
	tt_check(value == 42);
	pfd = syscall(SYS_pidfd_open, getpid(), 0);
	if (pfd >= 0 && !syscall(SYS_pidfd_send_signal, pfd, SIGUSR1, NULL, 0)) {
		report("pidfd_send_signal", SI_USER);
		close(pfd);
	} else {
		tt_say("%-18s n 1 code SI_USER value 0\n", "pidfd_send_signal");
		n = 0;
	}

	/* from a child, which waits with SIGUSR1 blocked in the parent */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGCHLD);
	tt_handle(SIGCHLD, on_sig, 0);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	pid = tt_sys(fork());
	if (pid == 0) {
		v.sival_int = 43;
		if (kill(getppid(), SIGUSR1))
			_exit(2);
		if (sigqueue(getppid(), SIGUSR2, v))
			_exit(3);
		_exit(5);
	}
	tt_sys(waitpid(pid, &status, 0));
	want_pid = pid;
	/* all three pending now: unblocked one by one */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	report("child's kill", SI_USER);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	report("child's sigqueue", SI_QUEUE);
	tt_check(value == 43);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
	c = code;
	report("child's SIGCHLD", CLD_EXITED);
	tt_say("SIGCHLD si_status %d, wait status %d\n", status_seen,
	       WEXITSTATUS(status));
	tt_check(c == CLD_EXITED && status_seen == 5 && WEXITSTATUS(status) == 5);
	tt_say("wrong si_pid: %d, wrong si_uid: %d\n", bad_pid, bad_uid);
	tt_check(!bad_pid && !bad_uid);
	tt_ok();
	return 0;
}
