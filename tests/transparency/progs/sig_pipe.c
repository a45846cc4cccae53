// SPDX-License-Identifier: GPL-2.0
/*
 * sig_pipe: SIGPIPE, the signal a system call raises on its caller.
 * Writing to a pipe whose read end is closed: with a handler, 5 writes
 * each run it once (si_code SI_USER) and fail with EPIPE; a socketpair
 * send() with MSG_NOSIGNAL fails with EPIPE and no signal; with SIG_IGN
 * a write fails with EPIPE quietly; with SIG_DFL a forked child dies of
 * signal 13 at its write (the parent prints it).
 *
 * Catches: a tracer that loses a signal generated inside a system call
 * (delivered on the way out, while the task is being stepped), delivers
 * it twice, or changes the call's return value.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>

static volatile int pipes, bad_code;

static void on_pipe(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)ctx;
	pipes++;
	if (si->si_code != SI_USER)
		bad_code++;
}

static int broken_pipe(void)
{
	int p[2];

	tt_sys(pipe(p));
	close(p[0]);
	return p[1];
}

TT_MAIN
{
	int fd, sv[2], i, epipe = 0, status;
	ssize_t r;
	pid_t pid;

	tt_handle(SIGPIPE, on_pipe, 0);
	fd = broken_pipe();
	for (i = 0; i < 5; i++) {
		r = write(fd, "x", 1);
		if (r == -1 && errno == EPIPE)
			epipe++;
	}
	tt_say("handler: %d SIGPIPE, %d EPIPE, wrong si_code %d\n", pipes,
	       epipe, bad_code);
	tt_check(pipes == 5 && epipe == 5 && !bad_code);

	tt_sys(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	close(sv[1]);
	r = send(sv[0], "x", 1, MSG_NOSIGNAL);
	tt_say("MSG_NOSIGNAL: %zd %s, SIGPIPE %d\n", r,
	       errno == EPIPE ? "EPIPE" : "other", pipes);
	tt_check(r == -1 && errno == EPIPE && pipes == 5);
	r = send(sv[0], "x", 1, 0);
	tt_say("send: %zd %s, SIGPIPE %d\n", r,
	       errno == EPIPE ? "EPIPE" : "other", pipes);
	tt_check(r == -1 && errno == EPIPE && pipes == 6);
	close(sv[0]);

	signal(SIGPIPE, SIG_IGN);
	r = write(fd, "x", 1);
	tt_say("SIG_IGN: %zd %s, SIGPIPE %d\n", r,
	       errno == EPIPE ? "EPIPE" : "other", pipes);
	tt_check(r == -1 && errno == EPIPE && pipes == 6);

	signal(SIGPIPE, SIG_DFL);
	pid = tt_sys(fork());
	if (pid == 0) {
		if (write(fd, "x", 1) < 0)
			_exit(2);
		_exit(3);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("SIG_DFL child:", status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE);
	close(fd);
	tt_ok();
	return 0;
}
