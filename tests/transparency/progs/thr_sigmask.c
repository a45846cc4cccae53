// SPDX-License-Identifier: GPL-2.0
/*
 * thr_sigmask: per-thread signal masks and process-directed signals.
 * 4 threads wait at a barrier; in round k only thread k leaves SIGUSR1
 * unblocked (main blocks it throughout), and main sends kill(getpid(),
 * SIGUSR1): the kernel must pick thread k, the one thread not blocking
 * it, and its handler records which thread ran it. 4 rounds, each
 * waiting for the handler before the next. Then all threads block
 * SIGUSR2, main sends it to the process, and thread 2 takes it with
 * sigwaitinfo() (SI_USER, our pid); a sigtimedwait() with a zero
 * timeout then finds nothing (EAGAIN).
 *
 * Catches: a tracer that changes which thread a process-directed
 * signal goes to (e.g. a stepped thread's mask seen wrongly), delivers
 * it twice or loses it, or disturbs sigwaitinfo's dequeueing.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>

#define N	4

static __thread int me = -1;
static volatile int who = -1, runs;
static pthread_barrier_t bar;
static int waited_sig, waited_code, waited_pid_ok, timed_ret;

static void on_usr1(int sig)
{
	(void)sig;
	who = me;
	__atomic_fetch_add(&runs, 1, __ATOMIC_SEQ_CST);
}

static void *worker(void *arg)
{
	sigset_t s;
	siginfo_t si;
	struct timespec zero = { 0, 0 };
	int k;

	me = (long)arg;
	for (k = 0; k < N; k++) {
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		pthread_sigmask(k == me ? SIG_UNBLOCK : SIG_BLOCK, &s, NULL);
		pthread_barrier_wait(&bar);	/* masks set: main signals */
		pthread_barrier_wait(&bar);	/* handled: next round */
	}
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	pthread_barrier_wait(&bar);		/* all block USR2 */
	pthread_barrier_wait(&bar);		/* it was sent */
	if (me == 2) {
		sigemptyset(&s);
		sigaddset(&s, SIGUSR2);
		waited_sig = sigwaitinfo(&s, &si);
		waited_code = si.si_code;
		waited_pid_ok = si.si_pid == getpid();
		timed_ret = sigtimedwait(&s, &si, &zero) < 0 ? errno : 0;
	}
	return NULL;
}

TT_MAIN
{
	pthread_t t[N];
	sigset_t s;
	int i, k, ok = 1;

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	tt_sys(sigprocmask(SIG_BLOCK, &s, NULL));	/* inherited by all */
	me = N;
	tt_check(!pthread_barrier_init(&bar, NULL, N + 1));
	for (i = 0; i < N; i++)
		tt_check(!pthread_create(&t[i], NULL, worker, (void *)(long)i));
	for (k = 0; k < N; k++) {
		pthread_barrier_wait(&bar);
		who = -1;
		tt_sys(kill(getpid(), SIGUSR1));
		while (who == -1)
			sched_yield();
		tt_say("round %d: SIGUSR1 to the process handled by thread %d\n",
		       k, who);
		ok &= who == k;
		pthread_barrier_wait(&bar);
	}
	pthread_barrier_wait(&bar);
	tt_sys(kill(getpid(), SIGUSR2));
	pthread_barrier_wait(&bar);
	for (i = 0; i < N; i++)
		tt_check(!pthread_join(t[i], NULL));
	tt_say("handler runs %d\n", runs);
	tt_say("sigwaitinfo in thread 2: %s, SI_USER: %s, our pid: %s; then zero timeout: %s\n",
	       waited_sig == SIGUSR2 ? "SIGUSR2" : "other",
	       waited_code == SI_USER ? "yes" : "no",
	       waited_pid_ok ? "yes" : "no",
	       timed_ret == EAGAIN ? "EAGAIN" : "other");
	tt_check(ok && runs == N);
	tt_check(waited_sig == SIGUSR2 && waited_code == SI_USER);
	tt_check(waited_pid_ok && timed_ret == EAGAIN);
	tt_ok();
	return 0;
}
