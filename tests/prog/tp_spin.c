// SPDX-License-Identifier: GPL-2.0
/*
 * Test program that stays in user mode: spins calling spin_leaf() until
 * SECONDS have passed or SIGUSR1 arrives, then prints how many calls it
 * made and exits 0. SIGUSR1 lets a test whose pace depends on the kernel
 * (the debug kernels are many times slower) give it ample SECONDS and
 * still end it as soon as it is done with it.
 * Used to arm a task that is running on another CPU when kdb stops it,
 * and to unload the module under a task being stepped.
 *
 * usage: tp_spin SECONDS
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

__attribute__((noinline, noclone)) unsigned long spin_leaf(unsigned long x)
{
	return x * 2654435761UL + 1;
}

static volatile sig_atomic_t stop;

static void on_usr1(int sig)
{
	stop = 1;
}

int main(int argc, char **argv)
{
	unsigned long n = 0, h = 0;
	time_t end;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_spin SECONDS\n");
		return 2;
	}
	signal(SIGUSR1, on_usr1);
	end = time(NULL) + atoi(argv[1]);
	printf("tp_spin: pid %d ready\n", getpid());
	fflush(stdout);
	while (!stop && time(NULL) < end) {
		h = spin_leaf(h);
		n++;
	}
	printf("tp_spin: done %lu calls\n", n);
	return h == 0xdeadbeef;	/* keeps h live; never true in practice */
}
