// SPDX-License-Identifier: GPL-2.0
/*
 * proc_session: sessions and process groups. Part 1: the classic
 * daemon double fork: child C calls setsid() (a new session and group
 * led by itself), forks grandchild G and exits; once C is reaped G is
 * an orphan, still in C's session and group, and makes its own session
 * in turn; G reports what it saw through a pipe (checks only, no pids).
 * Part 2: three children put in one new process group (setpgid by both
 * sides, as shells do) wait in sigsuspend; kill(-pgrp, SIGUSR1) wakes
 * all three (each exits 30+i from its handler) and not the program,
 * which is outside the group; afterwards kill(-pgrp, 0) gives ESRCH.
 *
 * Catches: a tracer that loses a task on setsid/setpgid or reparenting
 * (its state tied to the parent, session or group), or that disturbs a
 * group-wide signal's delivery to several traced tasks.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int got;

static void on_usr1(int sig)
{
	(void)sig;
	got++;
}

/* G, C's child: waits until C is gone, then checks and reports */
static void grandchild(int go, int rep, pid_t c)
{
	char r[6], x;

	if (read(go, &x, 1) != 1)
		_exit(1);
	r[0] = getsid(0) == c ? 'y' : 'n';	/* still in C's session */
	r[1] = getpgrp() == c ? 'y' : 'n';	/* and C's group */
	r[2] = getppid() != c ? 'y' : 'n';	/* reparented */
	r[3] = setsid() == getpid() ? 'y' : 'n';	/* not a leader: may */
	r[4] = getsid(0) == getpid() && getpgrp() == getpid() ? 'y' : 'n';
	r[5] = setsid() == -1 && errno == EPERM ? 'y' : 'n';	/* now one */
	if (write(rep, r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

static void part1(void)
{
	int go[2], rep[2], status, i;
	pid_t c, mysid = getsid(0);
	char r[6];

	tt_sys(pipe(go));
	tt_sys(pipe(rep));
	c = tt_sys(fork());
	if (c == 0) {
		pid_t self = getpid();

		if (setsid() != self || getsid(0) != self || getpgrp() != self)
			_exit(2);
		/* a session leader can't change its group */
		if (setpgid(0, 0) != -1 || errno != EPERM)
			_exit(3);
		if (fork() == 0)
			grandchild(go[0], rep[1], self);
		_exit(setsid() == -1 && errno == EPERM ? 7 : 4);
	}
	tt_sys(waitpid(c, &status, 0));
	tt_say("part 1: C made a session and exited %d\n", WEXITSTATUS(status));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	tt_check(write(go[1], "g", 1) == 1);
	tt_check(read(rep[0], r, sizeof(r)) == sizeof(r));
	tt_say("part 1: G in C's session %c, group %c, reparented %c, "
	       "setsid %c, leads both %c, second setsid EPERM %c\n",
	       r[0], r[1], r[2], r[3], r[4], r[5]);
	for (i = 0; i < 6; i++)
		tt_check(r[i] == 'y');
	tt_check(getsid(0) == mysid);
	close(go[0]);
	close(go[1]);
	close(rep[0]);
	close(rep[1]);
}

static void part2(void)
{
	struct sigaction sa;
	sigset_t set, empty, pend;
	int ready[2], i, status;
	pid_t kid[3], pgrp = 0;
	char x;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigemptyset(&empty);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
	tt_sys(pipe(ready));
	for (i = 0; i < 3; i++) {
		kid[i] = tt_sys(fork());
		if (kid[i] == 0) {
			if (setpgid(0, pgrp) != 0 && errno != EACCES)
				_exit(2);
			if (write(ready[1], "r", 1) != 1)
				_exit(3);
			while (!got)
				sigsuspend(&empty);
			_exit(getpgrp() == (pgrp ? pgrp : getpid()) ? 30 + i
								      : 40 + i);
		}
		if (i == 0)
			pgrp = kid[0];
		tt_sys(setpgid(kid[i], pgrp));
	}
	for (i = 0; i < 3; i++)
		tt_check(read(ready[0], &x, 1) == 1);
	tt_check(getpgid(kid[2]) == pgrp && getpgid(kid[1]) == pgrp);
	tt_sys(kill(-pgrp, SIGUSR1));
	for (i = 0; i < 3; i++) {
		tt_sys(waitpid(kid[i], &status, 0));
		tt_say("part 2: group member %d woken, exited %d\n", i,
		       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 30 + i);
	}
	tt_sys(sigpending(&pend));
	tt_say("part 2: the program itself signalled: %s\n",
	       got || sigismember(&pend, SIGUSR1) ? "yes" : "no");
	tt_check(!got && !sigismember(&pend, SIGUSR1));
	tt_say("part 2: empty group: %s\n",
	       kill(-pgrp, 0) == -1 && errno == ESRCH ? "ESRCH" : "other");
	tt_check(kill(-pgrp, 0) == -1 && errno == ESRCH);
	tt_sys(sigprocmask(SIG_UNBLOCK, &set, NULL));
}

TT_MAIN
{
	part1();
	part2();
	tt_ok();
	return 0;
}
