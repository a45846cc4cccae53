// SPDX-License-Identifier: GPL-2.0
/*
 * thr_tls: thread-local storage. 6 threads and main each check their
 * initialised (.tdata) and zeroed (.tbss) __thread variables, fill them
 * with their own values, meet at a barrier (so all are alive and have
 * written), and check their own values again after a sched_yield(). The
 * offset of a __thread variable from the thread pointer (x86 fs base,
 * POWER r13) must be the same in every thread, and different threads'
 * copies must not coincide. x86: also a private gs base per thread
 * (arch_prctl ARCH_SET_GS) read back through %gs:. Each thread also
 * sets a pthread key whose destructor runs at its exit: 6 runs with the
 * right values.
 *
 * Catches: a tracer that clobbers or mixes up the thread pointer (fs/gs
 * base, r13) of stepped threads, e.g. when it saves/restores registers
 * or emulates an instruction, or switches them between threads.
 */
#include "../tt.h"
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#if defined(__x86_64__)
#include <asm/prctl.h>
#endif

#define N	6

static __thread int tdata = 1234;
static __thread long tbss[8];
static __thread const char *tname = "initial";
static pthread_barrier_t bar;
static pthread_key_t key;
static long destructed, destructed_sum;
static uintptr_t addr[N + 1];
static long offset[N + 1];
static int ok[N + 1];

static uintptr_t thread_pointer(void)
{
	uintptr_t tp;

#if defined(__x86_64__)
	asm volatile("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__powerpc64__)
	asm volatile("mr %0, 13" : "=r"(tp));
#endif
	return tp;
}

#if defined(__x86_64__)
static uint64_t gsarea[N + 1][2];

static int gs_check(int me)
{
	uint64_t v;

	gsarea[me][1] = 0x1000 + me;
	if (syscall(SYS_arch_prctl, ARCH_SET_GS, (unsigned long)gsarea[me]))
		return 0;
	sched_yield();
	asm volatile("mov %%gs:8, %0" : "=r"(v));
	return v == 0x1000u + me;
}
#else
static int gs_check(int me)
{
	(void)me;
	return 1;
}
#endif

static void destroy(void *v)
{
	__atomic_fetch_add(&destructed, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&destructed_sum, (long)v, __ATOMIC_SEQ_CST);
}

static void work(int me)
{
	int i, good = 1;

	good &= tdata == 1234 && !strcmp(tname, "initial");
	for (i = 0; i < 8; i++)
		good &= tbss[i] == 0;
	tdata = 100 * me;
	tname = me == N ? "main" : "worker";
	for (i = 0; i < 8; i++)
		tbss[i] = me * 10 + i;
	addr[me] = (uintptr_t)&tdata;
	offset[me] = (long)((uintptr_t)&tdata - thread_pointer());
	pthread_barrier_wait(&bar);
	sched_yield();
	good &= gs_check(me);
	good &= tdata == 100 * me;
	good &= !strcmp(tname, me == N ? "main" : "worker");
	for (i = 0; i < 8; i++)
		good &= tbss[i] == me * 10 + i;
	pthread_barrier_wait(&bar);
	ok[me] = good;
}

static void *worker(void *arg)
{
	int me = (long)arg;

	tt_check(!pthread_setspecific(key, (void *)(long)(me + 1)));
	work(me);
	return NULL;
}

TT_MAIN
{
	pthread_t t[N];
	int i, j, distinct = 1, same_off = 1;

	tt_check(!pthread_barrier_init(&bar, NULL, N + 1));
	tt_check(!pthread_key_create(&key, destroy));
	for (i = 0; i < N; i++)
		tt_check(!pthread_create(&t[i], NULL, worker, (void *)(long)i));
	work(N);
	for (i = 0; i < N; i++)
		tt_check(!pthread_join(t[i], NULL));
	for (i = 0; i <= N; i++) {
		tt_say("thread %d: own tls values kept: %s\n", i,
		       ok[i] ? "yes" : "no");
		for (j = 0; j < i; j++)
			distinct &= addr[i] != addr[j];
		same_off &= offset[i] == offset[0];
	}
	tt_say("copies distinct: %s, same offset from thread pointer: %s\n",
	       distinct ? "yes" : "no", same_off ? "yes" : "no");
	tt_say("key destructors: %ld runs, values sum %ld\n", destructed,
	       destructed_sum);
	for (i = 0; i <= N; i++)
		tt_check(ok[i]);
	tt_check(distinct && same_off);
	tt_check(destructed == N && destructed_sum == N * (N + 1) / 2);
	tt_ok();
	return 0;
}
