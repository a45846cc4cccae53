// SPDX-License-Identifier: GPL-2.0
/*
 * sig_restart_blk: system calls that a stop interrupts come back through
 * restart_syscall (-ERESTART_RESTARTBLOCK). Child 1 sleeps in poll() on
 * an empty pipe with a 60 s timeout; the parent waits until
 * /proc/<child>/task/<child>/syscall shows it in poll, stops it (SIGSTOP,
 * WUNTRACED), continues it, waits until the same file shows it asleep
 * again in restart_syscall, then writes to the pipe: poll returns 1 with
 * POLLIN. Child 2 does the same in nanosleep(60 s); once it is back
 * asleep in restart_syscall a SIGUSR1 (handler, SA_RESTART) ends it with
 * EINTR and a remaining time of at most 60 s and the timer slack. The
 * children's exit codes say which.
 *
 * Catches: a tracer that breaks the restart (the ip backed up over the
 * system call instruction and the number swapped for restart_syscall),
 * e.g. by stepping from the wrong ip or restoring the old number, so the
 * call fails or runs twice. (A restart with the whole timeout is not
 * told apart: on a tick-driven clock its remaining time can be the
 * same.)
 */
#include "../tt_thr.h"
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static volatile int usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

static void stop_cont(pid_t pid, const char *name, long nr)
{
	int status, in;

	in = tt_wait_sleeping(pid, pid, nr);
	tt_say("%s: asleep in it: %d\n", name, in);
	tt_check(in);
	tt_sys(kill(pid, SIGSTOP));
	tt_sys(waitpid(pid, &status, WUNTRACED));
	tt_check(WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP);
	tt_sys(kill(pid, SIGCONT));
	tt_sys(waitpid(pid, &status, WCONTINUED));
	tt_check(WIFCONTINUED(status));
	in = tt_wait_sleeping(pid, pid, SYS_restart_syscall);
	tt_say("%s: stopped, continued, asleep in restart_syscall: %d\n",
	       name, in);
	tt_check(in);
}

static void poll_child(int rd)
{
	struct pollfd pfd = { .fd = rd, .events = POLLIN };
	long r;

	r = syscall(SYS_poll, &pfd, 1, 60000);
	_exit(r == 1 && (pfd.revents & POLLIN) ? 10 : 11);
}

/*
 * The remaining time is measured to the timer's end, which the kernel
 * put the task's timer slack after the requested one; on a kernel whose
 * clock moved on by whole ticks (jiffies), no time may have passed at
 * all: @rem is then the request plus the slack (60.000050000 seen).
 */
static void sleep_child(void)
{
	struct timespec t = { 60, 0 }, rem = { -1, -1 };
	long long left, most;
	long r;

	most = 60000000000LL + prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
	r = syscall(SYS_nanosleep, &t, &rem);
	left = rem.tv_sec * 1000000000LL + rem.tv_nsec;
	if (r == -1 && errno == EINTR && usr1 == 1 && rem.tv_sec >= 0 &&
	    rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000 && left <= most)
		_exit(20);
	_exit(r == 0 ? 21 : 22);
}

static void report(pid_t pid, const char *name, int want)
{
	int status;

	tt_sys(waitpid(pid, &status, 0));
	tt_say("%s: exit %d\n", name, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == want);
}

TT_MAIN
{
	int p[2];
	pid_t pid;

	tt_handle_plain(SIGUSR1, on_usr1, SA_RESTART);

	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0)
		poll_child(p[0]);
	stop_cont(pid, "poll", SYS_poll);
	tt_check(write(p[1], "x", 1) == 1);
	report(pid, "poll", 10);

	pid = tt_sys(fork());
	if (pid == 0)
		sleep_child();
	stop_cont(pid, "nanosleep", SYS_nanosleep);
	tt_sys(kill(pid, SIGUSR1));
	report(pid, "nanosleep", 20);
	tt_ok();
	return 0;
}
