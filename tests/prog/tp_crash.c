// SPDX-License-Identifier: GPL-2.0
/*
 * Test program that dies of a crash, for the flight recorder's tests
 * (tests/vm/freeze.exp): it prints "tp_crash: pid P ready", blocks in
 * read() on FIFO (the test arms it there), and at the first byte calls
 * crash_a() -> crash_b() -> crash_c(), which
 *   segv    stores to address 0x10: SIGSEGV, fault address 0x10, at
 *           crash_c's first store (the test finds it with objdump)
 *   abort   calls abort(): SIGABRT, raised through libc
 * Each of crash_a and crash_b does some work of its own first (a loop
 * of calls to leaf(), LOOPS of them), so that the history before the
 * crash is longer than a small `keep`. It never returns: its exit status
 * is the signal's (the shell says 139 or 134).
 *
 * usage: tp_crash FIFO segv|abort LOOPS
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile long sink;
static long loops;

NOINLINE long leaf(long i)
{
	return i + 1;
}

NOINLINE void crash_c(volatile int *p, int how)
{
	if (how)
		abort();
	*p = 1;
}

NOINLINE void crash_b(volatile int *p, int how)
{
	long i;

	for (i = 0; i < loops; i++)
		sink += leaf(i);
	crash_c(p, how);
	sink++;
}

NOINLINE void crash_a(volatile int *p, int how)
{
	long i;

	for (i = 0; i < loops; i++)
		sink += leaf(i);
	crash_b(p, how);
	sink++;
}

int main(int argc, char **argv)
{
	char c;
	int fifo;

	if (argc != 4 || (strcmp(argv[2], "segv") && strcmp(argv[2], "abort")))
		return 2;
	loops = strtol(argv[3], NULL, 0);
	/* O_RDWR: the fifo always has a writer, so reads block, never EOF */
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0)
		return 2;
	printf("tp_crash: pid %d ready\n", (int)getpid());
	fflush(stdout);
	if (read(fifo, &c, 1) != 1)
		return 2;
	crash_a((volatile int *)0x10, !strcmp(argv[2], "abort"));
	return 3;
}
