// SPDX-License-Identifier: GPL-2.0
/*
 * atom_sigstorm: atomic loops interrupted by signals from another
 * thread. Two workers add to one counter, 150 times each, by a
 * compare-and-swap loop (x86 lock cmpxchg, POWER ldarx/stdcx. with
 * the new value computed inside the window) and by an atomic
 * fetch_add. Meanwhile main sends each worker 25 real-time signals
 * (queued: none is lost), whose handler adds 1000 to the same counter
 * with the same loops; the signals land wherever the workers are,
 * between a load and its store too. A worker ends when its adds are
 * done and all its signals were handled. The counter must be exact.
 *
 * Catches: a tracer that, when a signal arrives while it steps or
 * emulates an atomic window, resumes the interrupted window with a
 * stale reservation or a stale loaded value (a lost update), or loses
 * or repeats a signal.
 */
#include "../tt.h"
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#define ADDS	150
#define SIGS	25

static uint64_t counter;
static __thread volatile int handled;
static volatile int done_sigs[2];

static void cas_add(uint64_t n)
{
#if defined(__x86_64__)
	uint64_t old = __atomic_load_n(&counter, __ATOMIC_RELAXED);

	for (;;) {
		unsigned char ok;

		asm volatile("lock cmpxchgq %3, %1\n\tsete %0"
			     : "=q"(ok), "+m"(counter), "+a"(old)
			     : "r"(old + n) : "cc", "memory");
		if (ok)
			break;
	}
#elif defined(__powerpc64__)
	uint64_t t;

	asm volatile("1:\tldarx %0, 0, %2\n\t"
		     "add %0, %0, %3\n\t"
		     "stdcx. %0, 0, %2\n\t"
		     "bne- 1b"
		     : "=&r"(t), "+m"(counter) : "b"(&counter), "r"(n)
		     : "cr0", "memory");
#endif
}

static void on_rt(int sig)
{
	(void)sig;
	cas_add(500);
	__atomic_fetch_add(&counter, 500, __ATOMIC_SEQ_CST);
	handled++;
}

static void *worker(void *arg)
{
	int i;

	for (i = 0; i < ADDS; i++) {
		if (i & 1)
			cas_add(1);
		else
			__atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
	}
	while (handled < SIGS)
		sched_yield();
	done_sigs[(long)arg] = handled;
	return NULL;
}

TT_MAIN
{
	pthread_t t[2];
	union sigval v;
	int i, k;

	tt_handle_plain(SIGRTMIN + 1, on_rt, 0);
	for (i = 0; i < 2; i++)
		tt_check(!pthread_create(&t[i], NULL, worker, (void *)(long)i));
	v.sival_int = 0;
	for (k = 0; k < SIGS; k++)
		for (i = 0; i < 2; i++)
			tt_check(!pthread_sigqueue(t[i], SIGRTMIN + 1, v));
	for (i = 0; i < 2; i++)
		tt_check(!pthread_join(t[i], NULL));
	tt_say("signals handled: %d and %d; counter %lu (want %d)\n",
	       done_sigs[0], done_sigs[1], (unsigned long)counter,
	       2 * ADDS + 2 * SIGS * 1000);
	tt_check(done_sigs[0] == SIGS && done_sigs[1] == SIGS);
	tt_check(counter == 2 * ADDS + 2 * SIGS * 1000);
	tt_ok();
	return 0;
}
