// SPDX-License-Identifier: GPL-2.0
/*
 * proc_sigdeath: children that die of signals, one way each, reaped and
 * decoded in order. Sent by the parent once the child is ready: SIGTERM,
 * SIGKILL, SIGINT, SIGHUP, SIGUSR2, SIGRTMIN+3. Raised by the child
 * itself: abort() (SIGABRT), SIGQUIT, SIGTRAP, SIGSEGV (raised, not a
 * fault). Made by the kernel: SIGPIPE (write to a pipe without reader),
 * SIGXFSZ (write past RLIMIT_FSIZE), SIGALRM (a 1 ms ITIMER_REAL while
 * paused). Core dumps are off (RLIMIT_CORE 0, not dumpable), so the core
 * flag is 0 whatever the signal's default action.
 *
 * Catches: a tracer that swallows or converts a traced task's fatal
 * signal (notably a raised SIGTRAP it may take for its own trap), lets a
 * task survive one, or turns the end into another signal or an exit.
 */
#include "../tt.h"
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>

enum how { SENT, RAISED, PIPE, FSIZE, ALARM };

static const struct {
	int sig;
	enum how how;
	const char *name;
} deaths[] = {
	{ SIGTERM, SENT, "SIGTERM sent" },
	{ SIGKILL, SENT, "SIGKILL sent" },
	{ SIGINT, SENT, "SIGINT sent" },
	{ SIGHUP, SENT, "SIGHUP sent" },
	{ SIGUSR2, SENT, "SIGUSR2 sent" },
	{ 0, SENT, "SIGRTMIN+3 sent" },
	{ SIGABRT, RAISED, "abort()" },
	{ SIGQUIT, RAISED, "SIGQUIT raised" },
	{ SIGTRAP, RAISED, "SIGTRAP raised" },
	{ SIGSEGV, RAISED, "SIGSEGV raised" },
	{ SIGPIPE, PIPE, "SIGPIPE by a write" },
	{ SIGXFSZ, FSIZE, "SIGXFSZ by a write" },
	{ SIGALRM, ALARM, "SIGALRM by a timer" },
};

static char file[64];

static void die(int i, int ready)
{
	struct rlimit rl = { 0, 0 };
	int sig = deaths[i].sig, p[2], fd;
	char buf[64];

	memset(buf, 'x', sizeof(buf));
	setrlimit(RLIMIT_CORE, &rl);
	prctl(PR_SET_DUMPABLE, 0);
	switch (deaths[i].how) {
	case SENT:
		if (write(ready, "r", 1) != 1)
			_exit(2);
		for (;;)
			pause();
	case RAISED:
		if (sig == SIGABRT)
			abort();
		raise(sig);
		_exit(3);
	case PIPE:
		if (pipe(p))
			_exit(4);
		close(p[0]);
		if (write(p[1], "x", 1) < 0)
			_exit(5);
		_exit(6);
	case FSIZE:
		fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		rl.rlim_cur = rl.rlim_max = 16;
		if (fd < 0 || setrlimit(RLIMIT_FSIZE, &rl))
			_exit(7);
		/* 16 bytes fit, the next write is past the limit */
		if (write(fd, buf, sizeof(buf)) != 16)
			_exit(8);
		if (write(fd, buf, sizeof(buf)) < 0)
			_exit(9);
		_exit(10);
	case ALARM: {
		struct itimerval it = { { 0, 0 }, { 0, 1000 } };

		if (setitimer(ITIMER_REAL, &it, NULL))
			_exit(11);
		for (;;)
			pause();
	}
	}
	_exit(12);
}

TT_MAIN
{
	int ready[2], i, status, want;
	unsigned int n = sizeof(deaths) / sizeof(deaths[0]);
	pid_t pid;
	char c;

	snprintf(file, sizeof(file), "/tmp/tt_sigdeath.%d", getpid());
	tt_sys(pipe(ready));
	for (i = 0; i < (int)n; i++) {
		want = deaths[i].sig ? deaths[i].sig : SIGRTMIN + 3;
		pid = tt_sys(fork());
		if (pid == 0)
			die(i, ready[1]);
		if (deaths[i].how == SENT) {
			tt_check(read(ready[0], &c, 1) == 1);
			tt_sys(kill(pid, want));
		}
		tt_sys(waitpid(pid, &status, 0));
		if (WIFSIGNALED(status))
			tt_say("%s: killed by signal %d%s, core %d\n",
			       deaths[i].name, WTERMSIG(status),
			       WTERMSIG(status) == want ? " (right)" : "",
			       WCOREDUMP(status) ? 1 : 0);
		else
			tt_say("%s: exited %d\n", deaths[i].name,
			       WEXITSTATUS(status));
		tt_check(WIFSIGNALED(status) && WTERMSIG(status) == want);
		tt_check(!WCOREDUMP(status));
	}
	unlink(file);
	tt_ok();
	return 0;
}
