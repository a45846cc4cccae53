// SPDX-License-Identifier: GPL-2.0
/*
 * thr_affinity: threads moved between CPUs. With two CPUs allowed
 * (the first two of the affinity mask), main and a thread each pin
 * themselves alternately to one and the other, 10 times, and check
 * after each sched_setaffinity() that they now run there (sched_getcpu;
 * the kernel migrates a task off a CPU it may no longer use before the
 * call returns). Then main moves a third thread while it sleeps in a
 * futex wait, 6 times, and the thread checks where it woke up. Prints
 * only whether every move held. With one CPU allowed (a 1-CPU box):
 * a fixed line, and the pinning to that one CPU checked.
 *
 * Catches: per-CPU tracing state that does not follow a migrating task
 * (x86 DEBUGCTL.BTF for block steps, POWER MSR bits, a per-CPU buffer
 * or slot lookup): a step lost or taken on the wrong CPU after a move.
 */
#include "../tt.h"
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>

#define MOVES	10
#define REMOTE	6

static int cpu[2];

static int pin(pid_t tid, int c)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(c, &s);
	return sched_setaffinity(tid, sizeof(s), &s);
}

static int moves(int first)
{
	int i, held = 0, c;

	for (i = 0; i < MOVES; i++) {
		c = cpu[(first + i) & 1];
		if (pin(0, c) == 0 && sched_getcpu() == c)
			held++;
	}
	return held;
}

static void *mover(void *arg)
{
	return (void *)(long)moves((long)arg);
}

static int word, tid, woke_right;

static void *sleeper(void *arg)
{
	int i, v;

	(void)arg;
	__atomic_store_n(&tid, (int)syscall(SYS_gettid), __ATOMIC_RELEASE);
	for (i = 1; i <= REMOTE; i++) {
		while ((v = __atomic_load_n(&word, __ATOMIC_ACQUIRE)) < 2 * i - 1)
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, v, NULL,
				NULL, 0);
		if (sched_getcpu() == cpu[i & 1])
			woke_right++;
		__atomic_store_n(&word, 2 * i, __ATOMIC_RELEASE);
		syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
	return NULL;
}

static void remote(void)
{
	pthread_t t;
	int i, v, pinned = 0;

	tt_check(!pthread_create(&t, NULL, sleeper, NULL));
	while (!__atomic_load_n(&tid, __ATOMIC_ACQUIRE))
		sched_yield();
	for (i = 1; i <= REMOTE; i++) {
		pinned += pin(tid, cpu[i & 1]) == 0;
		__atomic_store_n(&word, 2 * i - 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		while ((v = __atomic_load_n(&word, __ATOMIC_ACQUIRE)) != 2 * i)
			syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, v, NULL,
				NULL, 0);
	}
	tt_check(!pthread_join(t, NULL));
	tt_say("moved while asleep: %d of %d, woke on the new CPU: %s\n",
	       pinned, REMOTE, woke_right == REMOTE ? "every time" : "not always");
	tt_check(pinned == REMOTE && woke_right == REMOTE);
}

TT_MAIN
{
	cpu_set_t s;
	pthread_t t;
	void *ret;
	int i, n = 0, mine;

	tt_sys(sched_getaffinity(0, sizeof(s), &s));
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &s))
			cpu[n++] = i;
	tt_check(n >= 1);
	if (n < 2) {
		tt_say("one CPU allowed: no moves\n");
		tt_check(pin(0, cpu[0]) == 0 && sched_getcpu() == cpu[0]);
		tt_ok();
		return 0;
	}
	tt_check(!pthread_create(&t, NULL, mover, (void *)1L));
	mine = moves(0);
	tt_check(!pthread_join(t, &ret));
	tt_say("main: %d moves, all held: %s\n", MOVES,
	       mine == MOVES ? "yes" : "no");
	tt_say("thread: %d moves, all held: %s\n", MOVES,
	       (long)ret == MOVES ? "yes" : "no");
	tt_check(mine == MOVES && (long)ret == MOVES);
	remote();
	tt_ok();
	return 0;
}
