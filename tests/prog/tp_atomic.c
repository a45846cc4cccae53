// SPDX-License-Identifier: GPL-2.0
/*
 * Test program for atomic read-modify-write sequences under tracing
 * (lwarx/stwcx. and ldarx/stdcx. loops on powerpc, lock-prefixed
 * instructions on x86). It blocks on a fifo (the test arms it there),
 * runs N rounds of fetch-add and compare-exchange on 32- and 64-bit
 * variables, checks the results, and blocks again. On powerpc each round
 * also takes a lock and does a fetch-add with the loaded value held in a
 * non-volatile register (r29, r30), as glibc's lll_lock does: an
 * interrupt returns to user mode without reloading r14-r31 from the
 * register frame unless told to, so an emulated window that wrote one
 * must say so.
 *
 * With "sizes", the rounds are instead compare-and-swap loops on a byte
 * and a halfword (GCC's lbarx/stbcx. and lharx/sthcx. at power8, the
 * ppc64el baseline) and, on powerpc, a fetch-add of every larx size
 * (lbarx, lharx, lwarx, ldarx, lqarx) whose destination register held -1
 * before the larx (the load must zero-extend), on bytes and halfwords
 * that share their word with others the rounds change too. Every value
 * seen and stored is checked against a plain copy; the final values are
 * printed ("sizes" line), then the ok line. The values for N rounds:
 *   b[k]  (c4(k) + 16 * c4(k - 2)) mod 256     (powerpc; x86: c4(k))
 *   h[k]  (3 * c2(k) + 256 * c2(k - 1)) mod 65536   (x86: 3 * c2(k))
 *   w 5N mod 2^32, d N * 0x100000001, q hi 3N lo N  (powerpc; else 0)
 * where cM(k) is how many rounds i < N have i mod M == k mod M.
 *
 * usage: tp_atomic FIFO N [sizes]   prints "tp_atomic: ok N" and exits 0
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int c32;
static long c64;
static int lock;

__attribute__((noinline, noclone)) void round_trip(void)
{
	int expected = 0;

	__atomic_fetch_add(&c32, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&c64, 2, __ATOMIC_SEQ_CST);
	/* a lock acquire and release: the compare fails on purpose once */
	if (__atomic_compare_exchange_n(&lock, &expected, 1, 0,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		expected = 5;	/* lock is 1: this one must fail */
		if (__atomic_compare_exchange_n(&lock, &expected, 7, 0,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			abort();
		__atomic_store_n(&lock, 0, __ATOMIC_RELEASE);
	}
}

#if defined(__powerpc64__)
static int nv_lock;
static long nv_sum;

/*
 * Returns the lock word seen by the lwarx (0: taken). r29 starts at -1,
 * so a load into it that is lost shows.
 */
__attribute__((noinline, noclone)) int nv_trylock(int *p)
{
	int old;

	asm volatile("li	29,-1\n"
		     "nop\n"
		     "1:	lwarx	29,0,%1\n"
		     "cmpwi	29,0\n"
		     "bne-	2f\n"
		     "stwcx.	%2,0,%1\n"
		     "bne-	1b\n"
		     "2:	isync\n"
		     "mr	%0,29\n"
		     : "=r"(old)
		     : "r"(p), "r"(1)
		     : "r29", "cr0", "memory");
	return old;
}

/* Returns the value before the add, and the sum is kept in r30. */
__attribute__((noinline, noclone)) long nv_fetch_add(long *p, long v)
{
	long old, sum;

	asm volatile("li	30,-1\n"
		     "1:	ldarx	30,0,%2\n"
		     "mr	%0,30\n"
		     "add	30,30,%3\n"
		     "stdcx.	30,0,%2\n"
		     "bne-	1b\n"
		     "mr	%1,30\n"
		     : "=&r"(old), "=&r"(sum)
		     : "r"(p), "r"(v)
		     : "r30", "cr0", "memory");
	return sum - v == old ? old : -2;
}

/* Nonzero when a round went wrong; printed as the "nv" result. */
static int nv_round(int i)
{
	int seen = nv_trylock(&nv_lock);

	if (seen)
		return 1000 + seen;
	__atomic_store_n(&nv_lock, 0, __ATOMIC_RELEASE);
	if (nv_fetch_add(&nv_sum, 3) != 3L * i)
		return 2;
	return 0;
}
#else
static int nv_round(int i)
{
	(void)i;
	return 0;
}
#endif

/*
 * The "sizes" rounds. b and h each share one aligned word, so a byte or
 * halfword store that clobbers its neighbours shows.
 */
struct sizes {
	unsigned char b[4];
	unsigned short h[2];
	unsigned int w;
	unsigned long d;
	unsigned __int128 q;
};
static struct sizes sz;
/* what sz must hold: the same arithmetic, without atomics */
static struct sizes want;
/* rounds whose quadword add never stored (see quad_round()) */
static int qfail;

#if defined(__powerpc64__)
#define POWER8 __attribute__((noinline, noclone, target("cpu=power8")))
#else
#define POWER8 __attribute__((noinline, noclone))
#endif

/*
 * A compare-and-swap that must fail (the byte is not old + 1), then a
 * compare-and-swap loop adding @v. Returns the byte before the add, or
 * -1 if the failing one did not fail or did not give back the byte.
 */
POWER8 int cas8_add(unsigned char *p, unsigned char v)
{
	unsigned char old = __atomic_load_n(p, __ATOMIC_RELAXED);
	unsigned char bad = old + 1;

	if (__atomic_compare_exchange_n(p, &bad, 0, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_RELAXED) || bad != old)
		return -1;
	while (!__atomic_compare_exchange_n(p, &old, old + v, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	return old;
}

/* The same on a halfword. */
POWER8 int cas16_add(unsigned short *p, unsigned short v)
{
	unsigned short old = __atomic_load_n(p, __ATOMIC_RELAXED);
	unsigned short bad = old + 1;

	if (__atomic_compare_exchange_n(p, &bad, 0, 0, __ATOMIC_SEQ_CST,
					__ATOMIC_RELAXED) || bad != old)
		return -1;
	while (!__atomic_compare_exchange_n(p, &old, old + v, 0,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
	return old;
}

#if defined(__powerpc64__)
/*
 * Fetch-add with a larx of the given mnemonic: the destination holds -1
 * before it, so a load that does not zero-extend shows in the old value
 * returned; the sum may carry past the width (the stcx. stores the low
 * part only). The larx is a branch target, so block mode traps right
 * there and emulates the window too (this and lqarx_add's "b 1f").
 */
#define LARX_FETCH_ADD(name, larx, stcx, type)				\
POWER8 unsigned long name(type *p, unsigned long v)			\
{									\
	unsigned long old, sum;						\
									\
	asm volatile("li	%0,-1\n"				\
		     "b	1f\n"						\
		     "1:	" larx "	%0,0,%2\n"		\
		     "add	%1,%0,%3\n"				\
		     stcx "	%1,0,%2\n"				\
		     "bne-	1b\n"					\
		     : "=&r"(old), "=&r"(sum)				\
		     : "r"(p), "r"(v)					\
		     : "cr0", "memory");				\
	return old;							\
}
LARX_FETCH_ADD(lbarx_add, "lbarx", "stbcx.", unsigned char)
LARX_FETCH_ADD(lharx_add, "lharx", "sthcx.", unsigned short)
LARX_FETCH_ADD(lwarx_add, "lwarx", "stwcx.", unsigned int)
LARX_FETCH_ADD(ldarx_add, "ldarx", "stdcx.", unsigned long)

/*
 * One lqarx..stqcx. window on the pair r10:r11: r10 (RTp) gets the
 * quadword's high-order doubleword, r11 its low-order one, in either
 * byte order. Adds @hi and @lo to them (no carry between); *old gets the
 * quadword loaded. Returns whether the stqcx. stored.
 */
POWER8 int lqarx_add(unsigned __int128 *p, unsigned long hi,
		     unsigned long lo, unsigned __int128 *old)
{
	unsigned long oh, ol, cr;

	asm volatile("li	10,-1\n"
		     "li	11,-1\n"
		     "b	1f\n"
		     "1:	lqarx	10,0,%3\n"
		     "mr	%0,10\n"
		     "mr	%1,11\n"
		     "add	10,10,%4\n"
		     "add	11,11,%5\n"
		     "stqcx.	10,0,%3\n"
		     "mfcr	%2\n"
		     : "=&r"(oh), "=&r"(ol), "=&r"(cr)
		     : "r"(p), "r"(hi), "r"(lo)
		     : "r10", "r11", "cr0", "memory");
	*old = (unsigned __int128)oh << 64 | ol;
	return (cr >> 29) & 1;	/* CR0[EQ] */
}

static unsigned __int128 q_add(unsigned __int128 q, unsigned long hi,
			       unsigned long lo)
{
	return (unsigned __int128)((unsigned long)(q >> 64) + hi) << 64 |
	       (unsigned long)((unsigned long)q + lo);
}

/*
 * stqcx. tries per round. qemu before 8.0 fails every stqcx. (its
 * non-parallel path compares against a stale reservation value), so the
 * rounds whose quadword add never stored are counted (qfail), not
 * retried forever: N of them there, 0 on hardware.
 */
#define QUAD_TRIES	8

/* The quadword add: nonzero if a loaded value was wrong. */
static int quad_round(void)
{
	unsigned __int128 old;
	int t;

	for (t = 0; t < QUAD_TRIES; t++) {
		if (lqarx_add(&sz.q, 3, 1, &old)) {
			if (old != want.q)
				return 1;
			want.q = q_add(want.q, 3, 1);
			return 0;
		}
		if (old != want.q)
			return 1;
	}
	qfail++;
	return 0;
}

/* The larx rounds: nonzero (which one) if an old value was wrong. */
static int larx_round(int i)
{
	unsigned char *b = &sz.b[(i + 2) & 3];
	unsigned short *h = &sz.h[(i + 1) & 1];
	int k;

	k = (i + 2) & 3;
	if (lbarx_add(b, 16) != want.b[k])
		return 11;
	want.b[k] += 16;
	k = (i + 1) & 1;
	if (lharx_add(h, 256) != want.h[k])
		return 12;
	want.h[k] += 256;
	if (lwarx_add(&sz.w, 5) != want.w)
		return 14;
	want.w += 5;
	if (ldarx_add(&sz.d, 0x100000001ul) != want.d)
		return 18;
	want.d += 0x100000001ul;
	return quad_round() ? 16 : 0;
}
#else
static int larx_round(int i)
{
	(void)i;
	return 0;
}
#endif

/* One "sizes" round: nonzero (which step) if a value was wrong. */
static int sizes_round(int i)
{
	int k = i & 3;

	if (cas8_add(&sz.b[k], 1) != want.b[k])
		return 1;
	want.b[k] += 1;
	k = i & 1;
	if (cas16_add(&sz.h[k], 3) != want.h[k])
		return 2;
	want.h[k] += 3;
	return larx_round(i);
}

/* Runs N "sizes" rounds; prints the sizes line; 0 if all went right. */
static int sizes(int n)
{
	int i, bad = 0;

	for (i = 0; i < n && !bad; i++)
		bad = sizes_round(i);
	printf("tp_atomic: sizes b %u %u %u %u h %u %u w %u d %lu q hi %lu lo %lu qfail %d\n",
	       sz.b[0], sz.b[1], sz.b[2], sz.b[3], sz.h[0], sz.h[1], sz.w,
	       sz.d, (unsigned long)(sz.q >> 64), (unsigned long)sz.q, qfail);
	if (bad || memcmp(&sz, &want, sizeof(want))) {
		printf("tp_atomic: BAD sizes: round %d step %d\n", i - 1, bad);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int fd, n, i, nv = 0, wide;
	char c;

	wide = argc == 4 && !strcmp(argv[3], "sizes");
	if (argc != 3 && !wide) {
		fprintf(stderr, "usage: tp_atomic FIFO N [sizes]\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	n = atoi(argv[2]);
	/* its pages present and written before tracing: no fault-in */
	memset(&sz, 0, sizeof(sz));
	printf("tp_atomic: pid %d ready\n", getpid());
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	if (wide) {
		if (sizes(n))
			return 1;
	} else {
		for (i = 0; i < n && !nv; i++) {
			round_trip();
			nv = nv_round(i);
		}
		if (c32 != n || c64 != 2L * n || lock || nv) {
			printf("tp_atomic: BAD c32 %d c64 %ld lock %d nv %d\n",
			       c32, c64, lock, nv);
			return 1;
		}
	}
	printf("tp_atomic: ok %d\n", n);
	fflush(stdout);
	if (read(fd, &c, 1) != 1)
		return 2;
	return 0;
}
