// SPDX-License-Identifier: GPL-2.0
/*
 * thr_create: thread life cycles. 20 threads created and joined one
 * after another, then 8 running at once (released together by a
 * barrier); each adds its number to an atomic counter and returns it.
 * Prints the sums (210 and 36) and the sum of the join values.
 *
 * Catches: a tracer that loses or mis-inherits state across clone() of
 * threads (a new thread born with the step bit, killed by SIGTRAP, or
 * one whose registers/stack come out wrong), or breaks thread exit and
 * the CLONE_CHILD_CLEARTID futex wake that pthread_join waits for.
 */
#include "../tt.h"
#include <pthread.h>

static long counter;
static pthread_barrier_t bar;

static void *one(void *arg)
{
	long n = (long)arg;

	__atomic_fetch_add(&counter, n, __ATOMIC_SEQ_CST);
	return (void *)(n * 100);
}

static void *together(void *arg)
{
	pthread_barrier_wait(&bar);
	return one(arg);
}

TT_MAIN
{
	pthread_t t[8], s;
	long joined = 0;
	void *ret;
	int i;

	for (i = 1; i <= 20; i++) {
		tt_check(!pthread_create(&s, NULL, one, (void *)(long)i));
		tt_check(!pthread_join(s, &ret));
		joined += (long)ret;
	}
	tt_say("in sequence: 20 threads, sum %ld, joined %ld\n",
	       counter, joined);
	tt_check(counter == 210 && joined == 21000);

	counter = joined = 0;
	tt_check(!pthread_barrier_init(&bar, NULL, 8));
	for (i = 0; i < 8; i++)
		tt_check(!pthread_create(&t[i], NULL, together,
					 (void *)(long)(i + 1)));
	for (i = 0; i < 8; i++) {
		tt_check(!pthread_join(t[i], &ret));
		joined += (long)ret;
	}
	tt_say("at once: 8 threads, sum %ld, joined %ld\n", counter, joined);
	tt_check(counter == 36 && joined == 3600);
	tt_ok();
	return 0;
}
