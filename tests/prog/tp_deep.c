// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for the live shadow stack (tests/vm/shadow.exp): blocks
 * reading FIFO (armed meanwhile), then calls deep_start(), which
 * recurses DEPTH times through nest() down to bottom(). There it spins
 * SPINS times through spin_leaf() (enough records to overwrite the
 * branch log's rings), takes a SIGUSR1 whose handler calls
 * handler_leaf() and returns through the signal frame (a return to no
 * call site), prints its line and blocks reading FIFO again, DEPTH + 3
 * calls deep below main. A second byte unwinds it all; it prints "done"
 * and exits 0. With "fork", bottom() also forks before it blocks: the
 * child blocks in wait_child() (reading a pipe, in the frames it shares
 * with its parent) and leaves with _exit(0) when its parent, done,
 * closes the pipe; the bottom line names the child.
 *
 * usage: tp_deep FIFO DEPTH SPINS [fork]
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int fd, forking;
static volatile sig_atomic_t handled;

__attribute__((noinline)) unsigned long spin_leaf(unsigned long x)
{
	return x * 2654435761UL + 1;
}

__attribute__((noinline)) void handler_leaf(void)
{
	handled++;
}

static void on_usr1(int sig)
{
	handler_leaf();
}

/* one byte from the fifo: the test's go-ahead */
__attribute__((noinline)) void wait_byte(void)
{
	char c;

	if (read(fd, &c, 1) != 1)
		exit(3);
}

/* the child's: blocks until its parent closes the pipe's other end */
__attribute__((noinline)) void wait_child(int rfd)
{
	char c;

	if (read(rfd, &c, 1) != 0)
		_exit(3);
}

__attribute__((noinline)) unsigned long bottom(unsigned long depth,
					       unsigned long spins)
{
	unsigned long h = 0, i;
	int p[2] = { -1, -1 };
	pid_t child = 0;

	for (i = 0; i < spins; i++)
		h = spin_leaf(h);
	raise(SIGUSR1);
	if (forking) {
		if (pipe(p))
			exit(3);
		child = fork();
		if (child < 0)
			exit(3);
		if (!child) {
			close(p[1]);
			wait_child(p[0]);
			_exit(0);
		}
		close(p[0]);
	}
	printf("tp_deep: bottom at depth %lu, handler ran %d time(s), child %d\n",
	       depth, (int)handled, (int)child);
	fflush(stdout);
	wait_byte();
	if (forking) {
		close(p[1]);
		if (waitpid(child, NULL, 0) != child)
			exit(3);
	}
	return h == 0xdeadbeef;	/* keeps h live; never true in practice */
}

__attribute__((noinline)) unsigned long nest(unsigned long n,
					     unsigned long depth,
					     unsigned long spins)
{
	/* used after the call: a call, never a jump */
	if (n)
		return nest(n - 1, depth, spins) + 1;
	return bottom(depth, spins) + 1;
}

__attribute__((noinline)) unsigned long deep_start(unsigned long depth,
						   unsigned long spins)
{
	return nest(depth, depth, spins) + 1;
}

int main(int argc, char **argv)
{
	unsigned long r;

	if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "fork"))) {
		fprintf(stderr, "usage: tp_deep FIFO DEPTH SPINS [fork]\n");
		return 2;
	}
	forking = argc == 5;
	signal(SIGUSR1, on_usr1);
	/* read-write: an open for reading alone waits for a writer */
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 3;
	printf("tp_deep: pid %d ready\n", getpid());
	fflush(stdout);
	wait_byte();
	r = deep_start(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0));
	printf("tp_deep: done %lu\n", r);
	return 0;
}
