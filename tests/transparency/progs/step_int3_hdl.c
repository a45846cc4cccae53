// SPDX-License-Identifier: GPL-2.0
/*
 * step_int3_hdl: the program's breakpoint instruction executed inside
 * signal handlers. A SIGUSR1 handler runs a breakpoint (x86 int3, POWER
 * the trap word tw 31,0,0); the SIGTRAP handler (SA_NODEFER, on the
 * sigaltstack) checks the ip, and at depth 1 runs a breakpoint itself,
 * so a second SIGTRAP nests in the first. POWER handlers step nip past
 * the trap word. 5 rounds: 10 traps, nesting depth 2, ips right.
 *
 * Catches: a tracer that, stepping a handler, takes the breakpoint for
 * its own, or loses its place when a trap nests a frame on the altstack
 * while it steps; a wrong ip after the nested sigreturns.
 *
 * (POWER: si_code is TRAP_BRKPT, or SI_KERNEL when any uprobe is in the
 * mm; not checked here: step_int3 does.)
 */
#include "../tt.h"
#include <signal.h>
#include <ucontext.h>

#if defined(__x86_64__)
#define IP(uc)		((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__powerpc64__)
#include <asm/ptrace.h>
#define IP(uc)		((uc)->uc_mcontext.gp_regs[PT_NIP])
#endif

extern char tt_bp_where[];
static volatile int traps, depth, max_depth, bad_ip, bad_stack, usr1s;
static char altstack[64 * 1024];

static __attribute__((noinline, noclone)) long bp(long v)
{
#if defined(__x86_64__)
	asm volatile("int3\n"
		     ".globl tt_bp_where\n"
		     "tt_bp_where:\n\t"
		     "add $1, %0"
		     : "+r"(v) : : "cc", "memory");
#elif defined(__powerpc64__)
	asm volatile(".globl tt_bp_where\n"
		     "tt_bp_where:\n\t"
		     ".long 0x7fe00008\n\t"	/* tw 31,0,0 */
		     "addi %0, %0, 1"
		     : "+b"(v) : : "memory");
#endif
	return v;
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	stack_t ss;

	(void)sig;
	(void)si;
	depth++;
	traps++;
	if (depth > max_depth)
		max_depth = depth;
	if ((unsigned long)IP(uc) != (unsigned long)tt_bp_where)
		bad_ip++;
	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_ONSTACK))
		bad_stack++;
#if defined(__powerpc64__)
	IP(uc) += 4;
#endif
	if (depth == 1 && bp(100) != 101)
		bad_ip++;
	depth--;
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
	if (bp(usr1s) != usr1s + 1)
		bad_ip++;
}

TT_MAIN
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	int i;

	tt_sys(sigaltstack(&ss, NULL));
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGTRAP, &sa, NULL));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	tt_sys(sigaction(SIGUSR1, &sa, NULL));

	for (i = 0; i < 5; i++)
		tt_sys(raise(SIGUSR1));
	tt_say("SIGUSR1 handlers: %d, breakpoint traps: %d, deepest: %d\n",
	       usr1s, traps, max_depth);
	tt_say("wrong ip or result: %d, off the altstack: %d\n", bad_ip,
	       bad_stack);
	tt_check(usr1s == 5 && traps == 10 && max_depth == 2);
	tt_check(!bad_ip && !bad_stack && depth == 0);
	tt_ok();
	return 0;
}
