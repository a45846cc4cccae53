// SPDX-License-Identifier: GPL-2.0
/*
 * Test program with known control flow for the VM tests. It blocks in a
 * raw read() on a fifo (the test arms it there), then calls leaf() K
 * times, clears a buffer with one `rep stosb` of REP_N bytes (x86), reports
 * with a raw write(), and blocks again (the test reads the log and turns
 * tracing off there). Raw syscalls keep libc out of
 * the traced window, so the whole trace is this file's code.
 *
 * usage: tp_loop FIFO K        exit status: sum of leaf(i) & 0x7f
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "raw_syscall.h"

/* named, not inlined: the tests find their calls in the log */
__attribute__((noinline, noclone)) long raw_read(long fd, void *buf, long n)
{
	return raw_syscall3(SYS_read, fd, (long)buf, n);
}

__attribute__((noinline, noclone)) long raw_write(long fd, const void *buf,
						  long n)
{
	return raw_syscall3(SYS_write, fd, (long)buf, n);
}

__attribute__((noinline, noclone)) int leaf(int x)
{
#if defined(__powerpc64__)
	unsigned long tb;

	/*
	 * The kernel's instruction emulator leaves timebase reads alone, so
	 * a uprobe here is stepped out of line (uprobe.exp probes both kinds).
	 */
	asm volatile("mftb %0" : "=r"(tb));
	(void)tb;
#endif
	return x * 3 + 1;
}

#define REP_N 16

/* One string instruction that the CPU steps through REP_N times. */
__attribute__((noinline, noclone)) void rep_fill(char *buf)
{
#if defined(__x86_64__)
	long n = REP_N;

	asm volatile("rep stosb"
		     : "+D"(buf), "+c"(n)
		     : "a"(0)
		     : "memory");
#else
	buf[0] = 0;	/* no string instructions: a plain store */
#endif
}

int main(int argc, char **argv)
{
	static const char msg[] = "tp_loop: calls done\n";
	int fd, k, i, acc = 0;
	char c, buf[REP_N];

	if (argc != 3) {
		fprintf(stderr, "usage: tp_loop FIFO K\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	k = atoi(argv[2]);
	printf("tp_loop: pid %d ready\n", getpid());
	fflush(stdout);

	raw_read(fd, &c, 1);
	for (i = 0; i < k; i++)
		acc += leaf(i);
	rep_fill(buf);
	raw_write(1, msg, sizeof(msg) - 1);
	raw_read(fd, &c, 1);

	printf("tp_loop: acc %d\n", acc);
	return acc & 0x7f;
}
