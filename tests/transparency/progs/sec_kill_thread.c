// SPDX-License-Identifier: GPL-2.0
/*
 * sec_kill_thread: seccomp kills one thread, not its process. A second
 * thread installs, for itself only (no TSYNC), a filter whose answer to
 * getppid is SECCOMP_RET_KILL_THREAD, and calls getppid: that thread
 * ends there (as by SIGSYS, without a signal to the process); the main
 * thread's pthread_join returns (the kernel clears the thread's tid),
 * the code after the call never ran, and the main thread, unfiltered,
 * still gets its real parent from getppid. Then a third thread, created
 * by the main one, runs and returns normally.
 *
 * Catches: a tracer (threads mode) that mishandles a thread dying in
 * the middle of a stepped system call: the death spread to the process
 * or turned into a signal, the thread's slot left behind, the other
 * threads' stepping disturbed.
 */
#include "../tt_sec.h"
#include <pthread.h>

static volatile int installed, after;

static void *doomed(void *arg)
{
	struct sock_filter f[] = {
		TT_SEC_LD(nr),
		TT_SEC_IS_RET(SYS_getppid, SECCOMP_RET_KILL_THREAD),
		TT_SEC_RET(SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return arg;
	installed = 1;
	syscall(SYS_getppid);
	after = 1;
	return arg;
}

static void *plain(void *arg)
{
	return (void *)((long)arg + 1);
}

TT_MAIN
{
	pid_t ppid = getppid();
	pthread_t t;
	void *ret;

	if (tt_sec_lacks(SECCOMP_RET_KILL_THREAD))
		return 0;
	tt_check(pthread_create(&t, NULL, doomed, NULL) == 0);
	tt_check(pthread_join(t, NULL) == 0);
	tt_say("filter installed in the thread: %s\n", installed ? "yes" : "no");
	tt_say("thread ran past its getppid: %s\n", after ? "yes" : "no");
	tt_say("main thread's getppid is its parent: %s\n",
	       syscall(SYS_getppid) == ppid ? "yes" : "no");
	tt_check(pthread_create(&t, NULL, plain, (void *)41L) == 0);
	tt_check(pthread_join(t, &ret) == 0);
	tt_say("a new thread still runs and returns: %ld\n", (long)ret);
	tt_check(installed && !after && syscall(SYS_getppid) == ppid);
	tt_check((long)ret == 42);
	tt_ok();
	return 0;
}
