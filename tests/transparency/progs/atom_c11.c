// SPDX-License-Identifier: GPL-2.0
/*
 * atom_c11: C11 <stdatomic.h> read-modify-writes on 1, 2, 4 and 8-byte
 * atomics by 4 threads at once, 40 rounds each, with exact results:
 * fetch_add with the old value used (the olds are 0..159 in some order:
 * their sum is fixed) and fetch_sub with it unused (GCC emits different
 * code for each), fetch_or / fetch_and of each thread's own bits, fetch_xor 41 times (odd: the bits end set),
 * exchange (the values swapped out plus the last one left sum to all
 * put in), and compare_exchange strong and weak retry loops.
 *
 * Catches: lost updates when a tracer steps or emulates the locked
 * instructions (x86: lock add/sub/or/and/xor/xadd/cmpxchg/xchg) or the
 * load-reserve/store-conditional loops GCC emits for every width on
 * POWER (l[bhwd]arx/st[bhwd]cx.), including the byte and halfword ones
 * whose neighbours in the same word change at the same time.
 */
#include "../tt_thr.h"
#include <stdatomic.h>
#include <stdint.h>

#define N	4
#define ROUNDS	40

/* one set of counters per width, neighbours in memory on purpose */
#define SET(T, name) \
	static struct { \
		_Atomic T add, sub, or_, and_, xor_, xchg, cas, casw; \
	} name

SET(uint8_t, s8);
SET(uint16_t, s16);
SET(uint32_t, s32);
SET(uint64_t, s64);
static atomic_long add_olds, used_sum, xchg_out;
static pthread_barrier_t bar;

/* thread me's bits in a T of B bits: B/N bits each */
#define MYBITS(T, B, me) ((T)((((uint64_t)1 << ((B) / N)) - 1) << ((me) * (B) / N)))

#define ROUND(S, T, B, me, k) do {					\
	T o, mine = MYBITS(T, B, me);					\
	atomic_fetch_add(&add_olds, (long)atomic_fetch_add(&S.add, 1));	\
	atomic_fetch_sub(&S.sub, 1);					\
	if (k == 0)							\
		atomic_fetch_or(&S.or_, mine);				\
	if (k == 1)							\
		atomic_fetch_add(&used_sum,				\
			(atomic_fetch_and(&S.and_, (T)~mine) & mine) != mine); \
	atomic_fetch_xor(&S.xor_, mine);				\
	atomic_fetch_add(&xchg_out, atomic_exchange(&S.xchg, (T)(me + 1)));\
	o = atomic_load(&S.cas);					\
	while (!atomic_compare_exchange_strong(&S.cas, &o, (T)(o + 3)))	\
		;							\
	o = atomic_load(&S.casw);					\
	while (!atomic_compare_exchange_weak(&S.casw, &o, (T)(o + 5)))	\
		;							\
} while (0)

static void *worker(void *arg)
{
	int me = (long)arg, k;

	pthread_barrier_wait(&bar);
	for (k = 0; k < ROUNDS; k++) {
		ROUND(s8, uint8_t, 8, me, k);
		ROUND(s16, uint16_t, 16, me, k);
		ROUND(s32, uint32_t, 32, me, k);
		ROUND(s64, uint64_t, 64, me, k);
	}
	/* one more xor: 41 in all, the bits end set */
	atomic_fetch_xor(&s8.xor_, MYBITS(uint8_t, 8, me));
	atomic_fetch_xor(&s16.xor_, MYBITS(uint16_t, 16, me));
	atomic_fetch_xor(&s32.xor_, MYBITS(uint32_t, 32, me));
	atomic_fetch_xor(&s64.xor_, MYBITS(uint64_t, 64, me));
	return NULL;
}

#define INIT(S, T) do {							\
	atomic_init(&S.sub, (T)10000);					\
	atomic_init(&S.and_, (T)~(T)0);					\
} while (0)

#define REPORT(S, T, B) do {						\
	T all = (T)~(T)0, m = (T)(10000 - N * ROUNDS);			\
	long xs = atomic_load(&S.xchg);					\
	tt_say("%2d-bit: add %llu sub %llu or %llx and %llx xor %llx cas %llu casw %llu\n", \
	       B, (unsigned long long)S.add, (unsigned long long)S.sub, \
	       (unsigned long long)S.or_, (unsigned long long)S.and_,	\
	       (unsigned long long)S.xor_, (unsigned long long)S.cas,	\
	       (unsigned long long)S.casw);				\
	tt_check(S.add == (T)(N * ROUNDS) && S.sub == m);		\
	tt_check(S.or_ == all && S.and_ == 0 && S.xor_ == all);		\
	tt_check(S.cas == (T)(3 * N * ROUNDS));				\
	tt_check(S.casw == (T)(5 * N * ROUNDS));			\
	xchg_total += xs;						\
} while (0)

TT_MAIN
{
	long xchg_total, want;

	INIT(s8, uint8_t);
	INIT(s16, uint16_t);
	INIT(s32, uint32_t);
	INIT(s64, uint64_t);
	tt_check(!pthread_barrier_init(&bar, NULL, N));
	tt_run_threads(N, worker);
	xchg_total = atomic_load(&xchg_out);
	REPORT(s8, uint8_t, 8);
	REPORT(s16, uint16_t, 16);
	REPORT(s32, uint32_t, 32);
	REPORT(s64, uint64_t, 64);
	/* each thread put me+1 in ROUNDS times per width; 4 widths */
	want = 4L * ROUNDS * (N * (N + 1) / 2);
	tt_say("exchange: out plus left %ld (want %ld), and-checks failed %ld\n",
	       xchg_total, want, (long)atomic_load(&used_sum));
	tt_check(xchg_total == want && atomic_load(&used_sum) == 0);
	tt_say("fetch_add old values: sum %ld\n", (long)atomic_load(&add_olds));
	tt_check(atomic_load(&add_olds) == 4L * (N * ROUNDS) * (N * ROUNDS - 1) / 2);
	tt_ok();
	return 0;
}
