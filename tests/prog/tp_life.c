// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a traced task's life events. Each mode blocks on a
 * fifo (the test arms it there), then does one thing after the first
 * byte and reports:
 *   fork    fork(); the child returns 7 from a loop, the parent reports
 *           the child's exit status
 *   exec    execs itself as "tp_life done", which prints and exits 0
 *   signal  raises SIGUSR1; the handler says "tp_life: in handler" and
 *           reads a second byte from the fifo, so the test can turn
 *           tracing off (or unload) while the task is inside the handler;
 *           then sigreturn
 *   longjmp the same, but the handler leaves with siglongjmp() and the
 *           program then calls after_jump() (its frame is abandoned)
 * Every mode then blocks for a last byte and exits 0.
 *
 * usage: tp_life fork|exec|signal|longjmp FIFO     or: tp_life done
 */
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fd;
static volatile int handled;
static sigjmp_buf env;

/* the test's handshake: the handler has run this far (write(2) is
 * async-signal-safe; stdout was flushed before the signal)
 */
static void say_in_handler(void)
{
	static const char m[] = "tp_life: in handler\n";

	if (write(1, m, sizeof(m) - 1) != sizeof(m) - 1)
		_exit(6);
}

static void handler_jump(int sig)
{
	char c;

	say_in_handler();
	if (read(fd, &c, 1) == 1)
		siglongjmp(env, sig);
}

__attribute__((noinline)) int after_jump(int x)
{
	return x * 3;
}

static void handler(int sig)
{
	char c;

	/* blocks inside the handler until the test sends a byte */
	say_in_handler();
	if (read(fd, &c, 1) == 1)
		handled = sig;
}

static int child_work(void)
{
	volatile int i, s = 0;

	for (i = 0; i < 1000; i++)
		s += i;
	return s == 499500 ? 7 : 1;
}

int main(int argc, char **argv)
{
	char c;

	if (argc == 2 && !strcmp(argv[1], "done")) {
		printf("tp_life: exec ok\n");
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: tp_life fork|exec|signal|longjmp FIFO\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0)
		return 2;
	signal(SIGUSR1, handler);
	printf("tp_life: pid %d ready\n", getpid());
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	if (!strcmp(argv[1], "fork")) {
		int st;
		pid_t p = fork();

		if (!p)
			_exit(child_work());
		if (waitpid(p, &st, 0) != p)
			return 3;
		printf("tp_life: child %s %d\n",
		       WIFEXITED(st) ? "exited" : "killed by signal",
		       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	} else if (!strcmp(argv[1], "exec")) {
		execl("/proc/self/exe", "tp_life", "done", (char *)NULL);
		return 4;
	} else if (!strcmp(argv[1], "longjmp")) {
		int sig = sigsetjmp(env, 1);

		if (!sig) {
			signal(SIGUSR1, handler_jump);
			raise(SIGUSR1);
			return 5;	/* the handler never returns */
		}
		printf("tp_life: longjmp out of handler %d, %d\n", sig,
		       after_jump(sig));
	} else {
		raise(SIGUSR1);
		printf("tp_life: handler %s\n", handled ? "ran" : "did not run");
	}
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	return 0;
}
