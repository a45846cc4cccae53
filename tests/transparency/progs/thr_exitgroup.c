// SPDX-License-Identifier: GPL-2.0
/*
 * thr_exitgroup: a thread ends the whole process. First in a forked
 * child: 3 threads sleep in futex waits (a condvar, a raw futex, a
 * join), one in a pipe read; once all are parked (each says so), a
 * fifth thread calls the raw exit_group(42): no atexit handler runs
 * (its line would show), the child dies with status 42. Then in the
 * parent: a thread calls exit(5) while main sleeps in pthread_join and
 * another in a futex wait; exit() runs the atexit handler in that
 * thread, which prints the verdict; the process's status is 5.
 *
 * Catches: a tracer that keeps a stepped thread alive (or waits for it)
 * after exit_group killed it, reports the wrong exit code, or trips
 * when several of its threads die at once.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int parked, never, pfd[2];
static pthread_t joined;

static void park(void)
{
	__atomic_fetch_add(&parked, 1, __ATOMIC_SEQ_CST);
}

static void *cond_sleeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	park();
	for (;;)
		pthread_cond_wait(&cv, &m);
	return NULL;
}

static void *futex_sleeper(void *arg)
{
	(void)arg;
	park();
	for (;;)
		syscall(SYS_futex, &never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void *joiner(void *arg)
{
	(void)arg;
	park();
	pthread_join(joined, NULL);
	return NULL;
}

static void *reader(void *arg)
{
	char c;

	(void)arg;
	park();
	for (;;)
		if (read(pfd[0], &c, 1) < 0 && errno != EINTR)
			break;
	return NULL;
}

static int in_exit_thread;

static void at_exit(void)
{
	if (getpid() != syscall(SYS_gettid) && in_exit_thread)
		tt_say("atexit handler runs in the exiting thread\n");
	else
		tt_say("atexit handler runs elsewhere\n");
	tt_ok();
}

static void *exit_group_thread(void *arg)
{
	int want = (long)arg;

	while (__atomic_load_n(&parked, __ATOMIC_SEQ_CST) < want)
		sched_yield();
	if (want == 4) {
		tt_say("child: a thread calls exit_group(42)\n");
		syscall(SYS_exit_group, 42);
	} else {
		tt_say("parent: a thread calls exit(5)\n");
		in_exit_thread = 1;
		exit(5);
	}
	return NULL;
}

static void child(void)
{
	pthread_t t;

	tt_sys(pipe(pfd));
	tt_check(!pthread_create(&t, NULL, cond_sleeper, NULL));
	tt_check(!pthread_create(&t, NULL, futex_sleeper, NULL));
	tt_check(!pthread_create(&joined, NULL, reader, NULL));
	tt_check(!pthread_create(&t, NULL, joiner, NULL));
	tt_check(!pthread_create(&t, NULL, exit_group_thread, (void *)4L));
	pthread_join(t, NULL);
	tt_say("child: main thread still runs\n");
	_exit(1);
}

TT_MAIN
{
	pthread_t t;
	int status;
	pid_t pid;

	tt_check(!atexit(at_exit));
	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_sys(waitpid(pid, &status, 0));
	tt_say("child: exit status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 42);

	parked = 0;
	tt_check(!pthread_create(&t, NULL, futex_sleeper, NULL));
	tt_check(!pthread_create(&t, NULL, exit_group_thread, (void *)1L));
	pthread_join(t, NULL);
	tt_say("main thread still runs\n");
	return 1;
}
