// SPDX-License-Identifier: GPL-2.0
/*
 * step_icebp: x86 only: the one-byte int1 (icebp, 0xf1) raises #DB just
 * like a single-step trap does, but is the program's own: its SIGTRAP
 * handler must see it 5 times, with the ip after the 0xf1. The handler
 * also checks that EFLAGS.TF in its frame is 0. POWER: fixed skip lines.
 *
 * Catches: a tracer that decides "this #DB is my step" without telling
 * int1 from TF (DR6.BS), swallowing the program's trap, or that reports
 * a step trap as the program's own.
 *
 * qemu's TCG (the test VMs) raises #UD for int1: the program then gets
 * SIGILL at the 0xf1 instead, and says so; traced or not, the same.
 */
#include "../tt.h"

#if defined(__x86_64__)
extern char tt_icebp_after[];
static volatile int traps, bad_ip, tf_set, ills;

/* the emulator's #UD at the int1: step over it as the CPU would */
static void on_ill(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	ills++;
	TT_UC_IP(uc)++;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	traps++;
	if ((unsigned long)TT_UC_IP(uc) != (unsigned long)tt_icebp_after)
		bad_ip++;
	if (uc->uc_mcontext.gregs[REG_EFL] & 0x100)
		tf_set++;
}

static __attribute__((noinline, noclone)) long icebp(long v)
{
	asm volatile(".byte 0xf1\n"
		     ".globl tt_icebp_after\n"
		     "tt_icebp_after:\n\t"
		     "add $1, %0"
		     : "+r"(v) : : "cc", "memory");
	return v;
}

TT_MAIN
{
	long v = 0;
	int i;

	tt_handle(SIGTRAP, on_trap, 0);
	tt_handle(SIGILL, on_ill, 0);
	for (i = 0; i < 5; i++)
		v = icebp(v);
	if (ills == 5 && !traps) {
		tt_say("int1 raises SIGILL here (an emulator): %ld\n", v);
		tt_check(v == 5);
		tt_ok();
		return 0;
	}
	tt_say("int1 traps: %d\n", traps);
	tt_say("resumed after each: %ld\n", v);
	tt_say("wrong ip: %d, tf in frame: %d\n", bad_ip, tf_set);
	tt_check(traps == 5 && v == 5 && !bad_ip && !tf_set);
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only")
#endif
