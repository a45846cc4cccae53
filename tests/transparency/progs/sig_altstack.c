// SPDX-License-Identifier: GPL-2.0
/*
 * sig_altstack: sigaltstack() plus SA_ONSTACK. A SIGUSR1 handler
 * (SA_ONSTACK) checks that a local of its own lies inside the alternate
 * stack and that sigaltstack() reports SS_ONSTACK; a SIGUSR2 handler
 * without SA_ONSTACK, raised from inside the first, runs on the same
 * alternate stack (already on it) and one raised from main runs on the
 * main stack. Prints yes/no for each, and that the stack is left after.
 *
 * Catches: a tracer whose signal-frame handling (it may rewrite the
 * frame to hide or keep its step state) builds the frame on the wrong
 * stack, or restores sp/the altstack state wrongly at sigreturn.
 */
#include "../tt.h"
#include <signal.h>
#include <stdint.h>

#define ALT_SIZE	(64 * 1024)

static char *alt;
static volatile int on_alt1, flag1, on_alt2_in1, on_alt2_main, usr2_runs;

static int on_alt(void)
{
	volatile char here;
	uintptr_t p = (uintptr_t)&here;

	return p >= (uintptr_t)alt && p < (uintptr_t)alt + ALT_SIZE;
}

static void on_usr2(int sig)
{
	(void)sig;
	if (usr2_runs++ == 0)
		on_alt2_in1 = on_alt();
	else
		on_alt2_main = on_alt();
}

static void on_usr1(int sig)
{
	stack_t cur;

	(void)sig;
	on_alt1 = on_alt();
	if (sigaltstack(NULL, &cur) == 0)
		flag1 = !!(cur.ss_flags & SS_ONSTACK);
	raise(SIGUSR2);
}

TT_MAIN
{
	stack_t ss, cur;

	alt = malloc(ALT_SIZE);
	tt_check(alt);
	ss.ss_sp = alt;
	ss.ss_size = ALT_SIZE;
	ss.ss_flags = 0;
	tt_sys(sigaltstack(&ss, NULL));

	tt_handle_plain(SIGUSR2, on_usr2, 0);
	tt_handle_plain(SIGUSR1, on_usr1, SA_ONSTACK);

	tt_sys(raise(SIGUSR1));
	tt_sys(raise(SIGUSR2));
	tt_sys(sigaltstack(NULL, &cur));

	tt_say("usr1 (SA_ONSTACK) on altstack: %s\n", on_alt1 ? "yes" : "no");
	tt_say("usr1 sees SS_ONSTACK: %s\n", flag1 ? "yes" : "no");
	tt_say("usr2 nested in usr1 on altstack: %s\n",
	       on_alt2_in1 ? "yes" : "no");
	tt_say("usr2 from main on altstack: %s\n", on_alt2_main ? "yes" : "no");
	tt_say("main on altstack after: %s\n",
	       cur.ss_flags & SS_ONSTACK ? "yes" : "no");
	tt_check(on_alt1 && flag1 && on_alt2_in1 && !on_alt2_main);
	tt_check(!(cur.ss_flags & SS_ONSTACK));
	tt_check(usr2_runs == 2);
	tt_ok();
	return 0;
}
