// SPDX-License-Identifier: GPL-2.0
/*
 * step_pushf: the program looks for the tracer's step bit where it can
 * see it. x86: pushf;pop reads EFLAGS, whose TF must be 0; a SIGUSR1
 * handler reads the saved EFLAGS in its ucontext (REG_EFL), whose TF
 * must be 0 too. POWER: the handler reads the saved MSR
 * (gp_regs[PT_MSR]), whose SE (0x400) and BE (0x200) must be 0.
 * Each is read 10 times (from a loop, and from 10 signals) and printed.
 *
 * Catches: a single-stepper visible to the program, through pushf
 * (x86 pushes TF as set) or through the signal frame (TF / MSR_SE /
 * MSR_BE saved into the user-visible context, then also restored by
 * sigreturn as if the program had set them).
 */
#include "../tt.h"
#include <signal.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define STEP_BITS	0x100UL		/* TF */
#define CTX_BITS(uc)	((unsigned long)(uc)->uc_mcontext.gregs[REG_EFL])
#elif defined(__powerpc64__)
#include <asm/ptrace.h>
#define STEP_BITS	0x600UL		/* MSR_SE | MSR_BE */
#define CTX_BITS(uc)	((unsigned long)(uc)->uc_mcontext.gp_regs[PT_MSR])
#endif

static volatile int handled;
static volatile unsigned long ctx_bits;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	ctx_bits |= CTX_BITS((ucontext_t *)ctx) & STEP_BITS;
	handled++;
}

TT_MAIN
{
	int i;

#if defined(__x86_64__)
	unsigned long f, seen = 0;

	for (i = 0; i < 10; i++) {
		asm volatile("pushf; pop %0" : "=r"(f));
		seen |= f & STEP_BITS;
	}
	tt_say("pushf tf: %lu\n", seen >> 8);
	tt_check(seen == 0);
#else
	tt_say("pushf tf: 0\n");	/* no pushf: the same line */
#endif
	tt_handle(SIGUSR1, on_usr1, 0);
	for (i = 0; i < 10; i++)
		tt_sys(raise(SIGUSR1));
	tt_say("handled: %d\n", handled);
	tt_say("step bits in signal frame: %s\n", ctx_bits ? "set" : "clear");
	tt_check(handled == 10);
	tt_check(ctx_bits == 0);
	tt_ok();
	return 0;
}
