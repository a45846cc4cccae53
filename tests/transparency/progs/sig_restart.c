// SPDX-License-Identifier: GPL-2.0
/*
 * sig_restart: a read() blocked on an empty pipe is interrupted by a
 * SIGUSR1 from a child, once with a handler without SA_RESTART (read
 * must fail with EINTR) and once with SA_RESTART (read must restart and
 * return the child's data). The child sends the signal only once it sees
 * the parent asleep in the pipe read (/proc/<ppid>/stat state S, and
 * /proc/<ppid>/wchan naming pipe_read where the kernel shows it), and
 * writes its data only after the handler has run (the handler writes an
 * ack to another pipe), so both outcomes are fixed.
 *
 * Catches: a tracer that turns a restartable system call into an EINTR
 * (or the reverse), restarts it at a wrong ip (the syscall restart backs
 * the ip up by the instruction's length), or runs it twice.
 */
#include "../tt.h"
#include <fcntl.h>
#include <signal.h>
#include <time.h>
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

static int read_file(const char *path, char *buf, int size)
{
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* is @pid asleep in a pipe read? */
static int in_pipe_read(pid_t pid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || p[2] != 'S')
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/wchan", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0 || !strcmp(buf, "0"))
		return 1;		/* no wchan shown: state only */
	return strstr(buf, "pipe_read") != NULL;
}

static void child(int wr)
{
	struct timespec ms = { 0, 1000000 };
	pid_t parent = getppid();
	char c;
	int i;

	/* the polls are only to wait: the outcome doesn't depend on them */
	for (i = 0; !in_pipe_read(parent); i++)
		if (i > 20)
			nanosleep(&ms, NULL);
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
