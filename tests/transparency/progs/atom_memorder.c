// SPDX-License-Identifier: GPL-2.0
/*
 * atom_memorder: GCC's __atomic builtins with every memory order, which
 * on POWER changes the barriers around each larx/stcx. loop (lwsync,
 * sync, isync, none) and on x86 picks between plain moves, xchg and
 * mfence. 2 threads, 30 rounds: fetch_add/add_fetch/fetch_sub/
 * sub_fetch/fetch_or/fetch_and with each of relaxed, consume, acquire,
 * release, acq_rel, seq_cst; exchange with each (the values swapped out
 * plus the last one sum to all put in); compare_exchange strong and
 * weak with 5 success/failure pairs; the generic (non-_n) forms on an
 * 8-byte struct; loads and stores of each valid order passing a value
 * between the threads; thread and signal fences of each order. Single
 * threaded: fetch_nand/nand_fetch. Prints the totals.
 *
 * Catches: a tracer that mis-steps or mis-emulates an atomic sequence
 * once its barriers change (a larx window starting or ending with a
 * barrier, isync after the stcx.), losing updates or hanging.
 */
#include "../tt_thr.h"
#include <stdint.h>

#define ROUNDS	30

static uint64_t c64;
static uint32_t c32, bits;
static uint64_t xchg_slot, xchg_out;
static uint32_t cas;
static struct pair { uint32_t a, b; } gp;
static uint32_t mailbox[2], seen_bad;
static pthread_barrier_t bar;

#define ALL_ORDERS(X)	X(__ATOMIC_RELAXED) X(__ATOMIC_CONSUME)		\
			X(__ATOMIC_ACQUIRE) X(__ATOMIC_RELEASE)		\
			X(__ATOMIC_ACQ_REL) X(__ATOMIC_SEQ_CST)

static void rmw_all_orders(int me)
{
	uint32_t mine = 1u << me;
	uint64_t o;

#define RMW(order)							\
	__atomic_fetch_add(&c64, 1, order);				\
	__atomic_add_fetch(&c64, 2, order);				\
	__atomic_fetch_sub(&c32, 1, order);				\
	__atomic_sub_fetch(&c32, 2, order);				\
	__atomic_fetch_or(&bits, mine << 8, order);			\
	__atomic_fetch_and(&bits, ~(mine << 16), order);		\
	o = __atomic_exchange_n(&xchg_slot, (uint64_t)(me + 1), order);	\
	__atomic_fetch_add(&xchg_out, o, __ATOMIC_RELAXED);		\
	__atomic_thread_fence(order);					\
	__atomic_signal_fence(order);
	ALL_ORDERS(RMW)
#undef RMW
}

static void cas_add(uint32_t add, int weak, int s, int f)
{
	uint32_t o = __atomic_load_n(&cas, __ATOMIC_RELAXED);

	while (!__atomic_compare_exchange_n(&cas, &o, o + add, weak, s, f))
		;
}

static void cas_all_orders(void)
{
	struct pair o, n;
	int w;

	for (w = 0; w < 2; w++) {
		cas_add(1, w, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
		cas_add(1, w, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		cas_add(1, w, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
		cas_add(1, w, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE);
		cas_add(1, w, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	}
	/* generic forms on an 8-byte struct: a += 1, b += 2 together */
	__atomic_load(&gp, &o, __ATOMIC_ACQUIRE);
	do {
		n.a = o.a + 1;
		n.b = o.b + 2;
	} while (!__atomic_compare_exchange(&gp, &o, &n, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_ACQUIRE));
}

/* thread 0 stores round numbers with each store order, thread 1 loads */
static void put(int k)
{
	if (k % 3 == 0)
		__atomic_store_n(&mailbox[0], k + 1, __ATOMIC_RELAXED);
	else if (k % 3 == 1)
		__atomic_store_n(&mailbox[0], k + 1, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&mailbox[0], k + 1, __ATOMIC_SEQ_CST);
}

static void look(int k)
{
	uint32_t v = 0;

	switch (k % 4) {
	case 0:
		v = __atomic_load_n(&mailbox[0], __ATOMIC_RELAXED);
		break;
	case 1:
		v = __atomic_load_n(&mailbox[0], __ATOMIC_CONSUME);
		break;
	case 2:
		v = __atomic_load_n(&mailbox[0], __ATOMIC_ACQUIRE);
		break;
	default:
		__atomic_load(&mailbox[0], &v, __ATOMIC_SEQ_CST);
	}
	if (v != (uint32_t)k + 1)
		seen_bad++;
	__atomic_store(&mailbox[1], &v, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	int me = (long)arg, k;

	for (k = 0; k < ROUNDS; k++) {
		rmw_all_orders(me);
		cas_all_orders();
		if (me == 0)
			put(k);
		pthread_barrier_wait(&bar);
		if (me == 1)
			look(k);
		pthread_barrier_wait(&bar);
	}
	return NULL;
}

TT_MAIN
{
	uint64_t want_xchg;
	uint32_t n = 0xff;
	int i;

	c32 = 100000;
	bits = 0x00030000;
	tt_check(!pthread_barrier_init(&bar, NULL, 2));
	tt_run_threads(2, worker);
	want_xchg = ROUNDS * 6 * (1 + 2);
	tt_say("fetch/op_fetch, 6 orders: add %lu, sub %u, or/and %08x\n",
	       (unsigned long)c64, c32, bits);
	tt_say("exchange: out plus left %lu (want %lu)\n",
	       (unsigned long)(xchg_out + xchg_slot), (unsigned long)want_xchg);
	tt_say("compare_exchange, 10 kinds: %u; generic on a pair: %u %u\n",
	       cas, gp.a, gp.b);
	tt_say("loads of each order saw the stored round: %s\n",
	       seen_bad ? "no" : "yes");
	tt_check(c64 == 2 * ROUNDS * 6 * 3);
	tt_check(c32 == 100000 - 2 * ROUNDS * 6 * 3 && bits == 0x300);
	tt_check(xchg_out + xchg_slot == want_xchg);
	tt_check(cas == 2 * ROUNDS * 10 && gp.a == 2 * ROUNDS &&
		 gp.b == 4 * ROUNDS && !seen_bad);

	__atomic_fetch_nand(&n, 0x0f, __ATOMIC_SEQ_CST);	/* ~(0x0f) */
	i = __atomic_nand_fetch(&n, 0xf0, __ATOMIC_ACQ_REL);	/* ~(0xf0) */
	tt_say("nand: %08x %08x; always lock free 1 2 4 8: %d %d %d %d\n",
	       n, (uint32_t)i, __atomic_always_lock_free(1, 0),
	       __atomic_always_lock_free(2, 0),
	       __atomic_always_lock_free(4, 0),
	       __atomic_always_lock_free(8, 0));
	tt_check(n == 0xffffff0f && (uint32_t)i == n);
	tt_ok();
	return 0;
}
