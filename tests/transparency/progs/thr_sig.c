// SPDX-License-Identifier: GPL-2.0
/*
 * thr_sig: signals aimed at threads. With SIGUSR1 blocked, 4 threads
 * start and wait in sigsuspend(); main pthread_kill()s them one at a
 * time and joins each before the next. The handler records, in the
 * slot of the thread the signal was sent to, which thread (by a
 * thread-local index) ran it and its si_code (SI_TKILL). Main then
 * signals itself. Prints who got what.
 *
 * Catches: thread-directed signals delivered to the wrong thread or
 * lost under tracing, and per-thread signal state (mask, sigsuspend's
 * temporary mask) mixed up between threads.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>

#define N	4

static __thread int my_index = -1;
static volatile int got_by[N + 1], tkill[N + 1];

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	if (my_index >= 0 && my_index <= N) {
		got_by[my_index]++;
		if (si->si_code == SI_TKILL)
			tkill[my_index]++;
	}
}

static void *waiter(void *arg)
{
	sigset_t none;

	my_index = (long)arg;
	sigemptyset(&none);
	while (!got_by[my_index])
		sigsuspend(&none);
	return NULL;
}

TT_MAIN
{
	pthread_t t[N];
	sigset_t usr1;
	int i, ok = 1;

	tt_handle(SIGUSR1, on_usr1, 0);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	tt_sys(sigprocmask(SIG_BLOCK, &usr1, NULL));

	my_index = N;	/* main */
	for (i = 0; i < N; i++)
		tt_check(!pthread_create(&t[i], NULL, waiter, (void *)(long)i));
	for (i = 0; i < N; i++) {
		tt_check(!pthread_kill(t[i], SIGUSR1));
		tt_check(!pthread_join(t[i], NULL));
		tt_say("thread %d: handled %d, by tkill %d\n", i, got_by[i],
		       tkill[i]);
		ok &= got_by[i] == 1 && tkill[i] == 1;
	}
	tt_check(!pthread_kill(pthread_self(), SIGUSR1));
	tt_say("main before unblock: handled %d\n", got_by[N]);
	tt_sys(sigprocmask(SIG_UNBLOCK, &usr1, NULL));
	tt_say("main after unblock: handled %d\n", got_by[N]);
	tt_check(ok && got_by[N] == 1);
	tt_ok();
	return 0;
}
