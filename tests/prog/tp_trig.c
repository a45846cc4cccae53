// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for function triggers (`itrace on <pid> func target`):
 * target() is called from several depths among other work, recursively
 * and with different arguments. It blocks in a raw read() on a fifo (the
 * test arms it there), runs one pass of
 *   work(3)                          other work: helper() three times
 *   target(2)                        from main, recursing to target(0)
 *   outer(5) -> middle(5) -> target(5)   from three calls deep
 *   work(2)
 *   target(0)                        a call that does not recurse
 *   fp(1)                            target through a function pointer
 * writes "tp_trig: calls done" with a raw write(), and blocks again; a
 * second byte on the fifo ends it. Raw system calls keep libc out.
 *
 * usage: tp_trig FIFO     prints "tp_trig: pid P ready" first; exit
 *                         status 42 (target(n) is (n + 1)(n + 2) / 2)
 *        tp_trig FIFO deep   after the first byte calls deep(3), which
 *                         stops twice inside its own recursion, each
 *                         time saying so and reading a byte: in deep(0),
 *                         four calls deep, then in deep(2) once deep(1)
 *                         returned, two deep; then once more after
 *                         it returned; exit status 7
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "raw_syscall.h"

#define NOINLINE __attribute__((noinline, noclone))

static volatile long sink;

NOINLINE long helper(long x)
{
	sink += x;
	return x + 1;
}

NOINLINE long target(long n)
{
	long r = helper(n);

	if (n > 0)
		r += target(n - 1);
	return r;
}

NOINLINE long work(long n)
{
	long i, r = 0;

	for (i = 0; i < n; i++)
		r += helper(i);
	return r;
}

NOINLINE long middle(long n)
{
	return target(n) + 1;
}

NOINLINE long outer(long n)
{
	return middle(n) + 1;
}

long (*volatile fp)(long) = target;

static void say_and_wait(const char *msg, long len, int fd)
{
	char c;

	raw_syscall3(SYS_write, 1, (long)msg, len);
	raw_syscall3(SYS_read, fd, (long)&c, 1);
}

NOINLINE long deep(long n, int fd)
{
	static const char in0[] = "tp_trig: in deep(0)\n";
	static const char in2[] = "tp_trig: back in deep(2)\n";
	long r = n;

	if (n == 0) {
		say_and_wait(in0, sizeof(in0) - 1, fd);
		return 1;
	}
	r += deep(n - 1, fd);
	if (n == 2)
		say_and_wait(in2, sizeof(in2) - 1, fd);
	return r;
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_trig: calls done\n";
	long sum = 0;
	char c;
	int fd;

	if (argc != 2 && (argc != 3 || strcmp(argv[2], "deep")))
		return 2;
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 3;
	printf("tp_trig: pid %d ready\n", getpid());
	fflush(stdout);
	raw_syscall3(SYS_read, fd, (long)&c, 1);
	if (argc == 3) {
		static const char back[] = "tp_trig: deep returned\n";

		sum = deep(3, fd);
		say_and_wait(back, sizeof(back) - 1, fd);
		return sum;
	}
	sum += work(3);
	sum += target(2);
	sum += outer(5);
	sum += work(2);
	sum += target(0);
	sum += fp(1);
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fd, (long)&c, 1);
	return sum & 0x7f;
}
