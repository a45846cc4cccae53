// SPDX-License-Identifier: GPL-2.0
/*
 * thr_exec_busy: execve() from a non-leader thread while every other
 * thread is busy: main and one thread spin in loops (with a
 * sched_yield() now and then), one thread sleeps in a futex wait, one in
 * a pipe read. Once all have said they started, the fifth thread execs
 * /proc/self/exe with "--execd <pid>". de_thread() has to kill the
 * spinning and the sleeping threads and make the exec'ing thread the
 * leader. The new image checks it is alone (/proc/self/status
 * Threads: 1), has the old pid, and that the pipe it inherited is still
 * open (no O_CLOEXEC): it writes and reads back a byte. Exits 0.
 *
 * Catches: a tracer that keeps stepping (or holds a reference to)
 * threads killed by de_thread while they run, mixes up the exec'ing
 * thread's state with the leader's it takes over, or hangs the exec
 * waiting for a stepped thread that never reaches the kill.
 */
#include "../tt_thr.h"
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>

static char *self_argv0;
static int pfd[2];
static int started;
static int never;	/* futex word nobody wakes */

static void spin(void)
{
	volatile unsigned long n = 0;

	for (;;)
		if (!(++n & 31))
			sched_yield();
}

static void *spinner(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	spin();
	return NULL;
}

static void *sleeper(void *arg)
{
	(void)arg;
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	for (;;)
		syscall(SYS_futex, &never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void *reader(void *arg)
{
	char c;

	(void)arg;
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	for (;;)
		if (read(pfd[0], &c, 1) < 0 && errno != EINTR)
			break;
	return NULL;
}

static void *execer(void *arg)
{
	char pid[32], fds[32];
	char *av[] = { self_argv0, "--execd", pid, fds, NULL };

	(void)arg;
	while (__atomic_load_n(&started, __ATOMIC_SEQ_CST) < 4)
		sched_yield();
	snprintf(pid, sizeof(pid), "%d", getpid());
	snprintf(fds, sizeof(fds), "%d,%d", pfd[0], pfd[1]);
	tt_say("old image: a thread execs, 4 others busy\n");
	execv("/proc/self/exe", av);
	tt_fail("execv: %s", strerror(errno));
	return NULL;
}

static int execd(char **argv)
{
	int rfd, wfd, same, alone;
	char c = 'x', d = 0;

	same = atoi(argv[2]) == getpid();
	alone = tt_threads() == 1;
	tt_check(sscanf(argv[3], "%d,%d", &rfd, &wfd) == 2);
	tt_check(write(wfd, &c, 1) == 1 && read(rfd, &d, 1) == 1);
	tt_say("new image: same pid: %s, one thread: %s, pipe kept: %s\n",
	       same ? "yes" : "no", alone ? "yes" : "no",
	       d == 'x' ? "yes" : "no");
	tt_check(same && alone && d == 'x');
	tt_ok();
	return 0;
}

TT_MAIN
{
	pthread_t t;

	if (argc == 4 && !strcmp(argv[1], "--execd"))
		return execd(argv);
	self_argv0 = argv[0];
	tt_sys(pipe(pfd));
	tt_check(!pthread_create(&t, NULL, spinner, NULL));
	tt_check(!pthread_create(&t, NULL, sleeper, NULL));
	tt_check(!pthread_create(&t, NULL, reader, NULL));
	tt_check(!pthread_create(&t, NULL, execer, NULL));
	__atomic_fetch_add(&started, 1, __ATOMIC_SEQ_CST);
	spin();
	return 1;
}
