// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for kprobes on a system call a traced task makes. It
 * prints "pid N ready", blocks in a raw read of FIFO (the test arms it
 * there), calls ask_ppid() M times (one raw getppid each), says "calls
 * done", blocks in a second raw read (the test reads the log and the
 * probe's hit count there), then prints the parent pid it got and exits.
 *
 * usage: tp_syscall FIFO M    exit status 0 if every call gave getppid()
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "raw_syscall.h"

__attribute__((noinline, noclone)) long ask_ppid(void)
{
	return raw_syscall3(SYS_getppid, 0, 0, 0);
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_syscall: calls done\n";
	int fifo, m, i, same = 0;
	long ppid = getppid();
	char c;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_syscall FIFO M\n");
		return 2;
	}
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0) {
		perror(argv[1]);
		return 2;
	}
	m = atoi(argv[2]);
	printf("tp_syscall: pid %d ready\n", getpid());
	fflush(stdout);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	for (i = 0; i < m; i++)
		same += ask_ppid() == ppid;
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	printf("tp_syscall: getppid %d of %d times gave %ld\n", same, m, ppid);
	return same == m ? 0 : 1;
}
