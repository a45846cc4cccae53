// SPDX-License-Identifier: GPL-2.0
/*
 * thr_rwlock: reader-writer locks. 3 readers take the read lock and
 * then meet main at a barrier while all hold it (readers share it):
 * main's trywrlock fails (EBUSY), its tryrdlock succeeds; a timed write
 * lock with a past deadline gives ETIMEDOUT. Then 2 writers add 40
 * each to a pair of counters (a, then b = a) under the write lock, while
 * 2 readers check 40 times each under the read lock that a == b; a
 * writer-preferring lock (glibc's PREFER_WRITER_NONRECURSIVE) does the
 * same. Prints the totals and the torn reads seen (0).
 *
 * Catches: lost wake-ups or broken exclusion in the rwlock's futex
 * paths (readers and writers parked on different words) when the
 * threads are stepped.
 */
#include "../tt.h"
#include <pthread.h>
#include <time.h>

#define ADDS	40

static pthread_rwlock_t rw;
static pthread_barrier_t bar;
static volatile long a, b;
static long torn, reads;

static void *holder(void *arg)
{
	(void)arg;
	tt_check(!pthread_rwlock_rdlock(&rw));
	pthread_barrier_wait(&bar);	/* all hold it */
	pthread_barrier_wait(&bar);	/* main looked */
	tt_check(!pthread_rwlock_unlock(&rw));
	return NULL;
}

static void *writer(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ADDS; i++) {
		tt_check(!pthread_rwlock_wrlock(&rw));
		a = a + 1;
		if (i % 8 == 0)
			sched_yield();
		b = b + 1;
		tt_check(!pthread_rwlock_unlock(&rw));
	}
	return NULL;
}

static void *reader(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < ADDS; i++) {
		tt_check(!pthread_rwlock_rdlock(&rw));
		if (a != b)
			__atomic_fetch_add(&torn, 1, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&reads, 1, __ATOMIC_SEQ_CST);
		tt_check(!pthread_rwlock_unlock(&rw));
		if (i % 8 == 0)
			sched_yield();
	}
	return NULL;
}

static void mixed(const char *what)
{
	pthread_t t[4];
	int i;

	a = b = 0;
	torn = reads = 0;
	for (i = 0; i < 4; i++)
		tt_check(!pthread_create(&t[i], NULL, i & 1 ? reader : writer,
					 NULL));
	for (i = 0; i < 4; i++)
		tt_check(!pthread_join(t[i], NULL));
	tt_say("%s: a %ld b %ld, reads %ld, torn %ld\n", what, a, b, reads,
	       torn);
	tt_check(a == 2 * ADDS && b == a && reads == 2 * ADDS && !torn);
}

TT_MAIN
{
	pthread_rwlockattr_t ra;
	struct timespec ts;
	pthread_t t[3];
	int i, trywr, tryrd, timed;

	tt_check(!pthread_rwlock_init(&rw, NULL));
	tt_check(!pthread_barrier_init(&bar, NULL, 4));
	for (i = 0; i < 3; i++)
		tt_check(!pthread_create(&t[i], NULL, holder, NULL));
	pthread_barrier_wait(&bar);
	trywr = pthread_rwlock_trywrlock(&rw);
	tryrd = pthread_rwlock_tryrdlock(&rw);
	if (!tryrd)
		tt_check(!pthread_rwlock_unlock(&rw));
	tt_sys(clock_gettime(CLOCK_REALTIME, &ts));
	ts.tv_sec -= 1;
	timed = pthread_rwlock_timedwrlock(&rw, &ts);
	pthread_barrier_wait(&bar);
	for (i = 0; i < 3; i++)
		tt_check(!pthread_join(t[i], NULL));
	tt_say("3 readers hold it: trywrlock %s, tryrdlock %s, timedwrlock %s\n",
	       trywr == EBUSY ? "EBUSY" : "other", tryrd ? "other" : "0",
	       timed == ETIMEDOUT ? "ETIMEDOUT" : "other");
	tt_check(trywr == EBUSY && !tryrd && timed == ETIMEDOUT);

	mixed("default rwlock");
	tt_check(!pthread_rwlock_destroy(&rw));
	tt_check(!pthread_rwlockattr_init(&ra));
	tt_check(!pthread_rwlockattr_setkind_np(&ra,
			PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP));
	tt_check(!pthread_rwlock_init(&rw, &ra));
	mixed("writer-preferring rwlock");
	tt_ok();
	return 0;
}
