// SPDX-License-Identifier: GPL-2.0
/*
 * sig_exec_hdl: execve() of /proc/self/exe from inside a SIGUSR1 handler
 * running on the sigaltstack, with SIGUSR2 in its sa_mask and a SIGUSR2
 * sent to itself (so pending) just before the exec. The new image (told
 * by argv[1] == "--img2") checks what the kernel keeps and what it
 * resets: SIGUSR1 and SIGUSR2 still blocked (the handler's mask is the
 * exec's), SIGUSR2 still pending, both dispositions back to SIG_DFL, no
 * sigaltstack; then it installs a handler, unblocks, and the pending
 * SIGUSR2 is delivered once. Ends with exit 0 from the second image.
 *
 * Catches: a tracer that keeps per-frame signal state (a sigreturn it
 * expects) across an exec that abandons the frame, or carries its step
 * state or a stale altstack view into the new image.
 */
#include "../tt.h"
#include <signal.h>

static char altstack[64 * 1024];
static volatile int got_usr2;

static void on_usr1(int sig)
{
	char *av[] = { "sig_exec_hdl", "--img2", NULL };
	stack_t ss;

	(void)sig;
	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_ONSTACK))
		tt_say("img1: handler not on the altstack\n");
	else
		tt_say("img1: in the handler on the altstack, exec\n");
	/* blocked by sa_mask: stays pending across the exec */
	if (kill(getpid(), SIGUSR2))
		_exit(3);
	execv("/proc/self/exe", av);
	_exit(4);
}

static void on_usr2(int sig)
{
	(void)sig;
	got_usr2++;
}

static int img2(void)
{
	struct sigaction old;
	sigset_t mask, pend;
	stack_t ss;

	tt_sys(sigprocmask(SIG_SETMASK, NULL, &mask));
	tt_sys(sigpending(&pend));
	tt_say("img2: blocked SIGUSR1 %d SIGUSR2 %d SIGTRAP %d\n",
	       sigismember(&mask, SIGUSR1), sigismember(&mask, SIGUSR2),
	       sigismember(&mask, SIGTRAP));
	tt_say("img2: pending SIGUSR1 %d SIGUSR2 %d\n",
	       sigismember(&pend, SIGUSR1), sigismember(&pend, SIGUSR2));
	tt_check(sigismember(&mask, SIGUSR1) && sigismember(&mask, SIGUSR2));
	tt_check(!sigismember(&mask, SIGTRAP));
	tt_check(!sigismember(&pend, SIGUSR1) && sigismember(&pend, SIGUSR2));

	tt_sys(sigaction(SIGUSR1, NULL, &old));
	tt_say("img2: SIGUSR1 handler reset: %d\n", old.sa_handler == SIG_DFL);
	tt_check(old.sa_handler == SIG_DFL);
	tt_sys(sigaltstack(NULL, &ss));
	tt_say("img2: sigaltstack disabled: %d\n", !!(ss.ss_flags & SS_DISABLE));
	tt_check(ss.ss_flags & SS_DISABLE);

	tt_handle_plain(SIGUSR2, on_usr2, 0);
	sigemptyset(&mask);
	tt_sys(sigprocmask(SIG_SETMASK, &mask, NULL));
	tt_say("img2: pending SIGUSR2 delivered at unblock: %d\n", got_usr2);
	tt_check(got_usr2 == 1);
	tt_ok();
	return 0;
}

TT_MAIN
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	if (argc == 2 && !strcmp(argv[1], "--img2"))
		return img2();
	tt_sys(sigaltstack(&ss, NULL));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	tt_sys(sigaction(SIGUSR1, &sa, NULL));
	sa.sa_handler = on_usr2;
	sa.sa_flags = 0;
	sigemptyset(&sa.sa_mask);
	tt_sys(sigaction(SIGUSR2, &sa, NULL));
	tt_sys(raise(SIGUSR1));
	tt_fail("returned from the exec'ing handler");
	return 1;
}
