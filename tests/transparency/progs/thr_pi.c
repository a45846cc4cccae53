// SPDX-License-Identifier: GPL-2.0
/*
 * thr_pi: priority-inheritance futexes. A raw PI lock (word = owner tid,
 * FUTEX_LOCK_PI / FUTEX_UNLOCK_PI when contended) taken 30 times by
 * each of 3 threads around a plain counter. Then the hand-over, step by
 * step: main holds the lock, a thread blocks in FUTEX_LOCK_PI, main
 * waits until the kernel has set FUTEX_WAITERS in the word, and its
 * FUTEX_UNLOCK_PI makes the thread the owner. Errors: FUTEX_TRYLOCK_PI
 * on a lock held by another thread (EAGAIN), FUTEX_LOCK_PI on one's own
 * (EDEADLK), FUTEX_UNLOCK_PI of someone else's (EPERM). Last a
 * PTHREAD_PRIO_INHERIT mutex, 30 locks by each of 3 threads.
 *
 * Catches: a tracer that disturbs the PI futex paths (rt_mutex
 * hand-over, owner-died and waiters bits in the user word the kernel
 * updates with cmpxchg) for stepped threads.
 */
#include "../tt_thr.h"
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>

#define N	3
#define LOCKS	30

static int pi_word;
static long counter;

static long fx(int *uaddr, int op)
{
	long r = syscall(SYS_futex, uaddr, op, 0, NULL, NULL, 0);

	return r == -1 ? -errno : r;
}

static int gettid_(void)
{
	return syscall(SYS_gettid);
}

static void pi_lock(int *w)
{
	int zero = 0;

	if (__atomic_compare_exchange_n(w, &zero, gettid_(), 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return;
	while (fx(w, FUTEX_LOCK_PI_PRIVATE) != 0)
		;
}

static void pi_unlock(int *w)
{
	int me = gettid_();

	if (__atomic_compare_exchange_n(w, &me, 0, 0, __ATOMIC_RELEASE,
					__ATOMIC_RELAXED))
		return;
	tt_check(fx(w, FUTEX_UNLOCK_PI_PRIVATE) == 0);
}

static void *locker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < LOCKS; i++) {
		pi_lock(&pi_word);
		counter++;
		if (i % 8 == 0)
			sched_yield();	/* hold it a while: contention */
		pi_unlock(&pi_word);
	}
	return NULL;
}

static pthread_mutex_t pim;

static void *mlocker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < LOCKS; i++) {
		tt_check(!pthread_mutex_lock(&pim));
		counter++;
		if (i % 8 == 0)
			sched_yield();
		tt_check(!pthread_mutex_unlock(&pim));
	}
	return NULL;
}

static void run(void *(*fn)(void *), const char *what)
{
	counter = 0;
	tt_run_threads(N, fn);
	tt_say("%s: %d threads x %d locks, counter %ld\n", what, N, LOCKS,
	       counter);
	tt_check(counter == N * LOCKS);
}

static int hand_tid;
static long try_ret, unlock_ret, lock_ret;
static int owner_after;

static void *taker(void *arg)
{
	(void)arg;
	__atomic_store_n(&hand_tid, gettid_(), __ATOMIC_RELEASE);
	try_ret = fx(&pi_word, FUTEX_TRYLOCK_PI_PRIVATE);
	unlock_ret = fx(&pi_word, FUTEX_UNLOCK_PI_PRIVATE);
	lock_ret = fx(&pi_word, FUTEX_LOCK_PI_PRIVATE);	/* blocks */
	owner_after = __atomic_load_n(&pi_word, __ATOMIC_ACQUIRE) &
		      FUTEX_TID_MASK;
	pi_unlock(&pi_word);
	return NULL;
}

static const char *err(long r)
{
	return r == 0 ? "0" : r == -EAGAIN ? "EAGAIN" : r == -EDEADLK ?
	       "EDEADLK" : r == -EPERM ? "EPERM" : "other";
}

static void hand_over(void)
{
	pthread_t t;
	long self;

	pi_word = 0;
	pi_lock(&pi_word);
	self = fx(&pi_word, FUTEX_LOCK_PI_PRIVATE);
	tt_check(!pthread_create(&t, NULL, taker, NULL));
	while (!(__atomic_load_n(&pi_word, __ATOMIC_ACQUIRE) & FUTEX_WAITERS))
		sched_yield();
	pi_unlock(&pi_word);
	tt_check(!pthread_join(t, NULL));
	tt_say("hand-over: lock own %s; other's trylock %s, unlock %s, lock %s, owner after: %s, word at end %d\n",
	       err(self), err(try_ret), err(unlock_ret), err(lock_ret),
	       owner_after == hand_tid ? "the waiter" : "other", pi_word);
	tt_check(self == -EDEADLK && try_ret == -EAGAIN);
	tt_check(unlock_ret == -EPERM && lock_ret == 0);
	tt_check(owner_after == hand_tid && pi_word == 0);
}

TT_MAIN
{
	pthread_mutexattr_t a;

	run(locker, "raw PI futex");
	hand_over();
	tt_check(!pthread_mutexattr_init(&a));
	tt_check(!pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT));
	tt_check(!pthread_mutex_init(&pim, &a));
	run(mlocker, "PTHREAD_PRIO_INHERIT mutex");
	tt_ok();
	return 0;
}
