// SPDX-License-Identifier: GPL-2.0
/*
 * step_int3: the program's own breakpoint instructions, handled by its
 * own SIGTRAP handler, 10 times. x86: int3 (SIGTRAP with the ip already
 * after the int3); POWER: the trap word tw 31,0,0 (0x7fe00008, SIGTRAP
 * with nip at the trap), whose handler advances nip by 4. The handler
 * checks the ip against the label after (x86) / at (POWER) the
 * instruction and the si_code, and the program prints the counts.
 *
 * Catches: a tracer that takes the program's breakpoint for its own
 * (swallows it, or reports a single-step trap instead), reports it with
 * a wrong ip or si_code, or loses the handler's change to nip.
 */
#include "../tt_step.h"

static volatile int traps, bad_ip, bad_code, last_code;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	traps++;
	last_code = si->si_code;
	if ((unsigned long)TT_UC_IP(uc) != (unsigned long)tt_bp_where)
		bad_ip++;
#if defined(__x86_64__)
	if (si->si_code != SI_KERNEL)
		bad_code++;
#elif defined(__powerpc64__)
	if (si->si_code != TRAP_BRKPT)
		bad_code++;
#endif
	TT_UC_IP(uc) += TT_TRAP_SKIP;
}

TT_MAIN
{
	long v = 0;
	int i;

	tt_handle(SIGTRAP, on_trap, 0);
	for (i = 0; i < 10; i++)
		v = tt_bp(v);
	tt_say("breakpoint traps: %d\n", traps);
	tt_say("resumed after each: %ld\n", v);
	tt_say("wrong ip: %d, wrong si_code: %d\n", bad_ip, bad_code);
	tt_check(traps == 10 && v == 10 && !bad_ip && !bad_code);
	tt_ok();
	return 0;
}
