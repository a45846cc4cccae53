// SPDX-License-Identifier: GPL-2.0
/*
 * sig_vfork_hdl: vfork() from inside signal handlers. A SIGUSR1 handler
 * vforks a child that _exit()s at once (while borrowing the handler's
 * stack frame and the parent's mm), then raises SIGUSR2, whose handler
 * (nested one level deeper, on the sigaltstack) does the same; 5 rounds.
 * The parent checks each child's status, and that both handlers return
 * through sigreturn to the right place with their locals intact.
 *
 * Catches: a tracer that attaches its stepping state to a vfork child
 * running on the parent's signal frame (the parent then resumes with a
 * wrong register, step bit or stack), or that loses track of which
 * sigreturn belongs to which frame after a vfork in between.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/wait.h>

static volatile int round_no, depth, max_depth, bad;
static volatile int status_sum;
static char altstack[64 * 1024];

static int vfork_exit(int code)
{
	int status;
	pid_t pid;

	pid = vfork();
	if (pid == 0)
		_exit(code);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	if (!WIFEXITED(status))
		return -2;
	return WEXITSTATUS(status);
}

static void on_usr2(int sig)
{
	volatile long canary = 0x5a5a0000 + round_no;
	stack_t ss;
	int r;

	depth++;
	if (depth > max_depth)
		max_depth = depth;
	/* SA_ONSTACK: this one runs on the alternate stack */
	if (sigaltstack(NULL, &ss) || !(ss.ss_flags & SS_ONSTACK))
		bad++;
	r = vfork_exit(20 + round_no);
	if (r != 20 + round_no || sig != SIGUSR2)
		bad++;
	status_sum += r;
	if (canary != 0x5a5a0000 + round_no)
		bad++;
	depth--;
}

static void on_usr1(int sig)
{
	volatile long canary = 0x1234000 + round_no;
	int r;

	depth++;
	r = vfork_exit(10 + round_no);
	if (r != 10 + round_no || sig != SIGUSR1)
		bad++;
	status_sum += r;
	if (raise(SIGUSR2))
		bad++;
	if (canary != 0x1234000 + round_no)
		bad++;
	depth--;
}

TT_MAIN
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };

	tt_sys(sigaltstack(&ss, NULL));
	tt_handle_plain(SIGUSR1, on_usr1, 0);
	tt_handle_plain(SIGUSR2, on_usr2, SA_ONSTACK);

	for (round_no = 0; round_no < 5; round_no++) {
		tt_sys(raise(SIGUSR1));
		tt_say("round %d: depth back to %d, status sum %d\n",
		       round_no, depth, status_sum);
	}
	tt_say("deepest handler nesting: %d\n", max_depth);
	tt_say("bad: %d\n", bad);
	/* 5 * 10 + (0+1+2+3+4) and 5 * 20 + the same */
	tt_check(status_sum == 60 + 110);
	tt_check(max_depth == 2 && depth == 0 && bad == 0);
	tt_ok();
	return 0;
}
