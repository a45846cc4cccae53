// SPDX-License-Identifier: GPL-2.0
/*
 * atom_msgpass: two threads hand messages over through plain memory
 * and fences. The producer writes 4 data words, a fence, then the
 * sequence number in a flag; the consumer spins on the flag (yielding),
 * a fence, reads the data and checks it belongs to that message, then
 * acknowledges the same way. 60 messages, the fences varying: x86
 * sfence/lfence, mfence, a locked or on the stack; POWER lwsync, sync,
 * eieio then a control dependency plus isync on the reading side. Then
 * store buffering: each thread stores 1 to its own word, a full fence
 * (x86 mfence or lock or; POWER sync or hwsync via C11 seq_cst fence),
 * and reads the other's: both reading 0 is forbidden; 30 rounds.
 *
 * Catches: a tracer that reorders or drops a stepped thread's stores or
 * fences (e.g. emulating an instruction and writing memory in another
 * order), or on POWER skips a barrier inside an emulated window.
 */
#include "../tt.h"
#include <pthread.h>
#include <stdatomic.h>

#define MSGS	60
#define SB	30

static volatile long data[4];
static volatile long flag, ack;
static int bad_msgs;

static void wfence(int k)
{
#if defined(__x86_64__)
	if (k % 3 == 0)
		asm volatile("sfence" ::: "memory");
	else if (k % 3 == 1)
		asm volatile("mfence" ::: "memory");
	else
		asm volatile("lock orq $0, (%%rsp)" ::: "memory", "cc");
#elif defined(__powerpc64__)
	if (k % 3 == 0)
		asm volatile("lwsync" ::: "memory");
	else if (k % 3 == 1)
		asm volatile("sync" ::: "memory");
	else
		asm volatile("eieio" ::: "memory");
#endif
}

/* wait until *p == v, then order the reads after it */
static void await(volatile long *p, long v, int k)
{
	while (*p != v)
		sched_yield();
#if defined(__x86_64__)
	if (k & 1)
		asm volatile("lfence" ::: "memory");
	else
		asm volatile("mfence" ::: "memory");
#elif defined(__powerpc64__)
	if (k & 1) {
		asm volatile("lwsync" ::: "memory");
	} else {
		long t = *p;

		/* control dependency on the flag, then isync */
		asm volatile("cmpd %0, %0\n\tbne- 1f\n1:\tisync"
			     : : "r"(t) : "cr0", "memory");
	}
#else
	(void)k;
#endif
}

static void *consumer(void *arg)
{
	int k, i;

	(void)arg;
	for (k = 1; k <= MSGS; k++) {
		await(&flag, k, k);
		for (i = 0; i < 4; i++)
			if (data[i] != k * 100 + i)
				bad_msgs++;
		wfence(k);
		ack = k;
	}
	return NULL;
}

static volatile int x, y;
static int r[2][SB];
static pthread_barrier_t bar;

static void full_fence(int k)
{
	if (k & 1) {
		atomic_thread_fence(memory_order_seq_cst);
		return;
	}
#if defined(__x86_64__)
	asm volatile("mfence" ::: "memory");
#elif defined(__powerpc64__)
	asm volatile("sync" ::: "memory");
#endif
}

static void *sb_thread(void *arg)
{
	int me = (long)arg, k;

	for (k = 0; k < SB; k++) {
		pthread_barrier_wait(&bar);
		if (me) {
			y = 1;
			full_fence(k);
			r[1][k] = x;
		} else {
			x = 1;
			full_fence(k);
			r[0][k] = y;
		}
		pthread_barrier_wait(&bar);
		if (me == 0)
			x = y = 0;
	}
	return NULL;
}

TT_MAIN
{
	pthread_t t[2];
	int k, i, forbidden = 0;

	tt_check(!pthread_create(&t[0], NULL, consumer, NULL));
	for (k = 1; k <= MSGS; k++) {
		for (i = 0; i < 4; i++)
			data[i] = k * 100 + i;
		wfence(k);
		flag = k;
		await(&ack, k, k + 1);
	}
	tt_check(!pthread_join(t[0], NULL));
	tt_say("message passing: %d messages, %d bad data words\n", MSGS,
	       bad_msgs);
	tt_check(!bad_msgs);

	tt_check(!pthread_barrier_init(&bar, NULL, 2));
	for (i = 0; i < 2; i++)
		tt_check(!pthread_create(&t[i], NULL, sb_thread,
					 (void *)(long)i));
	for (i = 0; i < 2; i++)
		tt_check(!pthread_join(t[i], NULL));
	for (k = 0; k < SB; k++)
		forbidden += !r[0][k] && !r[1][k];
	tt_say("store buffering with full fences: %d rounds, both read 0: %d\n",
	       SB, forbidden);
	tt_check(!forbidden);
	tt_ok();
	return 0;
}
