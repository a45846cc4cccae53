// SPDX-License-Identifier: GPL-2.0
/*
 * proc_pidfd: process file descriptors. pidfd_open() on a child that
 * waits in sigsuspend: the pidfd does not poll readable; pidfd_getfd()
 * copies the child's memfd (the parent reads the child's words through
 * it); pidfd_send_signal() delivers SIGUSR1 with the default siginfo
 * (the child's handler sees SI_USER and the sender's pid) and the child
 * exits 3; the pidfd then polls readable, a signal to the zombie still
 * succeeds, waitid(P_PIDFD) reaps it, and afterwards the pidfd answers
 * ESRCH. Each missing call (ENOSYS, older kernels) gives a skip line.
 *
 * Catches: a tracer that disturbs a signal sent through a pidfd or the
 * exit notification the pidfd's poll waits for, or whose own accesses
 * to a traced task conflict with another process's pidfd_getfd.
 */
#include "../tt.h"
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open		434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal	424
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd		438
#endif
#ifndef P_PIDFD
#define P_PIDFD			3
#endif

static volatile int got, got_code, got_pid;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got = 1;
}

static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void child(int ready, pid_t parent)
{
	const char msg[] = "child's memfd";
	sigset_t empty;
	int mfd = memfd_create("tt_pidfd", 0);

	/* its fd number goes to the parent */
	if (mfd < 0 || write(mfd, msg, sizeof(msg)) != sizeof(msg) ||
	    write(ready, &mfd, sizeof(mfd)) != sizeof(mfd))
		_exit(1);
	sigemptyset(&empty);
	while (!got)
		sigsuspend(&empty);
	_exit(got_code == SI_USER && got_pid == parent ? 3 : 4);
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t set;
	siginfo_t si;
	int ready[2], pfd, cfd, mfd, r;
	char buf[32];
	pid_t pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr1;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));	/* until sigsuspend */
	tt_sys(pipe(ready));
	pid = tt_sys(fork());
	if (pid == 0)
		child(ready[1], getppid());
	tt_check(read(ready[0], &mfd, sizeof(mfd)) == sizeof(mfd));

	pfd = syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0 && errno == ENOSYS) {
		tt_say("pidfd_open: not available\n");
		tt_sys(kill(pid, SIGKILL));
		tt_sys(waitpid(pid, NULL, 0));
		tt_ok();
		return 0;
	}
	tt_check(pfd >= 0);
	tt_say("child running: pidfd readable: %s\n",
	       readable(pfd) ? "yes" : "no");
	tt_check(!readable(pfd));

	cfd = syscall(SYS_pidfd_getfd, pfd, mfd, 0);
	if (cfd < 0 && errno == ENOSYS) {
		tt_say("pidfd_getfd: not available\n");
	} else {
		tt_check(cfd >= 0);
		memset(buf, 0, sizeof(buf));
		r = pread(cfd, buf, sizeof(buf), 0);
		tt_say("pidfd_getfd: read %d bytes: \"%s\"\n", r, buf);
		tt_check(r == 14 && !strcmp(buf, "child's memfd"));
		close(cfd);
	}

	tt_sys(syscall(SYS_pidfd_send_signal, pfd, SIGUSR1, NULL, 0));
	tt_check(poll(&(struct pollfd){ .fd = pfd, .events = POLLIN }, 1, -1) == 1);
	tt_say("child exited: pidfd readable: yes\n");
	r = syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
	tt_say("signal 0 to the zombie: %s\n", r == 0 ? "ok" : strerror(errno));
	tt_check(r == 0);
	memset(&si, 0, sizeof(si));
	tt_sys(waitid(P_PIDFD, pfd, &si, WEXITED));
	tt_say("waitid(P_PIDFD): pid right %s, exit %d\n",
	       si.si_pid == pid ? "yes" : "no", si.si_status);
	tt_check(si.si_pid == pid && si.si_code == CLD_EXITED &&
		 si.si_status == 3);
	r = syscall(SYS_pidfd_send_signal, pfd, 0, NULL, 0);
	tt_say("signal 0 after reaping: %s\n",
	       r == -1 && errno == ESRCH ? "ESRCH" : "other");
	tt_check(r == -1 && errno == ESRCH);
	close(pfd);
	tt_ok();
	return 0;
}
