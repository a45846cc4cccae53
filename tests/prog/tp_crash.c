// SPDX-License-Identifier: GPL-2.0
/*
 * Test program that dies of a crash, for the flight recorder's tests
 * (tests/vm/freeze.exp): it prints "tp_crash: pid P ready", blocks in
 * read() on FIFO (the test arms it there), and at the first byte calls
 * crash_a() -> crash_b() -> crash_c(), which
 *   segv    stores to address 0x10: SIGSEGV, fault address 0x10, at
 *           crash_c's first store (the test finds it with objdump)
 *   abort   calls abort(): SIGABRT, raised through libc
 *   oops    writes to FILE (tests/kmod/itrace_oops.c's debugfs file,
 *           whose write oopses) through kernel_oops(): the kernel dies
 *           in that write() system call
 * Each of crash_a and crash_b does some work of its own first (a loop
 * of calls to leaf(), LOOPS of them), so that the history before the
 * crash is longer than a small `keep`. It never returns: its exit status
 * is the signal's (the shell says 139 or 134).
 *
 * usage: tp_crash FIFO segv|abort|oops LOOPS [FILE]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

enum how { SEGV, ABORT, OOPS };

static volatile long sink;
static long loops;
static const char *oops_file;

NOINLINE long leaf(long i)
{
	return i + 1;
}

NOINLINE void kernel_oops(void)
{
	int fd = open(oops_file, O_WRONLY);

	if (fd >= 0 && write(fd, "x", 1) == 1)
		sink++;
}

NOINLINE void crash_c(volatile int *p, int how)
{
	if (how == ABORT)
		abort();
	if (how == OOPS)
		kernel_oops();
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
	static const char *const hows[] = { "segv", "abort", "oops" };
	int fifo, how;
	char c;

	for (how = 0; argc >= 4 && how < 3; how++)
		if (!strcmp(argv[2], hows[how]))
			break;
	if (argc < 4 || how == 3 || argc != 4 + (how == OOPS))
		return 2;
	oops_file = argv[4];
	loops = strtol(argv[3], NULL, 0);
	/* O_RDWR: the fifo always has a writer, so reads block, never EOF */
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0)
		return 2;
	printf("tp_crash: pid %d ready\n", (int)getpid());
	fflush(stdout);
	if (read(fifo, &c, 1) != 1)
		return 2;
	crash_a((volatile int *)0x10, how);
	return 3;
}
