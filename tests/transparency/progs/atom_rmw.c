// SPDX-License-Identifier: GPL-2.0
/*
 * atom_rmw: the atomic read-modify-writes beyond add and swap, hand
 * written, by 2 threads at once, 60 rounds each, on shared words.
 * x86: lock bts/btc/btr with a register bit offset past the first
 * quadword (the bit string addresses the word holding it), each one's
 * old bit (CF) checked; lock inc/dec, neg and not (an even number in
 * all: the value comes back), adc/sbb with CF set, xor of a halfword,
 * an fs:-relative lock inc of a thread-local word, cmpxchg8b adding to
 * both halves, and the failure paths of cmpxchg and cmpxchg16b (the
 * current value comes back in rax / rdx:rax). POWER: the same done in
 * ldarx/lwarx/lharx..stcx. loops: or/andc/xor for the bits (old bit
 * checked), addi, neg, nor, adde/addme with XER[CA] set inside the
 * window, a cr7 compare inside it, lwarx with the EH hint, and a
 * compare-and-swap that branches out before its stcx. (no store).
 *
 * Catches: a tracer that breaks atomicity or the flags/CR/XER results
 * of these instructions when it steps them, decodes their memory
 * operand wrongly (bit offset, segment prefix), or, on POWER, emulates
 * a larx..stcx. window and gets its arithmetic or carry wrong.
 */
#include "../tt_thr.h"
#include <stdint.h>

#define R	60

static uint64_t bits[4];
static uint64_t incdec, neg = 12345, adc, cx8 __attribute__((aligned(8)));
static uint32_t not32 = 0xdeadbeef, sbb32 = 1000;
static uint16_t xor16;
static int flag_errors;
static pthread_barrier_t bar;
static __thread uint32_t tls_count;

static void bad(void)
{
	__atomic_fetch_add(&flag_errors, 1, __ATOMIC_SEQ_CST);
}

#if defined(__x86_64__)
#define BITOP(insn, bit) ({						\
	unsigned char cf;						\
	asm volatile("lock " insn "q %2, %1\n\tsetc %0"			\
		     : "=q"(cf), "+m"(bits) : "r"((long)(bit)) : "cc");	\
	cf; })

static void bit_round(int bit)
{
	if (BITOP("bts", bit) != 0)
		bad();
	if (BITOP("btc", bit) != 1)
		bad();
	if (BITOP("btc", bit) != 0)
		bad();
	if (BITOP("btr", bit) != 1)
		bad();
	if (BITOP("bts", bit) != 0)
		bad();
}

static void arith_round(int me, int k)
{
	uint32_t lo, hi;

	asm volatile("lock incq %0" : "+m"(incdec) : : "cc");
	if (k & 1)
		asm volatile("lock decq %0" : "+m"(incdec) : : "cc");
	asm volatile("lock negq %0" : "+m"(neg) : : "cc");
	asm volatile("lock notl %0" : "+m"(not32));
	asm volatile("stc\n\tlock adcq $0, %0" : "+m"(adc) : : "cc");
	asm volatile("stc\n\tlock sbbl $0, %0" : "+m"(sbb32) : : "cc");
	asm volatile("lock xorw %1, %0" : "+m"(xor16) : "r"((uint16_t)(0x101 << me)) : "cc");
	lo = (uint32_t)cx8;
	hi = cx8 >> 32;
	for (;;) {
		unsigned char ok;

		asm volatile("lock cmpxchg8b %1\n\tsete %0"
			     : "=q"(ok), "+m"(cx8), "+a"(lo), "+d"(hi)
			     : "b"(lo + 1), "c"(hi + 2) : "cc", "memory");
		if (ok)
			break;
	}
}

/* lock incl %fs:off: this thread's tls_count through the segment */
static void tls_inc(void)
{
	uintptr_t fs0;
	long off;

	asm volatile("mov %%fs:0, %0" : "=r"(fs0));
	off = (long)((uintptr_t)&tls_count - fs0);
	asm volatile("lock incl %%fs:(%1)" : "+m"(tls_count) : "r"(off) : "cc");
}

/* failure paths: the current value comes back */
static int fail_paths(void)
{
	uint64_t v = 77, rax = 5, pair[2] __attribute__((aligned(16))) = { 11, 22 };
	uint64_t lo = 1, hi = 2;
	unsigned char z1, z2;

	asm volatile("lock cmpxchgq %3, %1\n\tsete %0"
		     : "=q"(z1), "+m"(v), "+a"(rax) : "r"(99UL) : "cc");
	asm volatile("lock cmpxchg16b %1\n\tsete %0"
		     : "=q"(z2), "+m"(pair), "+a"(lo), "+d"(hi)
		     : "b"(33UL), "c"(44UL) : "cc", "memory");
	return !z1 && rax == 77 && v == 77 && !z2 && lo == 11 && hi == 22 &&
	       pair[0] == 11 && pair[1] == 22;
}
#elif defined(__powerpc64__)
/* old value; body computes %1 (new) from %0 (old) and %4 */
#define RMW(larx, stcx, p, body, arg) ({				\
	unsigned long o, n;						\
	asm volatile(".machine push\n\t.machine power8\n"		\
		     "1:\t" larx " %0, 0, %3\n\t"			\
		     body "\n\t"					\
		     stcx " %1, 0, %3\n\t"				\
		     "bne- 1b\n\t.machine pop"				\
		     : "=&r"(o), "=&r"(n), "+m"(*(p))			\
		     : "b"(p), "r"(arg)					\
		     : "cr0", "cr7", "xer", "memory");			\
	o; })

