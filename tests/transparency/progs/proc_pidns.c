// SPDX-License-Identifier: GPL-2.0
/*
 * proc_pidns: unshare(CLONE_NEWPID) then fork(): the child is the new
 * namespace's init, sees itself as pid 1 and its parent as 0 (outside
 * its namespace), and exits 0; the parent prints what it saw. Without
 * the privilege (EPERM) the program prints a fixed skip line.
 *
 * Catches: a tracer that keys its tasks on the pid as seen from the
 * task's own namespace (two tasks "pid 1"), or reports/arms by a wrong
 * pid, so the child loses or gains tracing state.
 */
#include "../tt.h"
#include <sched.h>
#include <sys/wait.h>

TT_MAIN
{
	int p[2], status;
	pid_t pid, seen[2];

	if (unshare(CLONE_NEWPID)) {
		tt_check(errno == EPERM);
		tt_say("skip: unshare(CLONE_NEWPID): EPERM\n");
		tt_ok();
		return 0;
	}
	tt_sys(pipe(p));
	pid = tt_sys(fork());
	if (pid == 0) {
		seen[0] = getpid();
		seen[1] = getppid();
		_exit(write(p[1], seen, sizeof(seen)) == sizeof(seen) ? 0 : 2);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_check(read(p[0], seen, sizeof(seen)) == sizeof(seen));
	tt_say("child: pid %d, ppid %d, exited %d\n", seen[0], seen[1],
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_say("parent: child's pid outside is another: %s\n",
	       pid != 1 ? "yes" : "no");
	tt_check(seen[0] == 1 && seen[1] == 0);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
