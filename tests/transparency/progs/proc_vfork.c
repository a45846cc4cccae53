// SPDX-License-Identifier: GPL-2.0
/*
 * proc_vfork: vfork(), whose child borrows the parent's memory and
 * stack while the parent sleeps until the child execs or exits. Round
 * 1: the child execs /proc/self/exe with "--vforked", whose image says
 * so and exits 4. Round 2: the child only _exit(5)s. The parent prints
 * each status after it resumes.
 *
 * Catches: a tracer confused by two tasks on one stack and one mm (a
 * child whose stepping state leaks into the parent, who then resumes
 * with a wrong register or step bit), or by exec in a vfork child.
 */
#include "../tt.h"
#include <sys/wait.h>

static void report(int round, int status)
{
	if (WIFEXITED(status))
		tt_say("round %d: child exited %d\n", round,
		       WEXITSTATUS(status));
	else
		tt_say("round %d: child killed by signal %d\n", round,
		       WTERMSIG(status));
}

TT_MAIN
{
	char *av[] = { argv[0], "--vforked", NULL };
	int status;
	pid_t pid;

	if (argc == 2 && !strcmp(argv[1], "--vforked")) {
		tt_say("vforked child: exec'd image runs\n");
		return 4;
	}
	pid = vfork();
	if (pid == 0) {
		execv("/proc/self/exe", av);
		_exit(99);
	}
	tt_check(pid > 0);
	tt_sys(waitpid(pid, &status, 0));
	report(1, status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 4);

	pid = vfork();
	if (pid == 0)
		_exit(5);
	tt_check(pid > 0);
	tt_sys(waitpid(pid, &status, 0));
	report(2, status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 5);
	tt_ok();
	return 0;
}
