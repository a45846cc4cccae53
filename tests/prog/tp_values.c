// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for values in records (`on ... args N`, system-call
 * records' number and return value, timestamps). It prints "pid N
 * ready", blocks in a raw read of FIFO (the test arms it there), then,
 * between two readings of CLOCK_MONOTONIC, calls vf() three times with
 * known arguments, reading the clock again and sleeping 20 ms (a raw
 * nanosleep) after each, and makes three raw system calls: getppid,
 * close(-1) (fails: -EBADF) and a write of a line to stdout. It says
 * "calls done",
 * blocks in a second raw read (the test reads the log there), and then
 * prints what it saw, one line each, for the test to compare with the
 * records:
 *   tp_values: call A B C = R          (hex, as the records hold them)
 *   tp_values: sys NAME NR = RET       (decimal)
 *   tp_values: clock T0 T1 T2 T3       (ns, CLOCK_MONOTONIC: before each
 *                                       call, and at the end)
 *
 * usage: tp_values FIFO    exit status 0
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "raw_syscall.h"

#define CALLS	3
#define SLEEP_NS	20000000L

/* a + b * c, called, never folded into main */
__attribute__((noinline, noclone)) long vf(long a, long b, long c)
{
	asm volatile("" : : : "memory");
	return a + b * c;
}

static long ns_of(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

int main(int argc, char **argv)
{
	static const char line[] = "tp_values: a line from write\n";
	static const char done[] = "tp_values: calls done\n";
	long a[CALLS], b[CALLS], c[CALLS], r[CALLS], ppid, bad, wrote;
	struct timespec t[CALLS + 1];
	const struct timespec nap = { 0, SLEEP_NS };
	int fifo, i;
	char ch;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_values FIFO\n");
		return 2;
	}
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0) {
		perror(argv[1]);
		return 2;
	}
	for (i = 0; i < CALLS; i++) {
		a[i] = i + 1;
		b[i] = 0x1000 + i * 0x111;
		c[i] = -(i + 2);
	}
	printf("tp_values: pid %d ready\n", getpid());
	fflush(stdout);
	raw_syscall3(SYS_read, fifo, (long)&ch, 1);
	for (i = 0; i < CALLS; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t[i]);
		r[i] = vf(a[i], b[i], c[i]);
		raw_syscall3(SYS_nanosleep, (long)&nap, 0, 0);
	}
	ppid = raw_syscall3_kret(SYS_getppid, 0, 0, 0);
	bad = raw_syscall3_kret(SYS_close, -1, 0, 0);
	wrote = raw_syscall3_kret(SYS_write, 1, (long)line, sizeof(line) - 1);
	clock_gettime(CLOCK_MONOTONIC, &t[CALLS]);
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fifo, (long)&ch, 1);
	for (i = 0; i < CALLS; i++)
		printf("tp_values: call %lx %lx %lx = %lx\n", (unsigned long)a[i],
		       (unsigned long)b[i], (unsigned long)c[i],
		       (unsigned long)r[i]);
	printf("tp_values: sys getppid %d = %ld\n", SYS_getppid, ppid);
	printf("tp_values: sys close %d = %ld\n", SYS_close, bad);
	printf("tp_values: sys write %d = %ld\n", SYS_write, wrote);
	printf("tp_values: clock");
	for (i = 0; i <= CALLS; i++)
		printf(" %ld", ns_of(&t[i]));
	printf("\n");
	return 0;
}
