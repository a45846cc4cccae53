// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a hardware breakpoint on a traced task. It opens a
 * perf hardware breakpoint (counting mode, no signal) on itself: with w,
 * a write watchpoint on its variable `target`; with x, an execute
 * breakpoint on poke(). Then it prints "pid N ready", blocks in a raw
 * read of FIFO (the test may arm it there), calls poke() K times (each
 * call writes `target` once and `other`, outside the watched range,
 * once), blocks in a second raw read (the test reads the log there),
 * and prints how many hits the breakpoint counted.
 *
 * usage: tp_watch w|x FIFO K  prints "tp_watch: count C of K";
 *                             exit status 0 if C == K, 3 if no breakpoint
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include "raw_syscall.h"

/* A cache line each: the watched doubleword holds nothing else. */
static volatile long target __attribute__((aligned(64)));
static volatile long other __attribute__((aligned(64)));

__attribute__((noinline, noclone)) void poke(long v)
{
	target = v;
	other = v;
}

static int open_bp(int exec)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.size = sizeof(attr);
	if (exec) {
		attr.bp_type = HW_BREAKPOINT_X;
		attr.bp_addr = (unsigned long)poke;
		attr.bp_len = sizeof(long);
	} else {
		attr.bp_type = HW_BREAKPOINT_W;
		attr.bp_addr = (unsigned long)&target;
		attr.bp_len = HW_BREAKPOINT_LEN_8;
	}
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_watch: writes done\n";
	unsigned long long count = 0;
	int fifo, bp, k, i;
	char c;

	if (argc != 4 || (strcmp(argv[1], "w") && strcmp(argv[1], "x"))) {
		fprintf(stderr, "usage: tp_watch w|x FIFO K\n");
		return 2;
	}
	fifo = open(argv[2], O_RDWR);
	if (fifo < 0) {
		perror(argv[2]);
		return 2;
	}
	k = atoi(argv[3]);
	bp = open_bp(argv[1][0] == 'x');
	if (bp < 0) {
		printf("tp_watch: no breakpoint: perf_event_open: %s\n",
		       strerror(errno));
		return 3;
	}
	printf("tp_watch: pid %d ready\n", getpid());
	fflush(stdout);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	for (i = 0; i < k; i++)
		poke(i);
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	if (read(bp, &count, sizeof(count)) != sizeof(count)) {
		perror("read breakpoint count");
		return 4;
	}
	printf("tp_watch: count %llu of %d\n", count, k);
	return count == (unsigned long long)k ? 0 : 1;
}
