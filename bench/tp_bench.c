// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark workload: a loop written in assembly, so every compiler
 * gives the same instructions, with a known number of instructions and
 * branches per pass; a system-call workload for the untraced-cost
 * check; and a loop of vDSO clock reads, for what a slow stepper does to
 * them.
 *
 * tp_bench loop N [IN OUT]
 *	Runs N passes of bench_loop(). With the fifos IN and OUT it first
 *	prints "pid P ready" and blocks in a raw read of IN (the benchmark
 *	arms the task there); after the loop it writes "looped" to OUT
 *	(the benchmark waits for that in a blocking read, so it takes no
 *	cpu from the loop) and blocks in a second raw read of IN (the
 *	benchmark reads `itrace status` there). Without the fifos it marks
 *	the same span for a ptrace stepper instead (tp_ptrace marked): a
 *	raw kill of itself with SIGURG just before and just after, which
 *	nobody sees when no tracer is there (SIGURG is ignored by default).
 *	The traced span is the loop, the two clock reads around it and the
 *	raw system calls, nothing of libc's. Then prints "tp_bench: loop
 *	N: T ns, sum S" and the per-pass counts. Exit status 0 if the sum
 *	is right.
 * tp_bench clock M [IN OUT]
 *	The same, but the span holds M calls of libc's clock_gettime()
 *	(the vDSO's read of the timekeeper, retried when a timer tick
 *	updated it meanwhile) instead of the loop. Prints "tp_bench: clock
 *	M: T ns". Traced, its steps per call say how often a read was
 *	retried (make bench with BENCH_VDSO, docs/BENCH.md).
 * tp_bench sys M
 *	M passes of: a pipe round trip with a child (two wake-ups), a
 *	signal to itself, and every 64th pass a fork that exits at once.
 *	Every module hook (fork, exec, exit, signal and wake-up
 *	tracepoints) fires; the loop takes no trap. Prints "tp_bench:
 *	sys M: T ns".
 *
 * Every timestamp is a raw clock_gettime system call, never libc's, which
 * reads the vDSO: one step for a tracer, where a vDSO read is some 60
 * steps (x86_64) of which 26 start again whenever a timer tick lands
 * among them. Stepped by ptrace on a busy TCG host, 150 to 250
 * microseconds a step, those 26 steps outlast a 4 ms tick: the two reads
 * of a run took from a hundred to hundreds of thousands of steps, a
 * different number every run (docs/BENCH.md, "Counting the same span").
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include "raw_syscall.h"

/*
 * One pass of bench_loop, in execution order (x86_64 / ppc64le):
 *   call leaf / bl leaf           call
 *   leaf: 1 insn, ret / blr       insn, ret
 *   add                           insn
 *   cmp                           insn
 *   jne / bne (never taken)       jcc-nt
 *   jmp / b                       jmp
 *   dec / nop                     insn
 *   jnz / bdnz (taken but last)   jcc
 * 9 instructions; 4 taken transfers and one branch not taken; 1 call.
 * bench/table.py checks every traced run's counts against these.
 */
#define PASS_INSNS	9
#define PASS_TAKEN	4
#define PASS_BRANCHES	5	/* taken or not: powerpc's MSR_BE traps */
#define PASS_CALLS	1

unsigned long bench_loop(unsigned long n);

#if defined(__x86_64__)
asm(".text\n"
    ".globl bench_loop\n"
    ".type bench_loop, @function\n"
    "bench_loop:\n"
    "	mov %rdi, %rcx\n"
    "	xor %eax, %eax\n"
    "	xor %edx, %edx\n"
    "	xor %esi, %esi\n"
    "	test %rcx, %rcx\n"
    "	jz 9f\n"
    "1:	call bench_leaf\n"
    "	add %rax, %rdx\n"
    "	cmp $0, %rsi\n"
    "	jne 9f\n"
    "	jmp 2f\n"
    "2:	dec %rcx\n"
    "	jnz 1b\n"
    "9:	mov %rdx, %rax\n"
    "	ret\n"
    ".size bench_loop, .-bench_loop\n"
    ".type bench_leaf, @function\n"
    "bench_leaf:\n"
    "	lea 1(%rax), %rax\n"
    "	ret\n"
    ".size bench_leaf, .-bench_leaf\n");
#elif defined(__powerpc64__)
/*
 * ELFv2: r3 = n. LR is saved in r9 around the loop (bl clobbers it); the
 * counter lives in CTR (bdnz decrements it: the "dec" slot is a nop).
 */
asm(".text\n"
    ".globl bench_loop\n"
    ".type bench_loop, @function\n"
    "bench_loop:\n"
    "	mflr 9\n"
    "	li 4, 0\n"
    "	li 5, 0\n"
    "	li 6, 0\n"
    "	cmpdi 3, 0\n"
    "	beq 9f\n"
    "	mtctr 3\n"
    "	li 3, 0\n"
    "1:	bl bench_leaf\n"
    "	add 5, 5, 3\n"
    "	cmpdi 6, 0\n"
    "	bne 9f\n"
    "	b 2f\n"
    "2:	nop\n"
    "	bdnz 1b\n"
    "9:	mtlr 9\n"
    "	mr 3, 5\n"
    "	blr\n"
    ".size bench_loop, .-bench_loop\n"
    ".type bench_leaf, @function\n"
    "bench_leaf:\n"
    "	addi 3, 3, 1\n"
    "	blr\n"
    ".size bench_leaf, .-bench_leaf\n");
