// SPDX-License-Identifier: GPL-2.0
/*
 * sig_thread_hdl: pthread_create() from inside a SIGUSR1 handler (whose
 * sa_mask adds SIGUSR2). The new thread starts with the handler's mask
 * (SIGUSR1 and SIGUSR2 blocked), which it checks; it then unblocks
 * SIGUSR1 and raises it at itself, so the same handler runs a second
 * time, in the thread, and only counts. The first handler joins the
 * thread and returns to main. 5 rounds; counts and masks printed.
 *
 * Catches: a tracer following threads that mishandles a clone done
 * while the parent is inside a signal frame (the child inheriting the
 * parent's pending sigreturn bookkeeping, or its step state), or that
 * loses a signal delivered to the new thread.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>

static __thread int in_thread;
static volatile int main_hdl, thread_hdl, bad_mask, bad;

static void *thread_fn(void *arg)
{
	sigset_t mask, one;

	(void)arg;
	in_thread = 1;
	if (pthread_sigmask(SIG_SETMASK, NULL, &mask))
		bad++;
	if (!sigismember(&mask, SIGUSR1) || !sigismember(&mask, SIGUSR2) ||
	    sigismember(&mask, SIGTERM))
		bad_mask++;
	sigemptyset(&one);
	sigaddset(&one, SIGUSR1);
	if (pthread_sigmask(SIG_UNBLOCK, &one, NULL))
		bad++;
	if (raise(SIGUSR1))	/* the calling thread: tgkill */
		bad++;
	return (void *)7L;
}

static void on_usr1(int sig)
{
	pthread_t t;
	void *ret;

	(void)sig;
	if (in_thread) {
		thread_hdl++;
		return;
	}
	main_hdl++;
	if (pthread_create(&t, NULL, thread_fn, NULL) ||
	    pthread_join(t, &ret) || ret != (void *)7L)
		bad++;
}

TT_MAIN
{
	struct sigaction sa;
	sigset_t mask;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	for (i = 0; i < 5; i++)
		tt_sys(raise(SIGUSR1));
	tt_sys(sigprocmask(SIG_SETMASK, NULL, &mask));
	tt_say("handler in main: %d, in the new threads: %d\n",
	       main_hdl, thread_hdl);
	tt_say("threads with a wrong start mask: %d, errors: %d\n",
	       bad_mask, bad);
	tt_say("main's mask after: SIGUSR1 %d SIGUSR2 %d\n",
	       sigismember(&mask, SIGUSR1), sigismember(&mask, SIGUSR2));
	tt_check(main_hdl == 5 && thread_hdl == 5);
	tt_check(!bad_mask && !bad);
	tt_check(!sigismember(&mask, SIGUSR1) && !sigismember(&mask, SIGUSR2));
	tt_ok();
	return 0;
}
