// SPDX-License-Identifier: GPL-2.0
/*
 * step_trap_forms: trap instructions other than the plain breakpoint.
 * POWER: conditional traps, taken and not taken: twi (TO eq, against 5),
 * tdi (TO gt, 64-bit, against 7) and tw (TO lt, register against 3),
 * each run for the values 0..9: 1 + 2 + 3 traps in 30 runs; the SIGTRAP
 * handler checks nip is the trap's and steps past it. x86: the two-byte
 * int $3 (SIGTRAP, ip after it), int $4 (the overflow trap: SIGSEGV, ip
 * after it) and int $1, whose gate user mode may not use (#GP: SIGSEGV
 * at the instruction, which the handler skips), 5 times each.
 *
 * Catches: a tracer that takes a trap it did not plant for its own
 * (a conditional trap word, a cd 03 or a #GP at int $1 that looks like
 * a debug exception), reports one that was not taken, or resumes at the
 * wrong ip.
 */
#include "../tt.h"

#if defined(__x86_64__)
extern char tt_int3_after[], tt_int4_after[], tt_int1_at[];
static volatile int traps, segvs, bad_ip;

static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long ip = TT_UC_IP(uc);

	(void)si;
	if (sig == SIGTRAP) {
		traps++;
		if (ip != (unsigned long)tt_int3_after)
			bad_ip++;
	} else if (ip == (unsigned long)tt_int4_after) {
		segvs++;
	} else if (ip == (unsigned long)tt_int1_at) {
		segvs += 100;
		TT_UC_IP(uc) += 2;
	} else {
		bad_ip++;
		_exit(3);
	}
}

static __attribute__((noinline, noclone)) long forms(long v)
{
	asm volatile("int $3\n"
		     ".globl tt_int3_after\ntt_int3_after:\n\t"
		     "add $1, %0\n\t"
		     "int $4\n"
		     ".globl tt_int4_after\ntt_int4_after:\n\t"
		     "add $10, %0\n"
		     ".globl tt_int1_at\ntt_int1_at:\n\t"
		     "int $1\n\t"
		     "add $100, %0"
		     : "+r"(v) : : "cc", "memory");
	return v;
}

TT_MAIN
{
	long v = 0;
	int i;

	tt_handle(SIGTRAP, on_sig, 0);
	tt_handle(SIGSEGV, on_sig, 0);
	for (i = 0; i < 5; i++)
		v = forms(v);
	tt_say("int $3: %d SIGTRAP\n", traps);
	tt_say("int $4: %d SIGSEGV, int $1: %d SIGSEGV\n", segvs % 100,
	       segvs / 100);
	tt_say("resumed: %ld, wrong ip: %d\n", v, bad_ip);
	tt_check(traps == 5 && segvs == 505 && v == 555 && !bad_ip);
	tt_ok();
	return 0;
}

#elif defined(__powerpc64__)
extern char tt_twi_at[], tt_tdi_at[], tt_tw_at[];
static volatile int n_twi, n_tdi, n_tw, bad_ip;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long ip = TT_UC_IP(uc);

	(void)sig;
	(void)si;
	if (ip == (unsigned long)tt_twi_at)
		n_twi++;
	else if (ip == (unsigned long)tt_tdi_at)
		n_tdi++;
	else if (ip == (unsigned long)tt_tw_at)
		n_tw++;
	else {
		bad_ip++;
		_exit(3);
	}
	TT_UC_IP(uc) += TT_TRAP_SKIP;	/* nip at the trap */
}

static __attribute__((noinline, noclone)) long forms(long v, long three)
{
	long r = 0;

	asm volatile(".globl tt_twi_at\ntt_twi_at:\n\t"
		     "twi 4, %1, 5\n\t"		/* v == 5 */
		     "addi %0, %0, 1\n"
		     ".globl tt_tdi_at\ntt_tdi_at:\n\t"
		     "tdi 8, %1, 7\n\t"		/* v > 7 */
		     "addi %0, %0, 10\n"
		     ".globl tt_tw_at\ntt_tw_at:\n\t"
		     "tw 16, %1, %2\n\t"	/* v < 3 */
		     "addi %0, %0, 100"
		     : "+b"(r) : "r"(v), "r"(three) : "memory");
	return r;
}

TT_MAIN
{
	long sum = 0;
	int i;

	tt_handle(SIGTRAP, on_trap, 0);
	for (i = 0; i < 10; i++)
		sum += forms(i, 3);
	tt_say("twi eq 5: %d taken of 10\n", n_twi);
	tt_say("tdi gt 7: %d taken of 10\n", n_tdi);
	tt_say("tw lt 3: %d taken of 10\n", n_tw);
	tt_say("resumed: %ld, wrong ip: %d\n", sum, bad_ip);
	tt_check(n_twi == 1 && n_tdi == 2 && n_tw == 3);
	tt_check(sum == 1110 && !bad_ip);
	tt_ok();
	return 0;
}
#endif
