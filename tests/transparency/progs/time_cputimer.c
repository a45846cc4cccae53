// SPDX-License-Identifier: GPL-2.0
/*
 * time_cputimer: POSIX timers on CPU-time clocks. A
 * CLOCK_PROCESS_CPUTIME_ID timer (SIGEV_SIGNAL, SIGRTMIN, sival 77)
 * with a 1 ms interval while main spins: the spin ends when the handler
 * has counted 5 expirations (however much or little work that took);
 * each siginfo must say SI_TIMER and 77. Then a second thread's
 * CLOCK_THREAD_CPUTIME_ID timer (from pthread_getcpuclockid), delivered
 * to that thread (SIGEV_THREAD_ID, SIGRTMIN+1): 3 expirations, each
 * handled on that thread while it spins; main, blocked in a join,
 * consumes no CPU of that clock and gets no signal.
 *
 * Catches: a tracer whose time in the kernel on the task's behalf
 * (stepping traps) breaks CPU-time accounting or timer delivery: a
 * timer that never fires while traced, a signal to the wrong thread, or
 * a lost or malformed siginfo.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>

static volatile int ticks, bad_info, thr_ticks, thr_wrong, main_ticks;
static volatile pid_t thr_tid;

static void on_proc(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	bad_info += si->si_code != SI_TIMER || si->si_value.sival_int != 77;
	ticks++;
}

static void on_thread(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (syscall(SYS_gettid) == thr_tid) {
		thr_wrong += si->si_code != SI_TIMER ||
			     si->si_value.sival_int != 88;
		thr_ticks++;
	} else {
		main_ticks++;
	}
}

static void handler(int sig, void (*fn)(int, siginfo_t *, void *))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(sig, &sa, NULL));
}

static void arm(timer_t t, long ms)
{
	struct itimerspec its = {
		{ 0, ms * 1000000 }, { 0, ms * 1000000 }
	};

	tt_sys(timer_settime(t, 0, &its, NULL));
}

static void disarm(timer_t t)
{
	struct itimerspec its;

	memset(&its, 0, sizeof(its));
	tt_sys(timer_settime(t, 0, &its, NULL));
}

static void *thread(void *arg)
{
	(void)arg;
	thr_tid = syscall(SYS_gettid);
	while (thr_ticks < 3)
		;
	return NULL;
}

TT_MAIN
{
	struct sigevent sev;
	pthread_t th;
	clockid_t cid;
	timer_t t;
	volatile unsigned long spin = 0;

	handler(SIGRTMIN, on_proc);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_SIGNAL;
	sev.sigev_signo = SIGRTMIN;
	sev.sigev_value.sival_int = 77;
	tt_sys(timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &t));
	arm(t, 1);
	while (ticks < 5)
		spin++;
	disarm(t);
	tt_say("process CPU-time timer: 5 expirations, siginfo right: %s\n",
	       bad_info ? "no" : "yes");
	tt_check(!bad_info);
	tt_sys(timer_delete(t));

	/* the thread's own CPU clock, its signal to it alone */
	handler(SIGRTMIN + 1, on_thread);
	thr_tid = 0;
	tt_check(pthread_create(&th, NULL, thread, NULL) == 0);
	while (!thr_tid)
		sched_yield();
	tt_check(pthread_getcpuclockid(th, &cid) == 0);
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev._sigev_un._tid = thr_tid;
	sev.sigev_signo = SIGRTMIN + 1;
	sev.sigev_value.sival_int = 88;
	tt_sys(timer_create(cid, &sev, &t));
	arm(t, 1);
	tt_check(pthread_join(th, NULL) == 0);
	/* its clock is gone with it: only deletion is left */
	tt_sys(timer_delete(t));
	tt_say("thread CPU-time timer: 3 expirations on the thread, siginfo "
	       "right: %s, to main: %d\n", thr_wrong ? "no" : "yes",
	       main_ticks);
	tt_check(!thr_wrong && !main_ticks);
	tt_ok();
	return 0;
}
