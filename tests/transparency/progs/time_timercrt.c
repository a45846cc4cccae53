// SPDX-License-Identifier: GPL-2.0
/*
 * time_timercrt: POSIX timers (timer_create) on CLOCK_MONOTONIC, 1 ms
 * interval. One notifies the process with SIGEV_SIGNAL (SIGRTMIN,
 * waited for in sigsuspend by main); one notifies one chosen thread
 * with SIGEV_THREAD_ID (SIGRTMIN+1, waited for by that thread). Each
 * handler checks si_code SI_TIMER and its si_value, and the right
 * thread; each timer is deleted after 5 expirations. Prints that both
 * reached 5.
 *
 * Catches: timer signals lost, delivered to the wrong thread, or with
 * a damaged siginfo when the task is traced; overrun bookkeeping upset
 * by the tracer.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

#define TICKS	5

static volatile int n_proc, n_thr, bad;
static pthread_t target;

static void on_rt(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (si->si_code != SI_TIMER)
		bad++;
	if (sig == SIGRTMIN) {
		if (si->si_value.sival_int != 111)
			bad++;
		n_proc++;
	} else {
		if (si->si_value.sival_int != 222 ||
		    !pthread_equal(pthread_self(), target))
			bad++;
		n_thr++;
	}
}

static timer_t make(struct sigevent *sev)
{
	struct itimerspec its = { { 0, 1000000 }, { 0, 1000000 } };
	timer_t t;

	tt_sys(timer_create(CLOCK_MONOTONIC, sev, &t));
	tt_sys(timer_settime(t, 0, &its, NULL));
	return t;
}

static void *thr(void *arg)
{
	struct sigevent sev;
	sigset_t none;
	timer_t t;

	(void)arg;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGRTMIN + 1;
	sev.sigev_value.sival_int = 222;
	sev._sigev_un._tid = syscall(SYS_gettid);
	t = make(&sev);
	sigemptyset(&none);
	while (n_thr < TICKS)
		sigsuspend(&none);
	tt_sys(timer_delete(t));
	return NULL;
}

TT_MAIN
{
	struct sigaction sa;
	struct sigevent sev;
	sigset_t rt, old;
	timer_t t;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_rt;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGRTMIN, &sa, NULL));
	tt_sys(sigaction(SIGRTMIN + 1, &sa, NULL));
	sigemptyset(&rt);
	sigaddset(&rt, SIGRTMIN);
	sigaddset(&rt, SIGRTMIN + 1);
	/* blocked in every thread, but in sigsuspend */
	tt_sys(sigprocmask(SIG_BLOCK, &rt, &old));

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;
	sev.sigev_value.sival_int = 111;
	t = make(&sev);
	while (n_proc < TICKS)
		sigsuspend(&old);
	tt_sys(timer_delete(t));
	tt_say("SIGEV_SIGNAL: reached %d: %s\n", TICKS,
	       n_proc >= TICKS ? "yes" : "no");

	tt_check(!pthread_create(&target, NULL, thr, NULL));
	tt_check(!pthread_join(target, NULL));
	tt_say("SIGEV_THREAD_ID: reached %d: %s\n", TICKS,
	       n_thr >= TICKS ? "yes" : "no");
	tt_say("bad siginfo or thread: %d\n", bad);
	tt_check(!bad);
	tt_ok();
	return 0;
}
