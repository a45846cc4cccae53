// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_fork_events: a debugger follows the program's new tasks. The
 * child (PTRACE_TRACEME, raise(SIGSTOP)) gets the options TRACEFORK,
 * TRACEVFORK, TRACEVFORKDONE and TRACECLONE, then forks a process that
 * exits 7, vforks one that _exits 8 and creates a thread that returns;
 * it reaps and joins them and exits 0. The parent waits on everything
 * (__WALL): each event stop's PTRACE_GETEVENTMSG names a new task, which
 * must show up auto-attached with its SIGSTOP; other signal stops
 * (SIGCHLD) are passed on. Prints the event counts and how each task
 * ended, in a fixed order whatever order the stops came in.
 *
 * Catches: a tracer that follows forks and threads itself and steals or
 * reorders the debugger's event stops, leaves its step state in a new
 * task the debugger starts (a SIGTRAP in the grandchild), or breaks the
 * vfork parent's wait.
 */
#include "../tt_dbg.h"
#include <pthread.h>

enum { K_FORK, K_VFORK, K_CLONE, NK };
static const char *const kname[NK] = { "fork", "vfork", "clone" };

static void *thread(void *arg)
{
	return arg;
}

static void child(void)
{
	volatile int bad = 0;
	int status;
	pthread_t t;
	pid_t p;

	p = fork();
	if (p == 0)
		_exit(7);
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 7)
		bad++;
	p = vfork();
	if (p == 0)
		_exit(8);
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != 8)
		bad++;
	if (pthread_create(&t, NULL, thread, NULL) || pthread_join(t, NULL))
		bad++;
	_exit(bad ? 11 : 0);
}

TT_MAIN
{
	int status, events[NK] = { 0 }, vfork_done = 0, other = 0;
	int nstarted = 0, i, k, seen_started = 0;
	pid_t pid, w, newpid[NK] = { 0 }, started[8];
	int end[NK], child_end = -1, ended_code[8], nended = 0;
	pid_t ended[8];
	unsigned long msg;

	for (k = 0; k < NK; k++)
		end[k] = -1;
	pid = tt_fork_tracee();
	if (pid == 0)
		child();
	tt_sys(ptrace(PTRACE_SETOPTIONS, pid, NULL,
		      (void *)(PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			       PTRACE_O_TRACEVFORKDONE | PTRACE_O_TRACECLONE)));
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	while ((w = waitpid(-1, &status, __WALL)) > 0) {
		int ev = status >> 16, sig = WSTOPSIG(status);

		if (!WIFSTOPPED(status)) {
			int code = WIFEXITED(status) ? WEXITSTATUS(status) :
				   128 + WTERMSIG(status);

			/* matched to the events at the end: a new task's
			 * exit can come before its creator's event stop */
			if (w == pid)
				child_end = code;
			else if (nended < 8) {
				ended[nended] = w;
				ended_code[nended++] = code;
			}
			continue;
		}
		if (ev == PTRACE_EVENT_FORK || ev == PTRACE_EVENT_VFORK ||
		    ev == PTRACE_EVENT_CLONE) {
			k = ev == PTRACE_EVENT_FORK ? K_FORK :
			    ev == PTRACE_EVENT_VFORK ? K_VFORK : K_CLONE;
			tt_sys(ptrace(PTRACE_GETEVENTMSG, w, NULL, &msg));
			events[k]++;
			newpid[k] = msg;
			sig = 0;
		} else if (ev == PTRACE_EVENT_VFORK_DONE) {
			vfork_done++;
			sig = 0;
		} else if (ev) {
			other++;
			sig = 0;
		} else if (w != pid && sig == SIGSTOP && nstarted < 8) {
			/* a new task's first stop: it was attached for us */
			started[nstarted++] = w;
			sig = 0;
		} else if (sig == SIGTRAP) {
			other++;
		}
		tt_sys(ptrace(PTRACE_CONT, w, NULL, (void *)(long)sig));
	}
	tt_check(errno == ECHILD);
	for (k = 0; k < NK; k++) {
		for (i = 0; i < nstarted; i++)
			if (started[i] == newpid[k])
				seen_started++;
		for (i = 0; i < nended; i++)
			if (ended[i] == newpid[k])
				end[k] = ended_code[i];
	}
	for (k = 0; k < NK; k++)
		tt_say("%s events: %d, new task ended with %d\n", kname[k],
		       events[k], end[k]);
	tt_say("vfork-done events: %d\n", vfork_done);
	tt_say("new tasks that started with a SIGSTOP stop: %d of %d, matching the events: %d\n",
	       nstarted, NK, seen_started);
	tt_say("other stops: %d; child ended with %d\n", other, child_end);
	for (k = 0; k < NK; k++)
		tt_check(events[k] == 1);
	tt_check(end[K_FORK] == 7 && end[K_VFORK] == 8 && end[K_CLONE] == 0);
	tt_check(vfork_done == 1 && nstarted == NK && seen_started == NK);
	tt_check(!other && child_end == 0);
	tt_ok();
	return 0;
}
