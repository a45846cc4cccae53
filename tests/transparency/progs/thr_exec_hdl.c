// SPDX-License-Identifier: GPL-2.0
/*
 * thr_exec_hdl: execve() from inside a signal handler of one thread
 * while another thread sits inside a handler of its own. Thread A gets
 * SIGUSR1 from main; its handler says so through a pipe and blocks in a
 * read that never ends. Thread B then raises SIGUSR2 at itself; that
 * handler, running on B's sigaltstack, execs /proc/self/exe. The new
 * image checks what exec keeps and resets: one thread, SIGUSR2 still
 * blocked (the handler's mask is the thread's mask at exec), SIGUSR1 not
 * (that was A's), both handlers back to SIG_DFL, no altstack, and
 * SIGTERM still ignored (SIG_IGN survives exec). Exits 0.
 *
 * Catches: a tracer that keeps signal-frame state of its own across an
 * exec from a handler (the frame is never returned from), or that tears
 * down the other thread's in-handler state wrongly at de_thread.
 */
#include "../tt_thr.h"
#include <pthread.h>
#include <signal.h>

static char *self_argv0;
static int ready[2], never[2];
static char *alt;

static void on_usr1(int sig)
{
	char c;

	(void)sig;
	if (write(ready[1], "a", 1) != 1)
		_exit(10);
	while (read(never[0], &c, 1) != 0)
		;
	_exit(11);
}

static void on_usr2(int sig)
{
	char *av[] = { self_argv0, "--execd", NULL };

	(void)sig;
	tt_say("thread B: execs from its SIGUSR2 handler\n");
	execv("/proc/self/exe", av);
	_exit(12);
}

static void *thread_a(void *arg)
{
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	for (;;)
		sigsuspend(&none);
	return NULL;
}

static void *thread_b(void *arg)
{
	stack_t ss;
	char c;

	(void)arg;
	if (read(ready[0], &c, 1) != 1)
		_exit(13);
	ss.ss_sp = alt;
	ss.ss_size = 128 * 1024;
	ss.ss_flags = 0;
	tt_sys(sigaltstack(&ss, NULL));
	raise(SIGUSR2);
	_exit(14);
	return NULL;
}

static const char *disp(int sig)
{
	struct sigaction sa;

	if (sigaction(sig, NULL, &sa))
		return "error";
	return sa.sa_handler == SIG_DFL ? "default" :
	       sa.sa_handler == SIG_IGN ? "ignored" : "a handler";
}

static int execd(void)
{
	sigset_t cur;
	stack_t ss;
	int n = tt_threads(), u1, u2, ok;

	tt_sys(sigprocmask(SIG_BLOCK, NULL, &cur));
	tt_sys(sigaltstack(NULL, &ss));
	u1 = sigismember(&cur, SIGUSR1);
	u2 = sigismember(&cur, SIGUSR2);
	tt_say("new image: threads %d; SIGUSR2 blocked %s, SIGUSR1 blocked %s\n",
	       n, u2 ? "yes" : "no", u1 ? "yes" : "no");
	tt_say("new image: SIGUSR1 %s, SIGUSR2 %s, SIGTERM %s; altstack %s\n",
	       disp(SIGUSR1), disp(SIGUSR2), disp(SIGTERM),
	       ss.ss_flags & SS_DISABLE ? "none" : "set");
	ok = n == 1 && u2 && !u1 && !strcmp(disp(SIGUSR1), "default") &&
	     !strcmp(disp(SIGUSR2), "default") &&
	     !strcmp(disp(SIGTERM), "ignored") && (ss.ss_flags & SS_DISABLE);
	tt_check(ok);
	tt_ok();
	return 0;
}

TT_MAIN
{
	pthread_t a, b;

	if (argc == 2 && !strcmp(argv[1], "--execd"))
		return execd();
	self_argv0 = argv[0];
	alt = malloc(128 * 1024);
	tt_check(alt);
	tt_sys(pipe(ready));
	tt_sys(pipe(never));
	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_handle_plain(SIGUSR2, on_usr2, SA_ONSTACK);
	signal(SIGTERM, SIG_IGN);
	tt_check(!pthread_create(&a, NULL, thread_a, NULL));
	tt_check(!pthread_create(&b, NULL, thread_b, NULL));
	tt_say("main: SIGUSR1 to thread A\n");
	tt_check(!pthread_kill(a, SIGUSR1));
	pthread_join(b, NULL);
	tt_fail("join returned");
	return 1;
}
