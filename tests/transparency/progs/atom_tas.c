// SPDX-License-Identifier: GPL-2.0
/*
 * atom_tas: test-and-set spinlocks on single bytes, four of them side by
 * side in one aligned word, each guarding a plain counter, taken by 3
 * threads 40 times each (a waiter sched_yield()s). Lock 0: GCC's
 * __atomic_test_and_set/__atomic_clear. Lock 1: hand-written, x86 xchgb,
 * POWER lbarx/stbcx. then isync, released by lwsync and a plain stb.
 * Lock 2: hand-written compare-and-swap, x86 lock cmpxchgb, POWER lbarx,
 * compare, a branch out of the window when the lock is held, stbcx.
 * Lock 3: C11 atomic_flag. Each counter must end at 120.
 *
 * Catches: byte-wide atomics that are not atomic under tracing: on
 * POWER an emulated stbcx. that is really a swap of the word around the
 * byte must not lose a neighbour's concurrent change; a larx whose
 * window is left by a branch must not leave a reservation that a later
 * stcx. uses; on x86 a stepped xchg/cmpxchg must stay locked.
 */
#include "../tt_thr.h"
#include <stdatomic.h>
#include <stdint.h>

#define N	3
#define ITERS	40

static union {
	uint32_t word;
	uint8_t b[4];
	atomic_flag f[4];
} lk __attribute__((aligned(4)));
static volatile long count[4];
static pthread_barrier_t bar;

static int try0(void)
{
	return !__atomic_test_and_set(&lk.b[0], __ATOMIC_ACQUIRE);
}

static void rel0(void)
{
	__atomic_clear(&lk.b[0], __ATOMIC_RELEASE);
}

#if defined(__x86_64__)
static int try1(void)
{
	uint8_t v = 1;

	asm volatile("xchgb %0, %1" : "+q"(v), "+m"(lk.b[1]) : : "memory");
	return v == 0;
}

static void rel1(void)
{
	asm volatile("movb $0, %0" : "=m"(lk.b[1]) : : "memory");
}

static int try2(void)
{
	uint8_t expect = 0;
	unsigned char ok;

	asm volatile("lock cmpxchgb %3, %1\n\tsete %0"
		     : "=q"(ok), "+m"(lk.b[2]), "+a"(expect) : "q"((uint8_t)1)
		     : "cc", "memory");
	return ok;
}

static void rel2(void)
{
	__atomic_store_n(&lk.b[2], 0, __ATOMIC_RELEASE);
}
#elif defined(__powerpc64__)
/* lbarx/stbcx. swap in 1, then isync: the old value */
static int try1(void)
{
	unsigned long old, one = 1;

	asm volatile(".machine push\n\t.machine power8\n"
		     "1:\tlbarx %0, 0, %2\n\t"
		     "stbcx. %3, 0, %2\n\t"
		     "bne- 1b\n\t"
		     "isync\n\t.machine pop"
		     : "=&r"(old), "+m"(lk.b[1]) : "b"(&lk.b[1]), "r"(one)
		     : "cr0", "memory");
	return old == 0;
}

static void rel1(void)
{
	asm volatile("lwsync\n\tstb %1, %0" : "=m"(lk.b[1]) : "r"(0)
		     : "memory");
}

/* lbarx, held? leave the window by a branch; else stbcx. 1 */
static int try2(void)
{
	unsigned long old, one = 1;

	asm volatile(".machine push\n\t.machine power8\n"
		     "1:\tlbarx %0, 0, %2\n\t"
		     "cmpwi %0, 0\n\t"
		     "bne- 2f\n\t"
		     "stbcx. %3, 0, %2\n\t"
		     "bne- 1b\n\t"
		     "isync\n"
		     "2:\n\t.machine pop"
		     : "=&r"(old), "+m"(lk.b[2]) : "b"(&lk.b[2]), "r"(one)
		     : "cr0", "memory");
	return old == 0;
}

static void rel2(void)
{
	asm volatile("lwsync\n\tstb %1, %0" : "=m"(lk.b[2]) : "r"(0)
		     : "memory");
}
#endif

static int try3(void)
{
	return !atomic_flag_test_and_set_explicit(&lk.f[3],
						  memory_order_acquire);
}

static void rel3(void)
{
	atomic_flag_clear_explicit(&lk.f[3], memory_order_release);
}

static int (*const trylock[4])(void) = { try0, try1, try2, try3 };
static void (*const unlock[4])(void) = { rel0, rel1, rel2, rel3 };

static void *worker(void *arg)
{
	int i, l;

	(void)arg;
	pthread_barrier_wait(&bar);
	for (i = 0; i < ITERS; i++)
		for (l = 0; l < 4; l++) {
			while (!trylock[l]())
				sched_yield();
			count[l] = count[l] + 1;
			unlock[l]();
		}
	return NULL;
}

TT_MAIN
{
	int i;

	tt_check(sizeof(atomic_flag) == 1);
	tt_check(!pthread_barrier_init(&bar, NULL, N));
	tt_run_threads(N, worker);
	tt_say("counters: builtin %ld, swap %ld, cas %ld, atomic_flag %ld; lock word at end %08x\n",
	       count[0], count[1], count[2], count[3], lk.word);
	for (i = 0; i < 4; i++)
		tt_check(count[i] == N * ITERS);
	tt_check(lk.word == 0);
	tt_ok();
	return 0;
}
