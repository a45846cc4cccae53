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
 * and exits 0.
 *
 * usage: tp_deep FIFO DEPTH SPINS
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fd;
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

__attribute__((noinline)) unsigned long bottom(unsigned long depth,
					       unsigned long spins)
{
	unsigned long h = 0, i;

	for (i = 0; i < spins; i++)
		h = spin_leaf(h);
	raise(SIGUSR1);
	printf("tp_deep: bottom at depth %lu, handler ran %d time(s)\n",
	       depth, (int)handled);
	fflush(stdout);
	wait_byte();
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

	if (argc != 4) {
		fprintf(stderr, "usage: tp_deep FIFO DEPTH SPINS\n");
		return 2;
	}
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
