// SPDX-License-Identifier: GPL-2.0
/*
 * step_trap_death: the program's own breakpoint instruction (x86 int3,
 * POWER the trap word tw 31,0,0) ends it. A trap's SIGTRAP that is
 * blocked is forced through: unblocked, reset to the default action.
 * Child 1 has a SIGTRAP handler but SIGTRAP blocked: it dies of signal
 * 5 at its breakpoint. Child 2's handler sends it back to the same
 * breakpoint (x86: ip back over the int3; POWER: nip left at the trap)
 * three times, and the third time returns with SIGTRAP added to its
 * uc_sigmask, so the fourth trap kills it. The parent prints both, then
 * blocks SIGTRAP (handler installed) and runs the breakpoint itself: the
 * run ends by signal 5 (status 133), after the verdict. RLIMIT_CORE 0.
 *
 * (Always a handler: a trap with no handler at all makes x86 log
 * "traps: ... int3", which the suite's kernel log check rejects.)
 *
 * Catches: a tracer that swallows a trap it did not set (the program
 * then runs on past its breakpoint, or hangs re-executing it), or that
 * changes the death into another signal or an exit.
 */
#include "../tt.h"
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#if defined(__x86_64__)
#define BACK		1	/* the int3's length: ip is after it */
#elif defined(__powerpc64__)
#define BACK		0	/* nip is at the trap word */
#endif

static volatile int traps;

static void breakpoint(void)
{
	asm volatile(TT_TRAP_INSN : : : "memory");
}

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	traps++;
	tt_say("child's handler: trap %d at the same breakpoint\n", traps);
	TT_UC_IP(uc) -= BACK;	/* run the breakpoint again */
	if (traps == 3)
		sigaddset(&uc->uc_sigmask, SIGTRAP);
}

static void install(void)
{

	tt_handle(SIGTRAP, on_trap, 0);
}

static void block(void)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGTRAP);
	tt_sys(sigprocmask(SIG_BLOCK, &set, NULL));
}

/* @what: how the child is, with a colon */
static void child(const char *what, int blocked)
{
	int status;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0) {
		if (blocked)
			block();
		breakpoint();
		_exit(7);
	}
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end(what, status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTRAP);
}

TT_MAIN
{
	struct rlimit rl = { 0, 0 };

	tt_sys(setrlimit(RLIMIT_CORE, &rl));
	install();
	child("child with SIGTRAP blocked:", 1);
	child("child trapping 3 times, then blocked:", 0);
	tt_check(traps == 0);
	tt_ok();
	tt_say("own breakpoint, SIGTRAP blocked: death by signal %d expected\n",
	       SIGTRAP);
	block();
	breakpoint();
	tt_say("still alive\n");
	return 1;
}
