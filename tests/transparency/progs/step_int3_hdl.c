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
#include "../tt_step.h"

static volatile int traps, depth, max_depth, bad_ip, bad_stack, usr1s;
static char altstack[64 * 1024];

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
	if ((unsigned long)TT_UC_IP(uc) != (unsigned long)tt_bp_where)
		bad_ip++;
	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_ONSTACK))
		bad_stack++;
	TT_UC_IP(uc) += TT_TRAP_SKIP;
	if (depth == 1 && tt_bp(100) != 101)
		bad_ip++;
	depth--;
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1s++;
	if (tt_bp(usr1s) != usr1s + 1)
		bad_ip++;
}

TT_MAIN
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	int i;

	tt_sys(sigaltstack(&ss, NULL));
	tt_handle(SIGTRAP, on_trap, SA_NODEFER | SA_ONSTACK);
	tt_handle_plain(SIGUSR1, on_usr1, 0);

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
