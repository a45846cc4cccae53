// SPDX-License-Identifier: GPL-2.0
/*
 * step_popf: the program single-steps itself. On x86 it sets EFLAGS.TF
 * with pushf/or/popf, then runs a 200-round register loop; a SIGTRAP
 * handler counts the traps and, at the 20th, clears TF in the ucontext
 * (REG_EFL) so that sigreturn resumes the loop untrapped. It prints the
 * count (exactly 20), that the loop finished, and that TF reads 0 after.
 * POWER has no user way to set MSR_SE: fixed skip lines.
 *
 * Catches: a tracer that owns TF and so eats the program's own traps,
 * delivers extra ones (its steps leaking as SIGTRAP), leaves TF set
 * after the program cleared it, or clears the program's TF.
 */
#include "../tt.h"
#include <signal.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define TF	0x100UL

static volatile int traps, extra;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	if (traps >= 20) {
		extra++;
		uc->uc_mcontext.gregs[REG_EFL] &= ~TF;
		return;
	}
	if (++traps == 20)
		uc->uc_mcontext.gregs[REG_EFL] &= ~TF;
}

static unsigned long flags(void)
{
	unsigned long f;

	asm volatile("pushf; pop %0" : "=r"(f));
	return f;
}

TT_MAIN
{
	long left;

	tt_handle(SIGTRAP, on_trap, 0);

	tt_say("tf before: %lu\n", (flags() & TF) >> 8);
	asm volatile("pushf\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "popf\n\t"
		     "mov $200, %0\n"
		     "1:\n\t"
		     "dec %0\n\t"
		     "jnz 1b\n\t"
		     : "=&r"(left) : : "cc", "memory");
	tt_say("traps: %d\n", traps);
	tt_say("extra traps: %d\n", extra);
	tt_say("loop left: %ld\n", left);
	tt_say("tf after: %lu\n", (flags() & TF) >> 8);
	tt_check(traps == 20);
	tt_check(extra == 0);
	tt_check(left == 0);
	tt_check(!(flags() & TF));
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only")
#endif
