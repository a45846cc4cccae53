// SPDX-License-Identifier: GPL-2.0
/*
 * proc_clone: raw clone() children that are neither threads nor plain
 * forks. Round 1: CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND on a
 * malloc'd stack: the child writes a shared variable, installs a
 * SIGUSR2 handler (shared table) and exits 6; the parent sees both.
 * Round 2: CLONE_VM|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID: the
 * parent's tid word holds the child's pid, and the kernel clears it and
 * wakes the futex when the child exits; the parent waits on that futex.
 *
 * Catches: a tracer that assumes CLONE_VM means CLONE_THREAD (or keys
 * its state on the mm), breaks the new stack or return of clone in the
 * child, or disturbs the settid/cleartid writes and futex wake.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#define STK	(64 * 1024)

static volatile int shared;
static volatile pid_t tid_word;

static void on_usr2(int sig)
{
	(void)sig;
}

static int child1(void *arg)
{
	struct sigaction sa;

	(void)arg;
	shared = 42;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr2;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR2, &sa, NULL))
		return 7;
	return 6;
}

static int child2(void *arg)
{
	(void)arg;
	shared = 43;
	return 8;
}

TT_MAIN
{
	struct sigaction cur;
	char *stk = malloc(STK);
	int status, waits = 0;
	pid_t pid;

	tt_check(stk);
	pid = tt_sys(clone(child1, stk + STK, CLONE_VM | CLONE_FS |
			   CLONE_FILES | CLONE_SIGHAND | SIGCHLD, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_sys(sigaction(SIGUSR2, NULL, &cur));
	tt_say("round 1: child exited %d, its write seen: %s, "
	       "its handler shared: %s\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1,
	       shared == 42 ? "yes" : "no",
	       cur.sa_handler == on_usr2 ? "yes" : "no");
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 6);
	tt_check(shared == 42 && cur.sa_handler == on_usr2);

	tid_word = -1;
	pid = tt_sys(clone(child2, stk + STK, CLONE_VM | CLONE_PARENT_SETTID |
			   CLONE_CHILD_CLEARTID | SIGCHLD, NULL,
			   &tid_word, NULL, &tid_word));
	tt_check(tid_word == pid || tid_word == 0);
	tt_say("round 2: settid wrote the child's pid: %s\n",
	       tid_word == pid || tid_word == 0 ? "yes" : "no");
	while (tid_word != 0) {
		pid_t v = tid_word;

		if (v != 0)
			syscall(SYS_futex, &tid_word, FUTEX_WAIT, v, NULL,
				NULL, 0);
		waits++;
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("round 2: cleartid cleared it: yes, child exited %d, "
	       "its write seen: %s\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1,
	       shared == 43 ? "yes" : "no");
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 8);
	tt_check(shared == 43);
	tt_ok();
	return 0;
}
