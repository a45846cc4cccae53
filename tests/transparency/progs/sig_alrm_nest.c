// SPDX-License-Identifier: GPL-2.0
/*
 * sig_alrm_nest: a timer's SIGALRM that falls due inside another
 * handler. Round A (5 times): the SIGUSR1 handler arms a 1 ms one-shot
 * ITIMER_REAL and waits in sigsuspend(); SIGALRM's handler runs nested
 * in it, at depth 2. Round B (5 times): SIGUSR1's sa_mask holds SIGALRM;
 * its handler arms the timer and waits (sleeping in 1 ms steps) until
 * SIGALRM is pending, then returns: SIGALRM is delivered at that
 * sigreturn, at depth 1, before main runs on. (However slow the run,
 * SIGALRM is blocked until the point where it is expected.) The order of events and
 * the depths are checked and printed.
 *
 * Catches: a tracer that mishandles an asynchronous (timer) signal
 * arriving while a handler is being stepped: a lost or late SIGALRM,
 * a frame set up on the wrong stack, or main resuming before it.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/time.h>
#include <time.h>

static volatile int depth, alrm_depth_sum, alrms, usr1s;
static char log_[256];
static volatile int pos;

static void note(char c)
{
	if (pos < (int)sizeof(log_) - 1)
		log_[pos++] = c;
}

static void arm(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 1000 } };

	setitimer(ITIMER_REAL, &it, NULL);
}

static void on_alrm(int sig)
{
	(void)sig;
	depth++;
	alrms++;
	alrm_depth_sum += depth;
	note('a');
	depth--;
}

static void on_usr1_wait(int sig)
{
	sigset_t none;

	(void)sig;
	depth++;
	usr1s++;
	note('<');
	arm();
	sigemptyset(&none);
	sigsuspend(&none);	/* returns after on_alrm, nested */
	note('>');
	depth--;
}

static void on_usr1_pend(int sig)
{
	struct timespec ms = { 0, 1000000 };
	sigset_t pend;

	(void)sig;
	depth++;
	usr1s++;
	note('<');
	arm();
	for (;;) {
		if (sigpending(&pend) || sigismember(&pend, SIGALRM))
			break;
		nanosleep(&ms, NULL);
	}
	note('>');
	depth--;
}

static void install(int sig, void (*fn)(int), int mask_alrm)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	if (mask_alrm)
		sigaddset(&sa.sa_mask, SIGALRM);
	tt_sys(sigaction(sig, &sa, NULL));
}

TT_MAIN
{
	int i;

	install(SIGALRM, on_alrm, 0);
	/* SIGALRM blocked in it until sigsuspend: it may fall due early */
	install(SIGUSR1, on_usr1_wait, 1);
	for (i = 0; i < 5; i++) {
		tt_sys(raise(SIGUSR1));
		note('m');
	}
	log_[pos] = 0;
	tt_say("nested: %s, SIGALRM depth sum %d\n", log_, alrm_depth_sum);
	tt_check(alrms == 5 && usr1s == 5 && alrm_depth_sum == 10);
	tt_check(!strcmp(log_, "<a>m<a>m<a>m<a>m<a>m"));

	pos = 0;
	alrm_depth_sum = 0;
	install(SIGUSR1, on_usr1_pend, 1);
	for (i = 0; i < 5; i++) {
		tt_sys(raise(SIGUSR1));
		note('m');
	}
	log_[pos] = 0;
	tt_say("at sigreturn: %s, SIGALRM depth sum %d\n", log_, alrm_depth_sum);
	tt_check(alrms == 10 && usr1s == 10 && alrm_depth_sum == 5);
	tt_check(!strcmp(log_, "<>am<>am<>am<>am<>am"));
	tt_check(depth == 0);
	tt_ok();
	return 0;
}
