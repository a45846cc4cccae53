// SPDX-License-Identifier: GPL-2.0
/*
 * step_sigret_pf: x86: the first instruction a sigreturn resumes is a
 * pushf or a popf. The program has no TF of its own. Part A (10 rounds):
 * a syscall instruction raises SIGUSR1 and is followed directly by
 * pushf; the handler runs in between, so the pushf is the instruction
 * its sigreturn returns to; the pushed TF must be 0. Part B (10 rounds):
 * the word for a popf with TF set is pushed first, the syscall raises
 * SIGUSR1, and the popf right after it (again the sigreturn's first
 * instruction) starts the program's own single-stepping: exactly one
 * SIGTRAP must follow (its handler clears TF in the ucontext), with the
 * ip after the instruction after the popf. POWER: fixed skip line.
 *
 * Catches: a tracer that, at the trap ending a sigreturn, takes the
 * program's TF from the frame and forgets that an instruction ran after
 * the sigreturn: a pushf there stores the tracer's TF (visible to the
 * program), a popf there setting or clearing TF is missed (the
 * program's traps lost, or steps leaking as its SIGTRAPs).
 */
#include "../tt_step.h"
#include <sys/syscall.h>

#if defined(__x86_64__)
extern char tt_after_popf_next[];
static volatile int usr1s, traps, bad_ip;

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	traps++;
	if ((unsigned long)TT_UC_IP(uc) != (unsigned long)tt_after_popf_next)
		bad_ip++;
	uc->uc_mcontext.gregs[REG_EFL] &= ~TT_TF;
}

/* kill(getpid(), SIGUSR1), then pushf as the first instruction after */
static unsigned long pushf_after_signal(void)
{
	unsigned long f, nr = SYS_kill;

	asm volatile("syscall\n\t"
		     "pushf\n\t"
		     "pop %[f]"
		     : [f] "=r"(f), "+a"(nr)
		     : "D"((long)getpid()), "S"((long)SIGUSR1)
		     : "rcx", "r11", "memory", "cc");
	return f;
}

/* the same with a popf that sets TF */
static __attribute__((noinline, noclone)) void popf_after_signal(void)
{
	unsigned long nr = SYS_kill;

	asm volatile("pushf\n\t"
		     "orq $0x100, (%%rsp)\n\t"
		     "syscall\n\t"
		     "popf\n\t"
		     "nop\n"
		     ".globl tt_after_popf_next\n"
		     "tt_after_popf_next:\n\t"
		     "nop\n\t"
		     "nop"
		     : "+a"(nr)
		     : "D"((long)getpid()), "S"((long)SIGUSR1)
		     : "rcx", "r11", "memory", "cc");
}

TT_MAIN
{
	unsigned long seen = 0;
	int i;

	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_handle(SIGTRAP, on_trap, 0);

	for (i = 0; i < 10; i++)
		seen |= pushf_after_signal() & TT_TF;
	tt_say("A: SIGUSR1 handled %d, pushf right after its sigreturn: TF %lu\n",
	       usr1s, seen >> 8);
	for (i = 0; i < 10; i++)
		popf_after_signal();
	tt_say("B: SIGUSR1 handled %d, popf setting TF right after: %d SIGTRAP, "
	       "wrong ip %d\n", usr1s - 10, traps, bad_ip);
	tt_check(usr1s == 20 && seen == 0);
	tt_check(traps == 10 && bad_ip == 0);
	tt_ok();
	return 0;
}
#else
TT_SKIP_MAIN("x86 only (POWER user code cannot see or set MSR_SE)")
#endif
