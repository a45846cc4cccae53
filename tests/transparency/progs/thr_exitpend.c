// SPDX-License-Identifier: GPL-2.0
/*
 * thr_exitpend: threads that exit with signals pending. Thread T blocks
 * SIGUSR1 and SIGRTMIN; main sends it one SIGUSR1 (pthread_kill) and 3
 * SIGRTMIN (pthread_sigqueue); T sees them in sigpending() and exits
 * without unblocking: they die with it, nobody's handler runs, main has
 * nothing pending. Then everybody blocks SIGUSR2 and main sends it to
 * the process: thread U sees it pending (shared), exits; it stays
 * pending for the process, and main's unblock runs its handler once.
 * Also a thread that exits with SIGUSR1 pending while it is ignored
 * (blocked signals queue even then): it goes with the thread too.
 *
 * Catches: a tracer that delivers, loses or duplicates pending signals
 * around a stepped thread's exit (its exit path flushing the thread's
 * private queue, keeping the shared one), or that leaves signal state
 * of a dead thread behind.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>

static volatile int handled_usr1, handled_rt, handled_usr2;
static pthread_barrier_t bar;
static sigset_t t_saw, u_saw;	/* what T and U saw pending */

static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		handled_usr1++;
	else if (sig == SIGUSR2)
		handled_usr2++;
	else
		handled_rt++;
}

/* waits while main sends, looks at what is pending, exits */
static void *look_fn(void *arg)
{
	pthread_barrier_wait(&bar);	/* main sends */
	pthread_barrier_wait(&bar);
	sigpending(arg);
	return NULL;
}

TT_MAIN
{
	sigset_t s, p;
	union sigval v;
	pthread_t t;
	int i, main_pend;

	tt_handle_plain(SIGUSR1, on_sig, 0);
	tt_handle_plain(SIGUSR2, on_sig, 0);
	tt_handle_plain(SIGRTMIN, on_sig, 0);
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigaddset(&s, SIGUSR2);
	sigaddset(&s, SIGRTMIN);
	tt_sys(sigprocmask(SIG_BLOCK, &s, NULL));	/* threads inherit it */
	tt_check(!pthread_barrier_init(&bar, NULL, 2));

	tt_check(!pthread_create(&t, NULL, look_fn, &t_saw));
	pthread_barrier_wait(&bar);
	tt_check(!pthread_kill(t, SIGUSR1));
	v.sival_int = 7;
	for (i = 0; i < 3; i++)
		tt_check(!pthread_sigqueue(t, SIGRTMIN, v));
	pthread_barrier_wait(&bar);
	tt_check(!pthread_join(t, NULL));
	sigpending(&p);
	main_pend = sigismember(&p, SIGUSR1) || sigismember(&p, SIGRTMIN);
	i = sigismember(&t_saw, SIGUSR1) && sigismember(&t_saw, SIGRTMIN) &&
	    !sigismember(&t_saw, SIGUSR2);
	tt_say("thread-directed: T saw them pending %s; after its exit main has them pending %s\n",
	       i ? "yes" : "no", main_pend ? "yes" : "no");
	tt_check(i && !main_pend);

	tt_check(!pthread_create(&t, NULL, look_fn, &u_saw));
	pthread_barrier_wait(&bar);
	tt_sys(kill(getpid(), SIGUSR2));
	pthread_barrier_wait(&bar);
	tt_check(!pthread_join(t, NULL));
	sigpending(&p);
	main_pend = sigismember(&p, SIGUSR2);
	i = sigismember(&u_saw, SIGUSR2) && !sigismember(&u_saw, SIGUSR1);
	tt_say("process-directed: U saw it pending %s; after its exit still pending %s\n",
	       i ? "yes" : "no", main_pend ? "yes" : "no");
	tt_check(i && main_pend);

	/* blocked signals are queued even when ignored */
	signal(SIGUSR1, SIG_IGN);
	tt_check(!pthread_create(&t, NULL, look_fn, &t_saw));
	pthread_barrier_wait(&bar);
	tt_check(!pthread_kill(t, SIGUSR1));
	pthread_barrier_wait(&bar);
	tt_check(!pthread_join(t, NULL));
	tt_handle_plain(SIGUSR1, on_sig, 0);
	sigpending(&p);
	main_pend = sigismember(&p, SIGUSR1);
	i = sigismember(&t_saw, SIGUSR1);
	tt_say("ignored and blocked: T saw it pending %s; after its exit main has it pending %s\n",
	       i ? "yes" : "no", main_pend ? "yes" : "no");
	tt_check(i && !main_pend);

	tt_sys(sigprocmask(SIG_UNBLOCK, &s, NULL));
	tt_say("after unblocking: USR1 handled %d, RTMIN %d, USR2 %d\n",
	       handled_usr1, handled_rt, handled_usr2);
	tt_check(handled_usr1 == 0 && handled_rt == 0 && handled_usr2 == 1);
	tt_ok();
	return 0;
}