#else
#error "tp_bench: no workload loop for this architecture"
#endif

/* A raw system call (see the top): one step, the same in every mode. */
static unsigned long long now_ns(void)
{
	struct timespec t;

	raw_syscall3(SYS_clock_gettime, CLOCK_MONOTONIC, (long)&t, 0);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/* M reads of the clock through libc, that is the vDSO */
static unsigned long clock_calls(unsigned long m)
{
	struct timespec t;
	unsigned long i, ok = 0;

	for (i = 0; i < m; i++)
		ok += !clock_gettime(CLOCK_MONOTONIC, &t);
	return ok;
}

/*
 * The traced span: @body(@n) between two timestamps, opened and closed
 * by the fifos (itrace) or by the SIGURG marks (ptrace), see the top.
 * The result of @body in *@res, the span's ns in *@ns; 0 or exit status.
 */
static int span(unsigned long (*body)(unsigned long), unsigned long n,
		const char *in, const char *out, unsigned long *res,
		unsigned long long *ns)
{
	static char looped[] = "looped\n";
	unsigned long long t0, t1;
	int fd = -1, fd_out = -1;
	long pid = getpid();
	char c;

	if (in) {
		/* O_RDWR: neither open waits for the other end */
		fd = open(in, O_RDWR);
		fd_out = open(out, O_RDWR);
		if (fd < 0 || fd_out < 0) {
			perror("fifo");
			return 2;
		}
		printf("tp_bench: pid %ld ready\n", pid);
		fflush(stdout);
		raw_syscall3(SYS_read, fd, (long)&c, 1);
	} else {
		raw_syscall3(SYS_kill, pid, SIGURG, 0);
	}
	t0 = now_ns();
	*res = body(n);
	t1 = now_ns();
	if (in) {
		raw_syscall3(SYS_write, fd_out, (long)looped,
			     sizeof(looped) - 1);
		raw_syscall3(SYS_read, fd, (long)&c, 1);
	} else {
		raw_syscall3(SYS_kill, pid, SIGURG, 0);
	}
	*ns = t1 - t0;
	return 0;
}

static int loop(unsigned long n, const char *in, const char *out)
{
	unsigned long long ns;
	unsigned long sum;
	int rc = span(bench_loop, n, in, out, &sum, &ns);

	if (rc)
		return rc;
	printf("tp_bench: loop %lu: %llu ns, sum %lu\n", n, ns, sum);
	printf("tp_bench: per pass %d insns, %d taken transfers, %d branches, %d call%s\n",
	       PASS_INSNS, PASS_TAKEN, PASS_BRANCHES, PASS_CALLS,
	       PASS_CALLS == 1 ? "" : "s");
	/* leaf() returns 1, 2, ..., n: the sum of 1..n */
	return sum == n * (n + 1) / 2 ? 0 : 1;
}

static int clock_loop(unsigned long m, const char *in, const char *out)
{
	unsigned long long ns;
	unsigned long ok;
	int rc = span(clock_calls, m, in, out, &ok, &ns);

	if (rc)
		return rc;
	printf("tp_bench: clock %lu: %llu ns\n", m, ns);
	return ok == m ? 0 : 1;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static int sys(unsigned long m)
{
	int to_child[2], to_parent[2];
	unsigned long long t0, t1;
	unsigned long i;
	pid_t child;
	char c = 0;

	if (pipe(to_child) || pipe(to_parent)) {
		perror("pipe");
		return 2;
	}
	child = fork();
	if (!child) {
		close(to_child[1]);
		while (read(to_child[0], &c, 1) == 1)
			if (write(to_parent[1], &c, 1) != 1)
				break;
		_exit(0);
	}
	close(to_child[0]);
	signal(SIGUSR1, on_usr1);
	t0 = now_ns();
	for (i = 0; i < m; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1) {
			perror("round trip");
			return 1;
		}
		raise(SIGUSR1);
		if (!(i & 63)) {
			pid_t p = fork();

			if (!p)
				_exit(0);
			waitpid(p, NULL, 0);
		}
	}
	t1 = now_ns();
	close(to_child[1]);
	waitpid(child, NULL, 0);
	printf("tp_bench: sys %lu: %llu ns\n", m, t1 - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "loop"))
		return loop(strtoul(argv[2], NULL, 0), argc == 5 ? argv[3] : NULL,
			    argc == 5 ? argv[4] : NULL);
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "clock"))
		return clock_loop(strtoul(argv[2], NULL, 0),
				  argc == 5 ? argv[3] : NULL,
				  argc == 5 ? argv[4] : NULL);
	if (argc == 3 && !strcmp(argv[1], "sys"))
		return sys(strtoul(argv[2], NULL, 0));
	fprintf(stderr, "usage: tp_bench loop N [IN OUT]\n"
		"       tp_bench clock M [IN OUT]\n"
		"       tp_bench sys M\n");
	return 2;
}
