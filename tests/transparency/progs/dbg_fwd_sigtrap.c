// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_fwd_sigtrap: the program's own traps, passed through a debugger.
 * The child (PTRACE_TRACEME, raise(SIGSTOP)) has a SIGTRAP handler and
 * traps itself: x86 five int3 and a short run with EFLAGS.TF set by
 * popf (a trap after each of its 6 instructions, up to the popf that
 * clears TF); POWER three trap words and two of four conditional traps
 * (tdeqi), the handler stepping over each. Every SIGTRAP first stops the
 * child for the parent, which forwards it with PTRACE_CONT(SIGTRAP). The
 * parent counts the stops, the child its handler's runs: they must
 * agree with the fixed number (x86 11, POWER 5).
 *
 * Catches: a tracer that takes the program's own traps (int3, TF steps,
 * trap words) for its own, or leaks its steps as extra SIGTRAPs, while a
 * debugger watches the signals: counts that differ or disagree.
 */
#include "../tt_dbg.h"

#if defined(__x86_64__)
#define TRAPS	11
asm(TT_ASM_FUNC("own_traps")
    "	int3\n	int3\n	int3\n	int3\n	int3\n"
    "	pushf\n"
    "	orq $0x100, (%rsp)\n"
    "	popf\n"				/* TF on: a trap after each next */
    "	nop\n	nop\n	nop\n"
    "	pushf\n"
    "	andq $~0x100, (%rsp)\n"
    "	popf\n"				/* TF was on here: one more trap */
    "	ret\n"
    ".size own_traps, . - own_traps\n");
#elif defined(__powerpc64__)
#define TRAPS	5
asm(TT_ASM_FUNC("own_traps")
    "	trap\n	trap\n	trap\n"
    "	li 9, 0\n"
    "	li 10, 4\n"
    "1:	andi. 11, 9, 1\n"
    "	tdeqi 11, 0\n"			/* traps when r9 is even */
    "	addi 9, 9, 1\n"
    "	cmpd 9, 10\n"
    "	blt 1b\n"
    "	blr\n"
    ".size own_traps, . - own_traps\n");
#endif

void own_traps(void);

static volatile int handled;

static void on_trap(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	handled++;
	/* x86: int3 and TF traps leave the ip past; POWER: at the trap */
	TT_UC_IP((ucontext_t *)ctx) += TT_TRAP_SKIP;
}

static void child(void)
{
	tt_handle(SIGTRAP, on_trap, 0);
	tt_traceme();
	own_traps();
	tt_say("child: SIGTRAP handler ran %d times\n", handled);
	_exit(handled == TRAPS ? 0 : 11);
}

TT_MAIN
{
	int status, stops = 0, other = 0, sig;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_wait_stop(pid, SIGSTOP);
	sig = 0;			/* the SIGSTOP: dropped */
	for (;;) {
		tt_sys(ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig));
		tt_sys(waitpid(pid, &status, 0));
		if (!WIFSTOPPED(status))
			break;
		/* pass it on: the child's handler gets it */
		sig = WSTOPSIG(status);
		if (sig == SIGTRAP)
			stops++;
		else
			other++;
	}
	tt_say("parent: SIGTRAP stops forwarded: %d, other stops: %d\n",
	       stops, other);
	tt_say_end("parent: child", status);
	tt_check(stops == TRAPS && !other);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
