// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for atomic read-modify-write sequences under tracing
 * (lwarx/stwcx. and ldarx/stdcx. loops on powerpc, lock-prefixed
 * instructions on x86). It blocks on a fifo (the test arms it there),
 * runs N rounds of fetch-add and compare-exchange on 32- and 64-bit
 * variables, checks the results, and blocks again.
 *
 * usage: tp_atomic FIFO N      prints "tp_atomic: ok N" and exits 0
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int c32;
static long c64;
static int lock;

__attribute__((noinline, noclone)) void round_trip(void)
{
	int expected = 0;

	__atomic_fetch_add(&c32, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&c64, 2, __ATOMIC_SEQ_CST);
	/* a lock acquire and release: the compare fails on purpose once */
	if (__atomic_compare_exchange_n(&lock, &expected, 1, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		expected = 5;	/* lock is 1: this one must fail */
		if (__atomic_compare_exchange_n(&lock, &expected, 7, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			abort();
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
}

int main(int argc, char **argv)
{
	int fd, n, i;
	char c;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_atomic FIFO N\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	n = atoi(argv[2]);
	printf("tp_atomic: pid %d ready\n", getpid());
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	for (i = 0; i < n; i++)
		round_trip();
	if (c32 != n || c64 != 2L * n || lock) {
		printf("tp_atomic: BAD c32 %d c64 %ld lock %d\n", c32, c64, lock);
		return 1;
	}
	printf("tp_atomic: ok %d\n", n);
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	return 0;
}
