// SPDX-License-Identifier: GPL-2.0
/*
 * thr_detach50: 50 detached threads created back to back, each adding
 * its number to a sum and exiting at once, so creations and exits
 * overlap (a thread may be gone before pthread_create() returns). The
 * last one to count itself futex-wakes main, which waits on the count
 * word (no join: detached threads cannot be joined). Twice, the second
 * wave reusing the first's cached stacks. Main then returns while the
 * last threads may still be on their way out. Prints the sums.
 *
 * Catches: a tracer whose per-thread state is set up at clone and torn
 * down at exit racing with itself (a slot freed twice, or reused while
 * its old thread still exits; a new thread stepped with a dead one's
 * state), or a process exit that waits for, or trips over, threads still
 * in their exit path.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <pthread.h>
#include <sys/syscall.h>

#define N	50

static int done;	/* threads counted in this wave: the futex word */
static long sum;

static void *one(void *arg)
{
	__atomic_fetch_add(&sum, (long)arg, __ATOMIC_SEQ_CST);
	if (__atomic_add_fetch(&done, 1, __ATOMIC_SEQ_CST) == N)
		syscall(SYS_futex, &done, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return NULL;
}

static void wave(int w, pthread_attr_t *a)
{
	pthread_t t;
	int i, v;

	done = 0;
	sum = 0;
	for (i = 1; i <= N; i++)
		tt_check(!pthread_create(&t, a, one, (void *)(long)i));
	while ((v = __atomic_load_n(&done, __ATOMIC_SEQ_CST)) != N)
		syscall(SYS_futex, &done, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
	tt_say("wave %d: %d detached threads counted, sum %ld\n", w, v,
	       __atomic_load_n(&sum, __ATOMIC_SEQ_CST));
	tt_check(sum == N * (N + 1) / 2);
}

TT_MAIN
{
	pthread_attr_t a;

	tt_check(!pthread_attr_init(&a));
	tt_check(!pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED));
	wave(1, &a);
	wave(2, &a);
	tt_ok();
	return 0;
}
