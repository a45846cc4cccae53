// SPDX-License-Identifier: GPL-2.0
/*
 * sig_nested: SIGUSR1 and SIGUSR2 handlers that raise each other, under
 * three sa_mask settings; each handler logs its entry and exit (and
 * whether the other signal is blocked inside it), and the log of each
 * round is printed afterwards:
 *  1. empty masks: USR1 raises USR2, which runs nested inside USR1;
 *  2. USR1 blocks USR2: USR2 stays pending until USR1 returns;
 *  3. empty masks, USR2 raises USR1 while USR1 is active (blocked as
 *     the running signal): USR1 runs again after the outer USR1 returns.
 *
 * Catches: deliveries reordered, lost or doubled under tracing, a signal
 * mask saved or restored wrongly across sigreturn, or a pending signal
 * delivered at the wrong moment (e.g. at a step trap instead of at the
 * unblock).
 */
#include "../tt.h"
#include <signal.h>

static char log_buf[256];
static volatile int log_len, round_no, usr1_runs;

static void note(const char *s)
{
	while (*s && log_len < (int)sizeof(log_buf) - 2)
		log_buf[log_len++] = *s++;
	log_buf[log_len++] = ' ';
}

static int blocked(int sig)
{
	sigset_t cur;

	sigprocmask(SIG_BLOCK, NULL, &cur);
	return sigismember(&cur, sig);
}

static void on_usr1(int sig)
{
	(void)sig;
	usr1_runs++;
	note(blocked(SIGUSR2) ? "in1(2blk)" : "in1");
	if (usr1_runs == 1)
		raise(SIGUSR2);
	note("out1");
}

static void on_usr2(int sig)
{
	(void)sig;
	note(blocked(SIGUSR1) ? "in2(1blk)" : "in2");
	if (round_no == 3)
		raise(SIGUSR1);
	note("out2");
}

static void set(int sig, void (*fn)(int), int block)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	if (block)
		sigaddset(&sa.sa_mask, block);
	tt_sys(sigaction(sig, &sa, NULL));
}

static void run(int n, int usr1_blocks)
{
	round_no = n;
	usr1_runs = 0;
	log_len = 0;
	set(SIGUSR1, on_usr1, usr1_blocks);
	set(SIGUSR2, on_usr2, 0);
	note("raise1");
	tt_sys(raise(SIGUSR1));
	note("back");
	log_buf[log_len] = 0;
	tt_say("round %d: %s\n", n, log_buf);
}

TT_MAIN
{
	run(1, 0);
	tt_check(!strcmp(log_buf, "raise1 in1 in2(1blk) out2 out1 back "));
	run(2, SIGUSR2);
	tt_check(!strcmp(log_buf, "raise1 in1(2blk) out1 in2 out2 back "));
	run(3, 0);
	tt_check(!strcmp(log_buf,
		"raise1 in1 in2(1blk) out2 out1 in1 out1 back "));
	tt_check(!blocked(SIGUSR1) && !blocked(SIGUSR2));
	tt_ok();
	return 0;
}
