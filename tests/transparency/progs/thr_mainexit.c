// SPDX-License-Identifier: GPL-2.0
/*
 * thr_mainexit: the main thread leaves first. Main starts 3 threads and
 * ends itself with the exit system call (what pthread_exit() ends in; its
 * unwinding would cost millions of instructions in a static binary): the
 * group leader becomes a zombie while the process runs on. Thread 0
 * joins the main thread (glibc allows it: the kernel clears main's tid
 * word at its exit, set_tid_address), then the threads run one
 * after another, each handing over to the next through a futex word,
 * and check that getpid() is still the old pid. The last one exits the
 * process with exit(7).
 *
 * Catches: a tracer that ties its per-process state to the leader and
 * frees or detaches it when the leader exits (the other threads then
 * run untraced, or are killed), mishandles the zombie leader at
 * exit_group, or loses the CLONE_CHILD_CLEARTID wake of the leader.
 */
#include "../tt.h"
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>

#define N	3

static pthread_t main_thread;
static pid_t pid;
static int turn;	/* futex word: whose turn it is */

static void wait_turn(int me)
{
	int v;

	while ((v = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) != me)
		syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void *worker(void *arg)
{
	int me = (long)arg;
	void *ret;
	int i;
	long s = 0;

	if (me == 0) {
		tt_check(!pthread_join(main_thread, &ret));
		tt_say("thread 0: joined main\n");
	}
	wait_turn(me);
	for (i = 0; i <= 10 * me; i++)
		s += i;
	tt_say("thread %d: runs after main left, same pid: %s, sum %ld\n",
	       me, getpid() == pid ? "yes" : "no", s);
	tt_check(getpid() == pid);
	if (me == N - 1) {
		tt_ok();
		exit(7);
	}
	__atomic_store_n(&turn, me + 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	return NULL;
}

TT_MAIN
{
	pthread_attr_t a;
	pthread_t t;
	long i;

	pid = getpid();
	main_thread = pthread_self();
	tt_check(!pthread_attr_init(&a));
	tt_check(!pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	for (i = 0; i < N; i++)
		tt_check(!pthread_create(&t, &a, worker, (void *)i));
	tt_say("main: exits alone\n");
	syscall(SYS_exit, 0);
	tt_fail("main still runs");
	return 1;
}
