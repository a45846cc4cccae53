// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for a traced task that clears or sets the x86 trap flag
 * itself (the program's own TF, kept apart from the tracer's): after the
 * first byte on the fifo it
 *   1. runs popf with TF clear three times, then calls mark_popf();
 *   2. raises SIGUSR1, whose handler clears TF in the saved context
 *      (sigreturn then restores the flags without it), then calls
 *      mark_sigreturn();
 *   3. sets TF itself with popf, takes its own single-step traps in a
 *      SIGTRAP handler that counts them and clears TF in the context
 *      after 20, then calls mark_self();
 * prints "tp_tf: traps 20" and "tp_tf: done", blocks for a last byte
 * and exits 0. Traced, tracing must go on through each (the mark_*
 * calls are logged) and the program must get exactly its 20 traps.
 * Elsewhere than x86_64 it prints "tp_tf: not x86" and does the rest.
 *
 * usage: tp_tf FIFO     prints "tp_tf: pid P ready" first
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#define NOINLINE __attribute__((noinline, noclone))
#define TF 0x100UL

static volatile long sink;
static volatile int traps;

NOINLINE void mark_popf(void) { sink++; }
NOINLINE void mark_sigreturn(void) { sink++; }
NOINLINE void mark_self(void) { sink++; }

#ifdef __x86_64__
static void popf_clear(void)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	f &= ~TF;
	__asm__ volatile("pushq %0; popfq" : : "r"(f) : "cc", "memory");
}

static void popf_set(void)
{
	unsigned long f;

	__asm__ volatile("pushfq; popq %0" : "=r"(f));
	f |= TF;
	__asm__ volatile("pushq %0; popfq" : : "r"(f) : "cc", "memory");
}

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	uc->uc_mcontext.gregs[REG_EFL] &= ~TF;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	if (++traps >= 20)
		uc->uc_mcontext.gregs[REG_EFL] &= ~TF;
}

static void run(void)
{
	struct sigaction sa;
	int i;

	for (i = 0; i < 3; i++)
		popf_clear();
	mark_popf();
	memset(&sa, 0, sizeof(sa));
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	mark_sigreturn();
	sa.sa_sigaction = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	popf_set();
	/* a straight line for the program's own steps */
	for (i = 0; i < 40; i++)
		sink += i;
	mark_self();
	printf("tp_tf: traps %d\n", traps);
}
#else
static void run(void)
{
	mark_popf();
	mark_sigreturn();
	mark_self();
	printf("tp_tf: not x86\n");
}
#endif

int main(int argc, char **argv)
{
	char c;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: tp_tf FIFO\n");
		return 2;
	}
	printf("tp_tf: pid %d ready\n", getpid());
	fflush(stdout);
	fd = open(argv[1], O_RDWR);	/* a writer stays: reads block */
	if (fd < 0 || read(fd, &c, 1) != 1)
		return 1;
	run();
	printf("tp_tf: done\n");
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 1;
	return 0;
}
