// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for atomic read-modify-write sequences under tracing
 * (lwarx/stwcx. and ldarx/stdcx. loops on powerpc, lock-prefixed
 * instructions on x86). It blocks on a fifo (the test arms it there),
 * runs N rounds of fetch-add and compare-exchange on 32- and 64-bit
 * variables, checks the results, and blocks again. On powerpc each round
 * also takes a lock and does a fetch-add with the loaded value held in a
 * non-volatile register (r29, r30), as glibc's lll_lock does: an
 * interrupt returns to user mode without reloading r14-r31 from the
 * register frame unless told to, so an emulated window that wrote one
 * must say so.
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

#if defined(__powerpc64__)
static int nv_lock;
static long nv_sum;

/*
 * Returns the lock word seen by the lwarx (0: taken). r29 starts at -1,
 * so a load into it that is lost shows.
 */
__attribute__((noinline, noclone)) int nv_trylock(int *p)
{
	int old;

	asm volatile("li	29,-1\n"
		     "nop\n"
		     "1:	lwarx	29,0,%1\n"
		     "cmpwi	29,0\n"
		     "bne-	2f\n"
		     "stwcx.	%2,0,%1\n"
		     "bne-	1b\n"
		     "2:	isync\n"
		     "mr	%0,29\n"
		     : "=r"(old)
		     : "r"(p), "r"(1)
		     : "r29", "cr0", "memory");
	return old;
}

/* Returns the value before the add, and the sum is kept in r30. */
__attribute__((noinline, noclone)) long nv_fetch_add(long *p, long v)
{
	long old, sum;

	asm volatile("li	30,-1\n"
		     "1:	ldarx	30,0,%2\n"
		     "mr	%0,30\n"
		     "add	30,30,%3\n"
		     "stdcx.	30,0,%2\n"
		     "bne-	1b\n"
		     "mr	%1,30\n"
		     : "=&r"(old), "=&r"(sum)
		     : "r"(p), "r"(v)
		     : "r30", "cr0", "memory");
	return sum - v == old ? old : -2;
}

/* Nonzero when a round went wrong; printed as the "nv" result. */
static int nv_round(int i)
{
	int seen = nv_trylock(&nv_lock);

	if (seen)
		return 1000 + seen;
	__atomic_store_n(&nv_lock, 0, __ATOMIC_RELEASE);
	if (nv_fetch_add(&nv_sum, 3) != 3L * i)
		return 2;
	return 0;
}
#else
static int nv_round(int i)
{
	(void)i;
	return 0;
}
#endif

int main(int argc, char **argv)
{
	int fd, n, i, nv = 0;
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
	for (i = 0; i < n && !nv; i++) {
		round_trip();
		nv = nv_round(i);
	}
	if (c32 != n || c64 != 2L * n || lock || nv) {
		printf("tp_atomic: BAD c32 %d c64 %ld lock %d nv %d\n", c32, c64,
		       lock, nv);
		return 1;
	}
	printf("tp_atomic: ok %d\n", n);
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	return 0;
}
