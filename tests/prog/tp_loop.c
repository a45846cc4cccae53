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

#if defined(__x86_64__)
__attribute__((noinline, noclone)) long raw_read(long fd, void *buf, long n)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"(0L), "D"(fd), "S"(buf), "d"(n)
		     : "rcx", "r11", "memory");
	return ret;
}

__attribute__((noinline, noclone)) long raw_write(long fd, const void *buf,
						  long n)
{
	long ret;

	asm volatile("syscall"
		     : "=a"(ret)
		     : "0"(1L), "D"(fd), "S"(buf), "d"(n)
		     : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__powerpc64__)
static inline __attribute__((always_inline)) long raw_sc(long nr, long a,
							 long b, long c)
{
	register long r0 asm("r0") = nr;
	register long r3 asm("r3") = a;
	register long r4 asm("r4") = b;
	register long r5 asm("r5") = c;

	asm volatile("sc"
		     : "+r"(r0), "+r"(r3), "+r"(r4), "+r"(r5)
		     :
		     : "r6", "r7", "r8", "r9", "r10", "r11", "r12", "cr0",
		       "ctr", "memory");
	return r3;
}

__attribute__((noinline, noclone)) long raw_read(long fd, void *buf, long n)
{
	return raw_sc(3, fd, (long)buf, n);	/* __NR_read */
}

__attribute__((noinline, noclone)) long raw_write(long fd, const void *buf,
						  long n)
{
	return raw_sc(4, fd, (long)buf, n);	/* __NR_write */
}
#else
#error "tp_loop: no raw syscall for this architecture"
#endif

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
