// SPDX-License-Identifier: GPL-2.0
/*
 * thr_barrier: barrier rounds. 4 threads, 20 rounds: in each, every
 * thread writes its slot, waits at a barrier, checks all 4 slots hold
 * this round's values, and waits again before the next round's writes.
 * Exactly one waiter per wait gets PTHREAD_BARRIER_SERIAL_THREAD. Then
 * a process-shared barrier in MAP_SHARED memory between main and a
 * forked child (shared, not private, futexes): 15 rounds of the same.
 * Prints the round and serial counts.
 *
 * Catches: a tracer that loses futex wake-ups or spuriously completes
 * waits of stepped threads (a thread running ahead of its round), or
 * breaks shared futexes across a fork (keys by inode/page, not mm).
 */
#include "../tt_thr.h"
#include <sys/mman.h>
#include <sys/wait.h>

#define N	4
#define ROUNDS	20
#define PROUNDS	15

static pthread_barrier_t bar;
static volatile int slot[N];
static int serial, bad;

static void *worker(void *arg)
{
	int me = (long)arg, r, i;

	for (r = 0; r < ROUNDS; r++) {
		slot[me] = r * 10 + me;
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_fetch_add(&serial, 1, __ATOMIC_SEQ_CST);
		for (i = 0; i < N; i++)
			if (slot[i] != r * 10 + i)
				__atomic_fetch_add(&bad, 1, __ATOMIC_SEQ_CST);
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_fetch_add(&serial, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

struct shared {
	pthread_barrier_t bar;
	volatile int slot[2];
	int serial, bad;
};

static void proc_rounds(struct shared *s, int me)
{
	int r;

	for (r = 0; r < PROUNDS; r++) {
		s->slot[me] = r * 10 + me;
		if (pthread_barrier_wait(&s->bar) ==
		    PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_fetch_add(&s->serial, 1, __ATOMIC_SEQ_CST);
		if (s->slot[0] != r * 10 || s->slot[1] != r * 10 + 1)
			__atomic_fetch_add(&s->bad, 1, __ATOMIC_SEQ_CST);
		if (pthread_barrier_wait(&s->bar) ==
		    PTHREAD_BARRIER_SERIAL_THREAD)
			__atomic_fetch_add(&s->serial, 1, __ATOMIC_SEQ_CST);
	}
}

TT_MAIN
{
	pthread_barrierattr_t ba;
	struct shared *s;
	int status;
	pid_t pid;

	tt_check(!pthread_barrier_init(&bar, NULL, N));
	tt_run_threads(N, worker);
	tt_say("threads: %d rounds, serial waiters %d, stale slots seen %d\n",
	       ROUNDS, serial, bad);
	tt_check(serial == 2 * ROUNDS && bad == 0);

	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	tt_check(s != MAP_FAILED);
	tt_check(!pthread_barrierattr_init(&ba));
	tt_check(!pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED));
	tt_check(!pthread_barrier_init(&s->bar, &ba, 2));
	pid = tt_sys(fork());
	if (pid == 0) {
		proc_rounds(s, 1);
		_exit(0);
	}
	proc_rounds(s, 0);
	tt_sys(waitpid(pid, &status, 0));
	tt_say("processes: %d rounds, serial waiters %d, stale slots seen %d, child status %d\n",
	       PROUNDS, s->serial, s->bad, status);
	tt_check(s->serial == 2 * PROUNDS && s->bad == 0 && status == 0);
	tt_ok();
	return 0;
}
