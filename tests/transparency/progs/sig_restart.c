// SPDX-License-Identifier: GPL-2.0
/*
 * sig_restart: a read() blocked on an empty pipe is interrupted by a
 * SIGUSR1 from a child, once with a handler without SA_RESTART (read
 * must fail with EINTR) and once with SA_RESTART (read must restart and
 * return the child's data). The child sends the signal only once it sees
 * the parent asleep in the pipe read (/proc/<ppid>/syscall: not running,
 * in read), and writes its data only after the handler has run (the
 * handler writes an ack to another pipe), so both outcomes are fixed.
 * (The parent's wchan, looked at first, named no pipe_read now and then
 * on the test kernel, whose unwinder guesses: the child waited forever.)
 *
 * Catches: a tracer that turns a restartable system call into an EINTR
 * (or the reverse), restarts it at a wrong ip (the syscall restart backs
 * the ip up by the instruction's length), or runs it twice.
 */
#include "../tt_thr.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

static int ack[2];
static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled++;
	if (write(ack[1], "a", 1) != 1)
		_exit(9);
}

static void child(int wr)
{
	pid_t parent = getppid();
	char c;

	/* bounded: a parent never seen in read fails the round, no hang */
	if (!tt_wait_sleeping(parent, parent, SYS_read))
		_exit(5);
	if (kill(parent, SIGUSR1))
		_exit(2);
	if (read(ack[0], &c, 1) != 1)
		_exit(3);
	if (write(wr, "d", 1) != 1)
		_exit(4);
	_exit(0);
}

static void round_(int flags, const char *name)
{
	int data[2], status, err, eintr = 0;
	ssize_t r;
	pid_t pid;
	char c = 0;

	tt_handle_plain(SIGUSR1, on_usr1, flags);
	tt_sys(pipe(data));
	handled = 0;

	pid = tt_sys(fork());
	if (pid == 0)
		child(data[1]);
	r = read(data[0], &c, 1);
	err = errno;
	if (r < 0) {
		eintr = err == EINTR;
		tt_say("%s: read: %s, handled %d\n", name,
		       err == EINTR ? "EINTR" : "other error", handled);
		r = read(data[0], &c, 1);
		tt_say("%s: read again: %zd '%c'\n", name, r, c);
	} else {
		tt_say("%s: read: %zd '%c', handled %d\n", name, r, c, handled);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say("%s: child status %s %d\n", name,
	       WIFEXITED(status) ? "exit" : "signal",
	       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_check(handled == 1 && r == 1 && c == 'd');
	tt_check(eintr == !(flags & SA_RESTART));
	close(data[0]);
	close(data[1]);
}

TT_MAIN
{
	tt_sys(pipe(ack));
	round_(0, "no SA_RESTART");
	round_(SA_RESTART, "SA_RESTART");
	tt_ok();
	return 0;
}
