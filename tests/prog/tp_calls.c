// SPDX-License-Identifier: GPL-2.0
/*
 * Test program with a known call shape, built as a dynamically linked
 * PIE (the VM tests of symbols and call trees): it blocks in libc's
 * read() on a fifo (the test arms it there), then runs one pass of
 *   fact(N)                      recursion, N + 1 frames deep
 *   ops[i](acc, i) for i < 3     calls through function pointers
 *   classify(i) for i < 5        a switch
 *   strlen, memcpy, qsort(cmp)   calls into libc, and back (cmp)
 *   clock_gettime                through libc into the vDSO
 * writes "tp_calls: pass done" with libc's write(), and blocks again in
 * read() on the fifo through chain_a -> chain_b -> chain_c (a known
 * chain of frames), the registers of that system call loaded with the
 * arguments it printed at the start ("tp_calls: chain read fd F buf B
 * count 1"). A second byte on the fifo ends it.
 *
 * usage: tp_calls FIFO N      prints "tp_calls: pid P ready" first;
 *                             exit status: the pass's sum & 0x7f
 * (N = 5: sum 663 = 120 -> 122 -> 119 -> 476, + 165 from the switch,
 * + 22 from libc; exit status 23)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))

static volatile long sink;

NOINLINE long fact(long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

NOINLINE long op_add(long a, long b)
{
	return a + b;
}

NOINLINE long op_sub(long a, long b)
{
	return a - b;
}

NOINLINE long op_mul(long a, long b)
{
	return a * b;
}

static long (*const volatile ops[3])(long, long) = { op_add, op_sub, op_mul };

NOINLINE long classify(long i)
{
	switch (i) {
	case 0: return 11;
	case 1: return 23;
	case 2: return 37;
	case 3: return 41;
	case 4: return 53;
	default: return 0;
	}
}

NOINLINE int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

NOINLINE long use_libc(void)
{
	static const char src[] = "itrace-calls";
	int v[6] = { 5, 3, 9, 1, 7, 2 };
	char dst[sizeof(src)];
	struct timespec ts;

	memcpy(dst, src, sizeof(src));
	qsort(v, 6, sizeof(v[0]), cmp);
	/* adds nothing: tv_nsec is below 10^9 */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)strlen(dst) + v[0] + v[5] + ts.tv_nsec / 1000000000;
}

NOINLINE long pass(long n)
{
	long acc = fact(n), i;

	for (i = 0; i < 3; i++)
		acc = ops[i](acc, i + 2);
	for (i = 0; i < 5; i++)
		acc += classify(i);
	return acc + use_libc();
}

NOINLINE long chain_c(int fd, char *c)
{
	return read(fd, c, 1);
}

NOINLINE long chain_b(int fd, char *c)
{
	return chain_c(fd, c) + 1;
}

NOINLINE long chain_a(int fd, char *c)
{
	return chain_b(fd, c) + 1;
}

int main(int argc, char **argv)
{
	static const char done[] = "tp_calls: pass done\n";
	long n, sum;
	char c;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: tp_calls FIFO N\n");
		return 2;
	}
	n = strtol(argv[2], NULL, 0);
	/* O_RDWR: the fifo always has a writer, so reads block, never EOF */
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	/* and what chain_c's read() will hold in registers while it blocks */
	printf("tp_calls: chain read fd %d buf %p count 1\n", fd, (void *)&c);
	printf("tp_calls: pid %d ready\n", (int)getpid());
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 3;
	sum = pass(n);
	if (write(1, done, sizeof(done) - 1) < 0)
		return 4;
	sink = chain_a(fd, &c);
	printf("tp_calls: sum %ld\n", sum);
	return (int)(sum & 0x7f);
}
