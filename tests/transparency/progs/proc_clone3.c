// SPDX-License-Identifier: GPL-2.0
/*
 * proc_clone3: the clone3() system call (raw, fork-like: no new stack).
 * Round 1: CLONE_PIDFD: the pidfd polls readable only once the child
 * has exited (it waits for a pipe byte first), and waitid(P_PIDFD)
 * reaps it. Round 2: CLONE_CLEAR_SIGHAND: the parent's SIGUSR1 handler
 * is SIG_DFL in the child, an ignored SIGUSR2 stays ignored. Round 3: an
 * exit signal other than SIGCHLD (SIGUSR2, blocked): only __WCLONE
 * waits find the child, and SIGUSR2 is pending after it. Then two
 * invalid calls fail with EINVAL. A kernel without clone3 (ENOSYS)
 * gives one skip line.
 *
 * Catches: a tracer whose fork/clone handling only knows clone/fork/
 * vfork, mis-reads clone3's struct (flags, exit signal), or leaves the
 * child's first return (0 from clone3) or its exit notification wrong.
 */
#include "../tt.h"
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef SYS_clone3
#define SYS_clone3	435
#endif
#ifndef CLONE_CLEAR_SIGHAND
#define CLONE_CLEAR_SIGHAND	0x100000000ULL
#endif
#ifndef P_PIDFD
#define P_PIDFD		3
#endif

static void on_usr1(int sig)
{
	(void)sig;
}

static long clone3_call(uint64_t flags, int *pidfd, int exit_signal,
			size_t size)
{
	struct clone_args ca;

	memset(&ca, 0, sizeof(ca));
	ca.flags = flags;
	ca.pidfd = (uintptr_t)pidfd;
	ca.exit_signal = exit_signal;
	return syscall(SYS_clone3, &ca, size);
}

static void round_pidfd(void)
{
	struct pollfd pfd;
	siginfo_t si;
	int p[2], fd = -1;
	long pid;
	char c;

	tt_sys(pipe(p));
	pid = tt_sys(clone3_call(CLONE_PIDFD, &fd, SIGCHLD,
				 sizeof(struct clone_args)));
	if (pid == 0) {
		close(p[1]);	/* EOF, not a hang, if the parent dies */
		if (read(p[0], &c, 1) != 1)
			_exit(30);
		_exit(31);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	tt_say("round 1: pidfd readable while the child waits: %s\n",
	       poll(&pfd, 1, 0) == 0 ? "no" : "yes");
	tt_check(write(p[1], "g", 1) == 1);
	tt_check(poll(&pfd, 1, -1) == 1 && (pfd.revents & POLLIN));
	memset(&si, 0, sizeof(si));
	tt_sys(waitid(P_PIDFD, fd, &si, WEXITED));
	tt_say("round 1: pidfd readable after exit: yes, waitid(P_PIDFD): "
	       "pid right %s, code %s, status %d\n",
	       si.si_pid == pid ? "yes" : "no",
	       si.si_code == CLD_EXITED ? "CLD_EXITED" : "other", si.si_status);
	tt_check(si.si_pid == pid && si.si_code == CLD_EXITED &&
		 si.si_status == 31);
	close(fd);
	close(p[0]);
	close(p[1]);
}

static void round_clear(void)
{
	struct sigaction sa;
	int status;
	long pid;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	signal(SIGUSR2, SIG_IGN);
	pid = clone3_call(CLONE_CLEAR_SIGHAND, NULL, SIGCHLD,
			  sizeof(struct clone_args));
	if (pid == -1 && errno == EINVAL) {
		tt_say("round 2: CLONE_CLEAR_SIGHAND not supported\n");
		return;
	}
	tt_check(pid >= 0);
	if (pid == 0) {
		struct sigaction c1, c2;

		if (sigaction(SIGUSR1, NULL, &c1) || sigaction(SIGUSR2, NULL, &c2))
			_exit(40);
		_exit((c1.sa_handler == SIG_DFL) + 2 * (c2.sa_handler == SIG_IGN));
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("round 2: handler cleared: %s, ignored kept: %s\n",
	       WEXITSTATUS(status) & 1 ? "yes" : "no",
	       WEXITSTATUS(status) & 2 ? "yes" : "no");
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	signal(SIGUSR2, SIG_DFL);
}

static void round_exitsig(void)
{
	sigset_t set, pend;
	int status, nohang;
	long pid;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	pid = tt_sys(clone3_call(0, NULL, SIGUSR2, sizeof(struct clone_args)));
	if (pid == 0)
		_exit(50);
	/* not a SIGCHLD child: a plain wait does not see it */
	nohang = waitpid(pid, &status, 0) == -1 && errno == ECHILD;
	tt_sys(waitpid(pid, &status, __WCLONE));
	tt_sys(sigpending(&pend));
	tt_say("round 3: plain waitpid ECHILD: %s, __WCLONE status %d, "
	       "SIGUSR2 pending: %s\n", nohang ? "yes" : "no",
	       WEXITSTATUS(status), sigismember(&pend, SIGUSR2) ? "yes" : "no");
	tt_check(nohang && WIFEXITED(status) && WEXITSTATUS(status) == 50);
	tt_check(sigismember(&pend, SIGUSR2));
	signal(SIGUSR2, SIG_IGN);	/* drop the pending one */
	signal(SIGUSR2, SIG_DFL);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
}

TT_MAIN
{
	long r;

	/* a size smaller than the first version's is invalid */
	r = clone3_call(0, NULL, SIGCHLD, 8);
	if (r == -1 && errno == ENOSYS) {
		tt_say("clone3: not available\n");
		tt_ok();
		return 0;
	}
	tt_check(r != 0);
	tt_say("size 8: %s\n", r == -1 && errno == EINVAL ? "EINVAL" : "other");
	tt_check(r == -1 && errno == EINVAL);
	/* CLONE_THREAD without CLONE_VM|CLONE_SIGHAND is invalid */
	r = clone3_call(CLONE_THREAD, NULL, 0, sizeof(struct clone_args));
	tt_check(r != 0);
	tt_say("CLONE_THREAD alone: %s\n",
	       r == -1 && errno == EINVAL ? "EINVAL" : "other");
	tt_check(r == -1 && errno == EINVAL);

	round_pidfd();
	round_clear();
	round_exitsig();
	tt_ok();
	return 0;
}
