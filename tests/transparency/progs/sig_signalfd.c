// SPDX-License-Identifier: GPL-2.0
/*
 * sig_signalfd: blocked signals read from a signalfd. Round 1: the
 * program raises SIGUSR1 and queues SIGRTMIN (value 7) and reads them
 * one by one (signo, code, value). Round 2: a child queues SIGRTMIN
 * with values 0..4 and exits; after reaping it the parent polls the fd
 * and reads all five (in order) plus, after widening the fd's mask to
 * SIGCHLD, the child's SIGCHLD with its exit status 6. A non-blocking
 * read of the empty fd gives EAGAIN; no handler ever runs.
 *
 * Catches: a tracer that delivers a blocked signal to a handler or
 * drops it at its own stops, corrupts queued siginfo, or disturbs the
 * wakeup of a poll on a signalfd.
 */
#include "../tt.h"
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/wait.h>

static volatile int handled;

static void on_any(int sig)
{
	(void)sig;
	handled++;
}

TT_MAIN
{
	struct signalfd_siginfo ssi[8];
	struct pollfd pfd;
	union sigval v;
	sigset_t set;
	int fd, i, n, status;
	pid_t pid;
	ssize_t r;

	tt_handle_plain(SIGUSR1, on_any, 0);
	tt_handle_plain(SIGRTMIN, on_any, 0);
	tt_handle_plain(SIGCHLD, on_any, 0);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGRTMIN);
	sigaddset(&set, SIGCHLD);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	sigdelset(&set, SIGCHLD);
	fd = tt_sys(signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC));

	tt_sys(raise(SIGUSR1));
	v.sival_int = 7;
	tt_sys(sigqueue(getpid(), SIGRTMIN, v));
	for (i = 0; i < 2; i++) {
		r = read(fd, ssi, sizeof(ssi[0]));
		tt_check(r == sizeof(ssi[0]));
		tt_say("read: %s code %d value %d\n",
		       ssi[0].ssi_signo == (unsigned)SIGUSR1 ? "SIGUSR1" :
		       ssi[0].ssi_signo == (unsigned)SIGRTMIN ? "SIGRTMIN" : "other",
		       ssi[0].ssi_code, ssi[0].ssi_code == SI_QUEUE ?
		       ssi[0].ssi_int : 0);
	}
	r = read(fd, ssi, sizeof(ssi));
	tt_say("empty: %zd %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");
	tt_check(r == -1 && errno == EAGAIN);

	pid = tt_sys(fork());
	if (pid == 0) {
		for (i = 0; i < 5; i++) {
			v.sival_int = i;
			if (sigqueue(getppid(), SIGRTMIN, v))
				_exit(2);
		}
		_exit(6);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 6);
	pfd.fd = fd;
	pfd.events = POLLIN;
	tt_check(poll(&pfd, 1, -1) == 1 && (pfd.revents & POLLIN));
	r = read(fd, ssi, sizeof(ssi));
	n = r / sizeof(ssi[0]);
	tt_say("from the child: %d at once:", n);
	for (i = 0; i < n; i++) {
		tt_check(ssi[i].ssi_signo == (unsigned)SIGRTMIN);
		tt_check(ssi[i].ssi_pid == (unsigned)pid);
		tt_say(" %d", ssi[i].ssi_int);
	}
	tt_say("\n");
	tt_check(n == 5 && ssi[4].ssi_int == 4);

	sigaddset(&set, SIGCHLD);
	tt_check(signalfd(fd, &set, 0) == fd);
	r = read(fd, ssi, sizeof(ssi));
	tt_check(r == sizeof(ssi[0]));
	tt_say("SIGCHLD: %d, code CLD_EXITED %d, status %d\n",
	       ssi[0].ssi_signo == SIGCHLD, ssi[0].ssi_code == CLD_EXITED,
	       ssi[0].ssi_status);
	tt_check(ssi[0].ssi_signo == SIGCHLD && ssi[0].ssi_status == 6);
	tt_say("handlers run: %d\n", handled);
	tt_check(handled == 0);
	close(fd);
	tt_ok();
	return 0;
}
