// SPDX-License-Identifier: GPL-2.0
/*
 * thr_futex: the raw futex system call between threads. Errors first:
 * FUTEX_WAIT on a changed word (EAGAIN), with a zero timeout and with an
 * absolute FUTEX_WAIT_BITSET deadline already past (ETIMEDOUT), a wake
 * with nobody waiting (0). A 100-round wait/wake ping-pong with one
 * thread. Then, each time after the waiters are seen blocked in futex()
 * (/proc/self/task/TID/syscall): FUTEX_WAKE_BITSET with a mask that
 * misses the waiter (0) and one that hits (1); FUTEX_CMP_REQUEUE of 3
 * waiters (1 woken, 2 moved to a second word, woken from there; a wrong
 * compare value gives EAGAIN); FUTEX_WAKE_OP adding to a second word
 * and waking there when its old value matched.
 *
 * Catches: a tracer that makes futex waits return early or lose wakes,
 * restarts an interrupted futex call wrongly, or that disturbs the
 * return values of these calls in stepped threads.
 */
#include "../tt_thr.h"
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>

#define ROUNDS	100

static long fx(int *uaddr, int op, int val, const struct timespec *ts,
	       int *uaddr2, int val3)
{
	long r = syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);

	return r == -1 ? -errno : r;
}

/* the result as a name: an error's, or the count */
static const char *res(long r)
{
	static char buf[5][24];
	static int n;
	char *b = buf[n++ % 5];

	if (r >= 0)
		snprintf(b, 24, "%ld", r);
	else
		snprintf(b, 24, "%s", r == -EAGAIN ? "EAGAIN" :
			 r == -ETIMEDOUT ? "ETIMEDOUT" :
			 r == -EINTR ? "EINTR" : "other");
	return b;
}

static int turn;
static int pongs;

static void *ponger(void *arg)
{
	int r;

	(void)arg;
	for (r = 0; r < ROUNDS; r++) {
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 1)
			fx(&turn, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		pongs++;
		__atomic_store_n(&turn, 0, __ATOMIC_RELEASE);
		fx(&turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
	return NULL;
}

static void ping_pong(void)
{
	pthread_t t;
	int r;

	tt_check(!pthread_create(&t, NULL, ponger, NULL));
	for (r = 0; r < ROUNDS; r++) {
		__atomic_store_n(&turn, 1, __ATOMIC_RELEASE);
		fx(&turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		while (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) != 0)
			fx(&turn, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	}
	tt_check(!pthread_join(t, NULL));
	tt_say("ping-pong: %d rounds, %d pongs\n", ROUNDS, pongs);
	tt_check(pongs == ROUNDS);
}

/* waiters: each records its tid, then waits on its word until released */
struct waiter {
	int *word;
	int bitset;	/* 0: plain FUTEX_WAIT */
	int tid;
	long ret;
	pthread_t t;
};

static int released;

static void *wait_fn(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&released, __ATOMIC_ACQUIRE)) {
		if (w->bitset)
			w->ret = fx(w->word, FUTEX_WAIT_BITSET_PRIVATE, 0,
				    NULL, NULL, w->bitset);
		else
			w->ret = fx(w->word, FUTEX_WAIT_PRIVATE, 0, NULL,
				    NULL, 0);
	}
	return NULL;
}

static void start(struct waiter *w, int *word, int bitset)
{
	w->word = word;
	w->bitset = bitset;
	w->tid = 0;
	tt_check(!pthread_create(&w->t, NULL, wait_fn, w));
	while (!__atomic_load_n(&w->tid, __ATOMIC_ACQUIRE))
		sched_yield();
	tt_check(tt_wait_sleeping(getpid(), w->tid, SYS_futex));
}

static int wa, wb;

static void bitset(void)
{
	struct waiter w;
	long r1, r2;

	released = 0;
	start(&w, &wa, 0x4);
	r1 = fx(&wa, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 0x3);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	r2 = fx(&wa, FUTEX_WAKE_BITSET_PRIVATE, 1, NULL, NULL, 0x4);
	tt_check(!pthread_join(w.t, NULL));
	tt_say("wake bitset: missing mask %s, matching mask %s, waiter got %s\n",
	       res(r1), res(r2), res(w.ret));
	tt_check(r1 == 0 && r2 == 1 && w.ret == 0);
}

static void requeue(void)
{
	struct waiter w[3];
	long bad, r, b1, b2, a;
	int i;

	released = 0;
	for (i = 0; i < 3; i++)
		start(&w[i], &wa, 0);
	bad = fx(&wa, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2L, &wb, 1);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	r = fx(&wa, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2L, &wb, 0);
	b1 = fx(&wb, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	b2 = fx(&wb, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	a = fx(&wa, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	for (i = 0; i < 3; i++)
		tt_check(!pthread_join(w[i].t, NULL));
	tt_say("cmp_requeue: wrong value %s, 3 waiters %s, then second word wakes %s and %s, first word %s\n",
	       res(bad), res(r), res(b1), res(b2), res(a));
	tt_check(bad == -EAGAIN && r == 3 && b1 == 1 && b2 == 1 && a == 0);
}

static void wake_op(void)
{
	struct waiter x, y;
	long r1, r2;
	int v1, v2;

	released = 0;
	wa = wb = 0;
	start(&x, &wa, 0);
	start(&y, &wb, 0);
	__atomic_store_n(&released, 1, __ATOMIC_RELEASE);
	r1 = fx(&wa, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &wb,
		FUTEX_OP(FUTEX_OP_ADD, 5, FUTEX_OP_CMP_EQ, 0));
	v1 = wb;
	r2 = fx(&wa, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &wb,
		FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0));
	v2 = wb;
	tt_check(!pthread_join(x.t, NULL));
	tt_check(!pthread_join(y.t, NULL));
	tt_say("wake_op: woke %s (second word now %d), again %s (now %d)\n",
	       res(r1), v1, res(r2), v2);
	tt_check(r1 == 2 && v1 == 5 && r2 == 0 && v2 == 6);
}

TT_MAIN
{
	struct timespec zero = { 0, 0 }, past;
	int w = 5;
	long r1, r2, r3, r4;

	r1 = fx(&w, FUTEX_WAIT_PRIVATE, 4, NULL, NULL, 0);
	r2 = fx(&w, FUTEX_WAIT_PRIVATE, 5, &zero, NULL, 0);
	tt_sys(clock_gettime(CLOCK_MONOTONIC, &past));
	past.tv_sec -= 1;
	r3 = fx(&w, FUTEX_WAIT_BITSET_PRIVATE, 5, &past, NULL,
		FUTEX_BITSET_MATCH_ANY);
	r4 = fx(&w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	tt_say("wait changed %s, zero timeout %s, past deadline %s, wake none %s\n",
	       res(r1), res(r2), res(r3), res(r4));
	tt_check(r1 == -EAGAIN && r2 == -ETIMEDOUT && r3 == -ETIMEDOUT);
	tt_check(r4 == 0);
	ping_pong();
	bitset();
	requeue();
	wake_op();
	tt_ok();
	return 0;
}
