// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_percpu: the classic restartable-sequence per-CPU counter. Four
 * threads each add 1 to counter[cpu] 50 times through an rseq critical
 * section (asm: publish the descriptor in the thread's rseq area (glibc's
 * registration), read cpu_id, load, add, and commit with the final
 * store; the abort handler, behind the signature, just starts over).
 * Only a commit by the thread still on that cpu counts, so the counters
 * must add up to exactly 200 however often the threads were preempted,
 * migrated or aborted. Where glibc registered no area (no rseq in the
 * kernel) the program prints a fixed line.
 *
 * Catches: a tracer whose traps inside a critical section make the
 * kernel abort it every time (the thread never commits: a hang), or make
 * it skip an abort it owed (a lost update: the sum falls short), or that
 * confuses the kernel's ip fix-up to the abort handler.
 */
#include "../tt.h"
#include <pthread.h>
#include <sys/rseq.h>

#define NT	4
#define ADDS	50
#define NCPU	64

#if defined(__x86_64__)
asm(".text\n"
    ".globl rseq_inc\n"
    ".type rseq_inc, @function\n"
    "rseq_inc:\n"			/* rdi = rseq area, rsi = counters */
    "1:	leaq inc_desc(%rip), %rax\n"
    "	movq %rax, 8(%rdi)\n"		/* rseq_cs */
    "inc_start:\n"
    "	movl 4(%rdi), %eax\n"		/* cpu_id */
    "	shlq $6, %rax\n"		/* 64 bytes a counter */
    "	movq (%rsi,%rax), %rcx\n"
    "	incq %rcx\n"
    "	movq %rcx, (%rsi,%rax)\n"	/* commit */
    "inc_post:\n"
    "	ret\n"
    "	.long 0x53053053\n"		/* RSEQ_SIG */
    "inc_abort:\n"
    "	jmp 1b\n"
    ".size rseq_inc, . - rseq_inc\n"
    ".data\n"
    ".balign 32\n"
    "inc_desc:\n"
    "	.long 0, 0\n"
    "	.quad inc_start, inc_post - inc_start, inc_abort\n"
    ".text\n");

static char *thread_pointer(void)
{
	return __builtin_thread_pointer();
}
#elif defined(__powerpc64__)
asm(".text\n"
    ".globl rseq_inc\n"
    ".type rseq_inc, @function\n"
    "rseq_inc:\n"			/* r3 = rseq area, r4 = counters */
    "0:	addis 2, 12, .TOC.-0b@ha\n"
    "	addi 2, 2, .TOC.-0b@l\n"
    "	.localentry rseq_inc, .-rseq_inc\n"
    "1:	addis 9, 2, inc_desc@toc@ha\n"
    "	addi 9, 9, inc_desc@toc@l\n"
    "	std 9, 8(3)\n"			/* rseq_cs */
    "inc_start:\n"
    "	lwz 10, 4(3)\n"			/* cpu_id */
    "	sldi 10, 10, 6\n"		/* 64 bytes a counter */
    "	ldx 11, 4, 10\n"
    "	addi 11, 11, 1\n"
    "	stdx 11, 4, 10\n"		/* commit */
    "inc_post:\n"
    "	blr\n"
    "	.long 0x0fe5000b\n"		/* RSEQ_SIG */
    "inc_abort:\n"
    "	b 1b\n"
    ".size rseq_inc, . - rseq_inc\n"
    ".data\n"
    ".balign 32\n"
    "inc_desc:\n"
    "	.long 0, 0\n"
    "	.quad inc_start, inc_post - inc_start, inc_abort\n"
    ".text\n");

static char *thread_pointer(void)
{
	register char *r13 asm("r13");

	return r13;
}
#endif

void rseq_inc(volatile struct rseq *rs, long *counters);

static long counters[NCPU * 8] __attribute__((aligned(64)));
static pthread_barrier_t bar;

static volatile struct rseq *area(void)
{
	return (struct rseq *)(thread_pointer() + __rseq_offset);
}

static void *adder(void *arg __attribute__((unused)))
{
	volatile struct rseq *rs = area();
	long bad = 0;
	int i;

	pthread_barrier_wait(&bar);
	for (i = 0; i < ADDS; i++) {
		if (rs->cpu_id >= NCPU) {	/* not registered: no cs */
			bad++;
			break;
		}
		rseq_inc(rs, counters);
	}
	rs->rseq_cs = 0;
	return (void *)bad;
}

TT_MAIN
{
	long sum = 0, bad = 0;
	pthread_t t[NT];
	void *ret;
	int i;

	if (__rseq_size == 0) {
		tt_say("rseq: no area registered (no rseq): skipped\n");
		tt_ok();
		return 0;
	}
	tt_check(pthread_barrier_init(&bar, NULL, NT) == 0);
	for (i = 0; i < NT; i++)
		tt_check(pthread_create(&t[i], NULL, adder, NULL) == 0);
	for (i = 0; i < NT; i++) {
		tt_check(pthread_join(t[i], &ret) == 0);
		bad += (long)ret;
	}
	for (i = 0; i < NCPU; i++)
		sum += counters[i * 8];
	tt_say("rseq: %d threads x %d per-cpu adds, counters sum to %ld\n",
	       NT, ADDS, sum);
	tt_check(!bad && sum == NT * ADDS);
	tt_ok();
	return 0;
}
