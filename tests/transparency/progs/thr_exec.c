// SPDX-License-Identifier: GPL-2.0
/*
 * thr_exec: execve() from a thread that is not the group leader. The
 * main thread starts a thread and waits in pthread_join() (forever: the
 * exec ends it); the thread execs /proc/self/exe with "--execd <pid>".
 * The new image, now single-threaded and with the leader's pid (the
 * kernel's de_thread() swaps the exec'ing thread into the leader), says
 * so and exits 0.
 *
 * Catches: a tracer that keeps per-thread state keyed on the old
 * thread (the exec'ing thread changes its pid), doesn't clear it at
 * exec, or fails to arm/follow the new image; a leader killed at
 * de_thread while stepped that takes the process down.
 */
#include "../tt.h"
#include <pthread.h>
#include <sys/syscall.h>

static char *self_argv0;

static void *exec_it(void *arg)
{
	char pid[32];
	char *av[] = { self_argv0, "--execd", pid, NULL };

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", getpid());
	execv("/proc/self/exe", av);
	tt_fail("execv: %s", strerror(errno));
	return NULL;
}

TT_MAIN
{
	pthread_t t;

	if (argc == 3 && !strcmp(argv[1], "--execd")) {
		int same = atoi(argv[2]) == getpid();
		int leader = syscall(SYS_gettid) == getpid();

		tt_say("new image: pid same as before: %s, tid is pid: %s\n",
		       same ? "yes" : "no", leader ? "yes" : "no");
		tt_check(same && leader);
		tt_ok();
		return 0;
	}
	self_argv0 = argv[0];
	tt_say("old image: a thread execs\n");
	tt_check(!pthread_create(&t, NULL, exec_it, NULL));
	pthread_join(t, NULL);
	tt_fail("join returned");
	return 1;
}
