// SPDX-License-Identifier: GPL-2.0
/*
 * atom_widths: atomic read-modify-writes of every width, by 2 threads
 * at once, 200 rounds each. x86: lock xadd on 1/2/4/8 bytes, lock
 * cmpxchg loops on 1/2/4/8 bytes, an xchg spinlock around a plain
 * counter, and lock cmpxchg16b on a 16-byte pair. POWER: load-reserve /
 * store-conditional loops lbarx/stbcx., lharx/sthcx., lwarx/stwcx.,
 * ldarx/stdcx., and from the main thread alone lqarx/stqcx. (POWER8,
 * each add tried at most 8 times: qemu 7.2 fails every stqcx.). Prints
 * the final counts, which are fixed (2 * 200 adds; the byte one wraps).
 *
 * Catches: a tracer that breaks atomicity when it steps or emulates a
 * locked instruction (lost updates), or, on POWER, steps inside a
 * larx..stcx. window so that the stcx. always fails (the program then
 * never ends) or that lets a store slip in between.
 */
#include "../tt_thr.h"
#include <stdint.h>

#define ROUNDS	200

static uint8_t c8;
static uint16_t c16;
static uint32_t c32;
static uint64_t c64;
static uint64_t pair[2] __attribute__((aligned(16)));
static pthread_barrier_t bar;

#if defined(__x86_64__)
static uint8_t x8;
static uint16_t x16;
static uint32_t x32;
static uint64_t x64;
static int lock;
static long plain;

#define CAS_ADD(p) do {							\
	__typeof__(*(p)) o = __atomic_load_n(p, __ATOMIC_RELAXED);	\
	while (!__atomic_compare_exchange_n(p, &o, o + 1, 0,		\
					    __ATOMIC_SEQ_CST,		\
					    __ATOMIC_RELAXED))		\
		;							\
} while (0)

static void one_round(void)
{
	uint8_t v8 = 1;
	uint16_t v16 = 1;
	uint32_t v32 = 1;
	uint64_t v64 = 1, lo, hi;
	int one;

	asm volatile("lock xaddb %0, %1" : "+q"(v8), "+m"(c8));
	asm volatile("lock xaddw %0, %1" : "+r"(v16), "+m"(c16));
	asm volatile("lock xaddl %0, %1" : "+r"(v32), "+m"(c32));
	asm volatile("lock xaddq %0, %1" : "+r"(v64), "+m"(c64));
	CAS_ADD(&x8);
	CAS_ADD(&x16);
	CAS_ADD(&x32);
	CAS_ADD(&x64);
	do {
		one = 1;
		asm volatile("xchg %0, %1" : "+r"(one), "+m"(lock)
			     : : "memory");
	} while (one);
	plain++;
	__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);

	lo = pair[0];
	hi = pair[1];
	for (;;) {
		uint64_t nlo = lo + 1, nhi = hi + 2;
		unsigned char ok;

		asm volatile("lock cmpxchg16b %1\n\t"
			     "sete %0"
			     : "=q"(ok), "+m"(pair), "+a"(lo), "+d"(hi)
			     : "b"(nlo), "c"(nhi)
			     : "cc", "memory");
		if (ok)
			break;
	}
}

static void report(void)
{
	tt_say("xadd: b %u w %u l %u q %lu\n", c8, c16, c32,
	       (unsigned long)c64);
	tt_say("cmpxchg: b %u w %u l %u q %lu\n", x8, x16, x32,
	       (unsigned long)x64);
	tt_say("xchg lock: %ld\n", plain);
	tt_say("cmpxchg16b: lo %lu hi %lu\n", (unsigned long)pair[0],
	       (unsigned long)pair[1]);
	tt_check(c8 == (uint8_t)400 && c16 == 400 && c32 == 400 && c64 == 400);
	tt_check(x8 == (uint8_t)400 && x16 == 400 && x32 == 400 &&
		 x64 == 400);
	tt_check(plain == 400 && pair[0] == 400 && pair[1] == 800);
}
#elif defined(__powerpc64__)
#define LARX_ADD(larx, stcx, p) do {					\
	unsigned long t;						\
	asm volatile(".machine push\n\t"				\
		     ".machine power8\n"				\
		     "1:\t" larx " %0, 0, %2\n\t"			\
		     "addi %0, %0, 1\n\t"				\
		     stcx " %0, 0, %2\n\t"				\
		     "bne- 1b\n\t"					\
		     ".machine pop"					\
		     : "=&b"(t), "+m"(*(p)) : "b"(p) : "cr0", "memory");\
} while (0)

/*
 * lqarx/stqcx. once (an even/odd register pair: r8:r9): whether the
 * store went through. Not a loop: Debian 12's qemu (7.2) fails every
 * stqcx., and a retry loop would never end there.
 */
static int lq_add_once(void)
{
	unsigned long cr;

	asm volatile(".machine push\n\t"
		     ".machine power8\n\t"
		     "lqarx 8, 0, %2\n\t"
		     "addi 8, 8, 1\n\t"
		     "addi 9, 9, 1\n\t"
		     "stqcx. 8, 0, %2\n\t"
		     "mfcr %1\n\t"
		     ".machine pop"
		     : "+m"(pair), "=r"(cr) : "b"(pair)
		     : "r8", "r9", "cr0", "memory");
	return !!(cr & 0x20000000);	/* cr0.eq: stored */
}

static int lq_fails;	/* quadword adds whose 8 tries all failed */

/* main thread only: nobody else touches pair, so a try fails only here */
static void lq_rounds(void)
{
	int i, n;

	for (i = 0; i < 2 * ROUNDS; i++) {
		for (n = 0; n < 8 && !lq_add_once(); n++)
			;
		lq_fails += n == 8;
	}
}

static void one_round(void)
{
	LARX_ADD("lbarx", "stbcx.", &c8);
	LARX_ADD("lharx", "sthcx.", &c16);
	LARX_ADD("lwarx", "stwcx.", &c32);
	LARX_ADD("ldarx", "stdcx.", &c64);
}

static void report(void)
{
	lq_rounds();
	tt_say("larx/stcx.: b %u h %u w %u d %lu\n", c8, c16, c32,
	       (unsigned long)c64);
	tt_check(c8 == (uint8_t)400 && c16 == 400 && c32 == 400 && c64 == 400);
	if (lq_fails == 2 * ROUNDS && !pair[0] && !pair[1]) {
		tt_say("lqarx/stqcx.: every stqcx. fails here (an emulator)\n");
		return;
	}
	tt_say("lqarx/stqcx.: %lu %lu\n", (unsigned long)pair[0],
	       (unsigned long)pair[1]);
	tt_check(!lq_fails && pair[0] == 400 && pair[1] == 400);
}
#endif

static void *hammer(void *arg)
{
	int i;

	(void)arg;
	pthread_barrier_wait(&bar);
	for (i = 0; i < ROUNDS; i++)
		one_round();
	return NULL;
}

TT_MAIN
{
	tt_check(!pthread_barrier_init(&bar, NULL, 2));
	tt_run_threads(2, hammer);
	report();
	tt_ok();
	return 0;
}
