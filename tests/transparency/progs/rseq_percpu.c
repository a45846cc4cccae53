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
#include "../tt_rseq.h"
#include <pthread.h>

#define NT	4
#define ADDS	50
#define NCPU	64

TT_RSEQ_INC;

static long counters[NCPU * 8] __attribute__((aligned(64)));
static pthread_barrier_t bar;

static void *adder(void *arg __attribute__((unused)))
{
	volatile struct rseq *rs = tt_rseq_area();
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

	if (tt_rseq_none(1))
		return 0;
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
