// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a trigger place in a library loaded after arming
 * (`on PID func libm.so.6:fmax`): dynamically linked, without libm. It
 * prints "pid N ready", blocks in a raw read of FIFO (the test arms it
 * there), says "armed", blocks in a second one (the test reads its
 * status there), then dlopen()s libm.so.6, calls its fmax
 * M times through dlsym(), says "calls done", blocks in a third raw
 * read (the test reads the log there), and prints the results.
 *
 * With a third argument "thread", a second thread does the dlopen()
 * and the dlsym() (the main thread, the traced one, waits for it in
 * pthread_join()), and the main thread makes the calls.
 *
 * usage: tp_dlopen FIFO M [thread]    exit status 0 if every result was
 *                                     right
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "raw_syscall.h"

typedef double (*fmax_fn)(double, double);

/* libm's fmax, loaded now; NULL after a message if not */
static void *load(void *unused)
{
	void *lib = dlopen("libm.so.6", RTLD_NOW);
	fmax_fn f = lib ? (fmax_fn)dlsym(lib, "fmax") : NULL;

	(void)unused;
	if (!f)
		fprintf(stderr, "tp_dlopen: %s\n", dlerror());
	return (void *)f;
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_dlopen: calls done\n";
	static const char armed[] = "tp_dlopen: armed\n";
	int fifo, m, i, right = 0, thread;
	fmax_fn fmax_of;
	pthread_t t;
	void *got;
	char c;

	thread = argc == 4 && !strcmp(argv[3], "thread");
	if (argc != 3 && !thread) {
		fprintf(stderr, "usage: tp_dlopen FIFO M [thread]\n");
		return 2;
	}
	fifo = open(argv[1], O_RDWR);
	if (fifo < 0) {
		perror(argv[1]);
		return 2;
	}
	m = atoi(argv[2]);
	printf("tp_dlopen: pid %d ready\n", getpid());
	fflush(stdout);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	raw_syscall3(SYS_write, 1, (long)armed, sizeof(armed) - 1);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	if (!thread)
		got = load(NULL);
	else if (pthread_create(&t, NULL, load, NULL) || pthread_join(t, &got))
		got = NULL;
	fmax_of = (fmax_fn)got;
	if (!fmax_of)
		return 2;
	for (i = 0; i < m; i++)
		right += fmax_of(i, 1.5) == (i > 1.5 ? i : 1.5);
	raw_syscall3(SYS_write, 1, (long)done, sizeof(done) - 1);
	raw_syscall3(SYS_read, fifo, (long)&c, 1);
	printf("tp_dlopen: fmax right %d of %d times\n", right, m);
	return right == m ? 0 : 1;
}
