// SPDX-License-Identifier: GPL-2.0
/*
 * thr_condvar: condition variables. A 4-slot ring buffer under a mutex
 * with "not full" / "not empty" condvars: 2 producers put 60 items each
 * (producer * 1000 + k), 2 consumers take them until each gets a stop
 * item; each consumer checks that the items of a producer come to it in
 * increasing order. Then a pthread_cond_timedwait() on a monotonic-clock
 * condvar with a deadline already past (ETIMEDOUT at once, mutex held
 * again), and a broadcast that releases 3 waiters blocked on a "go"
 * flag. Prints the item counts and sums.
 *
 * Catches: lost or doubled condvar wake-ups (FUTEX_WAIT/WAKE on the
 * condvar sequence words) or mutex hand-overs under tracing, and a
 * timed wait whose timeout the tracer's traps disturb.
 */
#include "../tt.h"
#include <pthread.h>
#include <time.h>

#define SLOTS	4
#define ITEMS	60
#define STOP	-1

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static int ring[SLOTS], head, count;
static long got, got_sum;
static int order_bad;

static void put(int v)
{
	pthread_mutex_lock(&m);
	while (count == SLOTS)
		pthread_cond_wait(&not_full, &m);
	ring[(head + count++) % SLOTS] = v;
	pthread_cond_signal(&not_empty);
	pthread_mutex_unlock(&m);
}

static int take(void)
{
	int v;

	pthread_mutex_lock(&m);
	while (count == 0)
		pthread_cond_wait(&not_empty, &m);
	v = ring[head];
	head = (head + 1) % SLOTS;
	count--;
	pthread_cond_signal(&not_full);
	pthread_mutex_unlock(&m);
	return v;
}

static void *producer(void *arg)
{
	int p = (long)arg, k;

	for (k = 0; k < ITEMS; k++)
		put(p * 1000 + k);
	return NULL;
}

static void *consumer(void *arg)
{
	int last[3] = { -1, -1, -1 };
	long n = 0, s = 0;
	int v;

	(void)arg;
	while ((v = take()) != STOP) {
		if (v % 1000 <= last[v / 1000])
			order_bad++;
		last[v / 1000] = v % 1000;
		n++;
		s += v;
	}
	pthread_mutex_lock(&m);
	got += n;
	got_sum += s;
	pthread_mutex_unlock(&m);
	return NULL;
}

static pthread_cond_t go_cv = PTHREAD_COND_INITIALIZER;
static int go, waiting, released;

static void *go_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&m);
	waiting++;
	pthread_cond_broadcast(&not_empty);	/* tell main */
	while (!go)
		pthread_cond_wait(&go_cv, &m);
	released++;
	pthread_mutex_unlock(&m);
	return NULL;
}

TT_MAIN
{
	pthread_t p[2], c[2], w[3];
	pthread_condattr_t ca;
	pthread_cond_t mono;
	struct timespec ts;
	long want = 0;
	int i, k, r;

	for (i = 0; i < 2; i++) {
		tt_check(!pthread_create(&c[i], NULL, consumer, NULL));
		tt_check(!pthread_create(&p[i], NULL, producer,
					 (void *)(long)(i + 1)));
	}
	for (i = 0; i < 2; i++)
		tt_check(!pthread_join(p[i], NULL));
	put(STOP);
	put(STOP);
	for (i = 0; i < 2; i++)
		tt_check(!pthread_join(c[i], NULL));
	for (i = 1; i <= 2; i++)
		for (k = 0; k < ITEMS; k++)
			want += i * 1000 + k;
	tt_say("ring: %ld items, sum %ld (want %ld), out of order %d\n",
	       got, got_sum, want, order_bad);
	tt_check(got == 2 * ITEMS && got_sum == want && !order_bad);

	tt_check(!pthread_condattr_init(&ca));
	tt_check(!pthread_condattr_setclock(&ca, CLOCK_MONOTONIC));
	tt_check(!pthread_cond_init(&mono, &ca));
	tt_sys(clock_gettime(CLOCK_MONOTONIC, &ts));
	ts.tv_sec -= 1;
	pthread_mutex_lock(&m);
	r = pthread_cond_timedwait(&mono, &m, &ts);
	tt_say("timedwait, deadline past: %s, mutex held after: %s\n",
	       r == ETIMEDOUT ? "ETIMEDOUT" : "other",
	       pthread_mutex_trylock(&m) == EBUSY ? "yes" : "no");
	tt_check(r == ETIMEDOUT);
	pthread_mutex_unlock(&m);

	for (i = 0; i < 3; i++)
		tt_check(!pthread_create(&w[i], NULL, go_waiter, NULL));
	pthread_mutex_lock(&m);
	while (waiting < 3)
		pthread_cond_wait(&not_empty, &m);
	go = 1;
	pthread_cond_broadcast(&go_cv);
	pthread_mutex_unlock(&m);
	for (i = 0; i < 3; i++)
		tt_check(!pthread_join(w[i], NULL));
	tt_say("broadcast: %d of 3 waiters released\n", released);
	tt_check(released == 3);
	tt_ok();
	return 0;
}
