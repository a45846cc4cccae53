// SPDX-License-Identifier: GPL-2.0
/*
 * proc_fork100: 100 fork()s in a row, child i leaving at once with
 * _exit(i % 7); then the parent reaps them in order with waitpid() and
 * sums the exit statuses (295) and counts normal exits (100).
 *
 * Catches: a tracer that breaks fork under load: a child born with the
 * parent's step state (killed by SIGTRAP: a wrong status), state leaked
 * per fork (resources run out before 100), or fork's return value in
 * the child or the parent disturbed.
 */
#include "../tt.h"
#include <sys/wait.h>

#define N	100

TT_MAIN
{
	pid_t pids[N];
	int i, status, sum = 0, exited = 0;

	for (i = 0; i < N; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(i % 7);
		tt_check(pids[i] > 0);
	}
	for (i = 0; i < N; i++) {
		tt_sys(waitpid(pids[i], &status, 0));
		if (WIFEXITED(status)) {
			exited++;
			sum += WEXITSTATUS(status);
		}
	}
	tt_say("children: %d, exited normally: %d, status sum: %d\n", N,
	       exited, sum);
	tt_check(exited == N && sum == 295);
	tt_ok();
	return 0;
}
