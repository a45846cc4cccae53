// SPDX-License-Identifier: GPL-2.0
/*
 * thr_tgkill: threads signalling themselves and each other. 4 threads
 * each tgkill() themselves 10 times with SIGUSR1 and raise() SIGUSR2 10
 * times: each signal is handled before the call returns, by the thread
 * itself (a thread-local count goes up by exactly one each time). Each
 * then blocks SIGRTMIN+2, queues 5 to itself with rt_tgsigqueueinfo()
 * and values 0..4, and unblocks: they arrive in queue order with their
 * values. Last a storm: main pthread_sigqueue()s 15 SIGRTMIN to each
 * thread while they loop (sched_yield) until all 15 arrived; real-time
 * signals queue, so every one counts.
 *
 * Catches: a tracer that loses, doubles or misroutes signals a stepped
 * thread sends itself (delivered on the syscall's way out, often where
 * a tracer re-arms its stepping), or reorders queued RT signals.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>

#define N	4
#define SELF	10
#define QUEUED	5
#define STORM	15

static __thread volatile int usr1, usr2, rt_n, storm_n;
static __thread volatile int rt_vals[QUEUED], rt_bad;
static int ok_self[N], ok_queue[N];
static volatile int storm_got[N];
static __thread int me;
static pthread_barrier_t bar;

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig == SIGUSR1)
		usr1++;
	else if (sig == SIGUSR2)
		usr2++;
	else if (sig == SIGRTMIN + 2) {
		if (rt_n < QUEUED && si->si_code == SI_QUEUE)
			rt_vals[rt_n] = si->si_value.sival_int;
		else
			rt_bad++;
		rt_n++;
	} else if (sig == SIGRTMIN) {
		storm_n++;
		storm_got[me] = storm_n;
	}
}

static void *worker(void *arg)
{
	pid_t pid = getpid(), tid = syscall(SYS_gettid);
	sigset_t s;
	siginfo_t si;
	int i, good = 1;

	me = (long)arg;
	for (i = 0; i < SELF; i++) {
		syscall(SYS_tgkill, pid, tid, SIGUSR1);
		good &= usr1 == i + 1;
		raise(SIGUSR2);
		good &= usr2 == i + 1;
	}
	ok_self[me] = good;

	sigemptyset(&s);
	sigaddset(&s, SIGRTMIN + 2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	for (i = 0; i < QUEUED; i++) {
		memset(&si, 0, sizeof(si));
		si.si_signo = SIGRTMIN + 2;
		si.si_code = SI_QUEUE;
		si.si_pid = pid;
		si.si_uid = getuid();
		si.si_value.sival_int = i;
		if (syscall(SYS_rt_tgsigqueueinfo, pid, tid, SIGRTMIN + 2, &si))
			good = 0;
	}
	good &= rt_n == 0;
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	good &= rt_n == QUEUED && !rt_bad;
	for (i = 0; i < QUEUED; i++)
		good &= rt_vals[i] == i;
	ok_queue[me] = good;

	pthread_barrier_wait(&bar);
	while (storm_n < STORM)
		sched_yield();
	return NULL;
}

TT_MAIN
{
	pthread_t t[N];
	union sigval v;
	int i, k, ok = 1;

	tt_handle(SIGUSR1, on_sig, 0);
	tt_handle(SIGUSR2, on_sig, 0);
	tt_handle(SIGRTMIN, on_sig, 0);
	tt_handle(SIGRTMIN + 2, on_sig, 0);
	tt_check(!pthread_barrier_init(&bar, NULL, N + 1));
	for (i = 0; i < N; i++)
		tt_check(!pthread_create(&t[i], NULL, worker, (void *)(long)i));
	pthread_barrier_wait(&bar);
	v.sival_int = 0;
	for (k = 0; k < STORM; k++)
		for (i = 0; i < N; i++)
			tt_check(!pthread_sigqueue(t[i], SIGRTMIN, v));
	for (i = 0; i < N; i++)
		tt_check(!pthread_join(t[i], NULL));
	for (i = 0; i < N; i++) {
		tt_say("thread %d: self signals one by one: %s, queued RT in order: %s, storm %d of %d\n",
		       i, ok_self[i] ? "yes" : "no",
		       ok_queue[i] ? "yes" : "no", storm_got[i], STORM);
		ok &= ok_self[i] && ok_queue[i] && storm_got[i] == STORM;
	}
	tt_check(ok);
	tt_ok();
	return 0;
}