static int bitop(const char *op, int bit)
{
	uint64_t *w = &bits[bit / 64], m = 1UL << (bit % 64), o = 0;

	if (!strcmp(op, "set"))
		o = RMW("ldarx", "stdcx.", w, "or %1, %0, %4", m);
	else if (!strcmp(op, "clear"))
		o = RMW("ldarx", "stdcx.", w, "andc %1, %0, %4", m);
	else
		o = RMW("ldarx", "stdcx.", w, "xor %1, %0, %4", m);
	return !!(o & m);
}

static void bit_round(int bit)
{
	if (bitop("set", bit) != 0)
		bad();
	if (bitop("toggle", bit) != 1)
		bad();
	if (bitop("toggle", bit) != 0)
		bad();
	if (bitop("clear", bit) != 1)
		bad();
	if (bitop("set", bit) != 0)
		bad();
}

static void arith_round(int me, int k)
{
	/* inc with a cr7 compare inside the window */
	RMW("ldarx", "stdcx.", &incdec, "addi %1, %0, 1\n\tcmpdi 7, %1, 0", 0);
	if (k & 1)
		RMW("ldarx", "stdcx.", &incdec, "addi %1, %0, -1", 0);
	RMW("ldarx", "stdcx.", &neg, "neg %1, %0", 0);
	RMW("lwarx", "stwcx.", &not32, "nor %1, %0, %0", 0);
	/* CA = 1 (1 + -1 carries), then old + 0 + CA */
	RMW("ldarx", "stdcx.", &adc, "li %1, 1\n\taddic %1, %1, -1\n\tadde %1, %0, %4", 0);
	/* CA = 0 (0 + 0), then old + CA - 1 */
	RMW("lwarx", "stwcx.", &sbb32, "li %1, 0\n\taddic %1, %1, 0\n\taddme %1, %0", 0);
	RMW("lharx", "sthcx.", &xor16, "xor %1, %0, %4", 0x101 << me);
	/* lwarx with EH=1 on the low word of cx8: +1, then the high word +2 */
	RMW("lwarx %0, 0, %3, 1\n\t#", "stwcx.", (uint32_t *)&cx8, "addi %1, %0, 1", 0);
	RMW("lwarx", "stwcx.", (uint32_t *)&cx8 + 1, "addi %1, %0, 2", 0);
}

static void tls_inc(void)
{
	RMW("lwarx", "stwcx.", &tls_count, "addi %1, %0, 1", 0);
}

/* compare-and-swap whose compare fails: branches out, stores nothing */
static int fail_paths(void)
{
	uint32_t v = 77, cur;
	unsigned long cr;

	asm volatile("1:\tlwarx %0, 0, %3\n\t"
		     "cmpw %0, %4\n\t"
		     "bne- 2f\n\t"
		     "stwcx. %5, 0, %3\n\t"
		     "bne- 1b\n"
		     "2:\tmfcr %1"
		     : "=&r"(cur), "=r"(cr), "+m"(v)
		     : "b"(&v), "r"(5), "r"(99)
		     : "cr0", "memory");
	return cur == 77 && v == 77 && !(cr & 0x20000000);
}
#endif

static int fails_ok[2];

static void *worker(void *arg)
{
	int me = (long)arg, k;

	pthread_barrier_wait(&bar);
	for (k = 0; k < R; k++) {
		bit_round(4 * k + 2 * me);
		arith_round(me, k);
		tls_inc();
	}
	/* one more xor: R + 1 in all, this thread's bits end set */
#if defined(__x86_64__)
	asm volatile("lock xorw %1, %0" : "+m"(xor16) : "r"((uint16_t)(0x101 << me)) : "cc");
#elif defined(__powerpc64__)
	RMW("lharx", "sthcx.", &xor16, "xor %1, %0, %4", 0x101 << me);
#endif
	if (tls_count != R)
		bad();
	fails_ok[me] = fail_paths();
	return NULL;
}

TT_MAIN
{
	int i;

	tt_check(!pthread_barrier_init(&bar, NULL, 2));
	tt_run_threads(2, worker);
	tt_say("bits: %016lx %016lx %016lx %016lx, old-bit errors %d\n",
	       (unsigned long)bits[0], (unsigned long)bits[1],
	       (unsigned long)bits[2], (unsigned long)bits[3], flag_errors);
	tt_say("inc/dec %lu, neg %lu, not %x, adc %lu, sbb %u, xor %x\n",
	       (unsigned long)incdec, (unsigned long)neg, not32,
	       (unsigned long)adc, sbb32, xor16);
	tt_say("pair: low %u high %u; failed compares left things alone: %s %s\n",
	       (uint32_t)cx8, (uint32_t)(cx8 >> 32),
	       fails_ok[0] ? "yes" : "no", fails_ok[1] ? "yes" : "no");
	tt_check(!flag_errors);
	for (i = 0; i < 3; i++)
		tt_check(bits[i] == 0x5555555555555555UL);
	tt_check(bits[3] == 0x0000555555555555UL);
	tt_check(incdec == 2 * (R - R / 2) && neg == 12345 &&
		 not32 == 0xdeadbeef);
	tt_check(adc == 2 * R && sbb32 == 1000 - 2 * R && xor16 == 0x303);
	tt_check((uint32_t)cx8 == 2 * R && (cx8 >> 32) == 4 * R);
	tt_check(fails_ok[0] && fails_ok[1]);
	tt_ok();
	return 0;
}
