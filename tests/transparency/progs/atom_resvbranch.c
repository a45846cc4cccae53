// SPDX-License-Identifier: GPL-2.0
/*
 * atom_resvbranch: atomic windows with control flow inside. Each of
 * four windows adds to a word, 20 times, each add tried at most 64
 * times before a plain atomic add stands in; prints, per window,
 * whether every add got through within its tries (it does: nothing else
 * touches the word) and the sum. POWER: lwarx ... stwcx. with, between
 * the two, (a) an unconditional forward branch, (b) a call to a leaf
 * function (bl/blr), (c) a 3-round bdnz loop, (d) a taken conditional
 * branch. The architecture keeps the reservation across branches.
 * x86: the same shapes between a load and its lock cmpxchg.
 *
 * Catches: a tracer that handles a larx..stcx. window only as straight
 * line code: one that traps on a branch inside it (clearing the
 * reservation at the interrupt's return) or stops emulating the window
 * at its first taken branch makes every stwcx. fail, and a program
 * with an unbounded retry loop would never end.
 */
#include "../tt.h"
#include <stdint.h>

#define ADDS	20
#define TRIES	64

static uint32_t word;

#if defined(__x86_64__)
static __attribute__((noinline)) uint32_t leaf(uint32_t v)
{
	asm volatile("" : "+r"(v));
	return v + 1;
}

static int cas(uint32_t old, uint32_t new)
{
	unsigned char ok;

	asm volatile("lock cmpxchgl %3, %1\n\tsete %0"
		     : "=q"(ok), "+m"(word), "+a"(old) : "r"(new)
		     : "cc", "memory");
	return ok;
}

/* one try of window @w: stored? */
static int try_window(int w)
{
	uint32_t v = __atomic_load_n(&word, __ATOMIC_RELAXED), n = v;
	int i;

	switch (w) {
	case 0:
		asm volatile("jmp 1f\n\tnop\n1:" ::: "memory");
		n = v + 1;
		break;
	case 1:
		n = leaf(v);
		break;
	case 2:
		for (i = 0; i < 3; i++)
			asm volatile("inc %0" : "+r"(n) : : "cc");
		break;
	default:
		if (v != 0xffffffff)
			n = v + 1;
	}
	return cas(v, n);
}
#elif defined(__powerpc64__)
/* a leaf for the bl window: r9 += 1 */
asm(".text\n"
    ".type tt_leaf_inc, @function\n"
    "tt_leaf_inc:\n\t"
    "addi 9, 9, 1\n\t"
    "blr\n"
    ".size tt_leaf_inc, .-tt_leaf_inc\n");

#define WINDOW(body, ...) ({						\
	unsigned long cr;						\
	asm volatile("lwarx 9, 0, %1\n\t"				\
		     body "\n\t"					\
		     "stwcx. 9, 0, %1\n\t"				\
		     "mfcr %0"						\
		     : "=r"(cr) : "b"(&word), ##__VA_ARGS__		\
		     : "r9", "r10", "ctr", "lr", "cr0", "memory");	\
	!!(cr & 0x20000000); })

static int try_window(int w)
{
	switch (w) {
	case 0:
		return WINDOW("b 1f\n\tnop\n1:\taddi 9, 9, 1");
	case 1:
		return WINDOW("bl tt_leaf_inc");
	case 2:
		return WINDOW("li 10, 3\n\tmtctr 10\n"
			      "1:\taddi 9, 9, 1\n\tbdnz 1b");
	default:
		return WINDOW("cmpwi 9, -1\n\tbne 1f\n\taddi 9, 9, 100\n"
			      "1:\taddi 9, 9, 1");
	}
}
#endif

static const char *const names[] = {
	"a forward branch", "a call", "a 3-round loop",
	"a taken conditional branch",
};

TT_MAIN
{
	int w, i, n, all, ok = 1;
	uint32_t want;

	for (w = 0; w < 4; w++) {
		word = 0;
		all = 1;
		for (i = 0; i < ADDS; i++) {
			for (n = 0; n < TRIES && !try_window(w); n++)
				;
			if (n == TRIES) {
				all = 0;
				__atomic_fetch_add(&word, w == 2 ? 3 : 1,
						   __ATOMIC_SEQ_CST);
			}
		}
		want = ADDS * (w == 2 ? 3 : 1);
		tt_say("window with %s: every add stored within %d tries: %s, sum %u (want %u)\n",
		       names[w], TRIES, all ? "yes" : "no", word, want);
		ok &= all && word == want;
	}
	tt_check(ok);
	tt_ok();
	return 0;
}
