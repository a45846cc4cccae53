// SPDX-License-Identifier: GPL-2.0
/*
 * dbg_step_sys: a debugger single-steps the program over system calls,
 * a fork among them. The child (PTRACE_TRACEME) runs an asm stub that
 * stops itself with kill(SIGSTOP), then: getpid, fork, a test of fork's
 * result and a return (the forked grandchild branches off and exits 9).
 * (SIGCHLD is blocked in the child: no signal stop comes in between.)
 * The parent single-steps it from the stop and prints the stub's labels
 * the stops came at (x86: every instruction; POWER reports no step
 * right after an sc, so the stop after each sc comes one instruction
 * later), checking they only go forward to the return and the result
 * registers after getpid (the child's pid) and fork (the grandchild's
 * pid); then it continues the child, which reaps its grandchild (9, no
 * SIGTRAP: the step bit must not leak into a fork) and exits 0.
 *
 * Catches: a tracer and ptrace both stepping over a system-call
 * instruction: a stop lost or doubled at the syscall's return (where
 * the kernel reports the step itself), a wrong ip, or a step bit
 * inherited by the forked task.
 */
#include "../tt_dbg.h"

#if defined(__x86_64__)
asm(TT_ASM_FUNC("step_sys")		/* rdi = own pid */
    TT_ASM_KILL_STOP
    ".globl ss_0\nss_0:	movl $39, %eax\n"	/* getpid */
    ".globl ss_1\nss_1:	syscall\n"
    ".globl ss_2\nss_2:	movl $57, %eax\n"	/* fork */
    ".globl ss_3\nss_3:	syscall\n"
    ".globl ss_4\nss_4:	test %rax, %rax\n"
    ".globl ss_5\nss_5:	jz 1f\n"
    ".globl ss_6\nss_6:	ret\n"
    "1:	movl $9, %edi\n"		/* the grandchild: exit_group(9) */
    "	movl $231, %eax\n"
    "	syscall\n"
    ".size step_sys, . - step_sys\n");
#elif defined(__powerpc64__)
asm(TT_ASM_FUNC("step_sys")		/* r3 = own pid */
    TT_ASM_KILL_STOP
    ".globl ss_0\nss_0:	li 0, 20\n"		/* getpid */
    ".globl ss_1\nss_1:	sc\n"
    ".globl ss_2\nss_2:	li 0, 2\n"		/* fork */
    ".globl ss_3\nss_3:	sc\n"
    ".globl ss_4\nss_4:	cmpdi 3, 0\n"
    ".globl ss_5\nss_5:	beq 1f\n"
    ".globl ss_6\nss_6:	blr\n"
    "1:	li 3, 9\n"			/* the grandchild: exit_group(9) */
    "	li 0, 234\n"
    "	sc\n"
    ".size step_sys, . - step_sys\n");
#endif

long step_sys(long pid);
extern char ss_0[], ss_1[], ss_2[], ss_3[], ss_4[], ss_5[], ss_6[];

static void child(void)
{
	sigset_t chld;
	int status;
	long g;

	/* the grandchild's SIGCHLD would add a signal-delivery stop */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(10);
	g = step_sys(getpid());
	if (g <= 0 || waitpid(g, &status, 0) != g)
		_exit(11);
	tt_say_end("child: grandchild", status);
	_exit(WIFEXITED(status) && WEXITSTATUS(status) == 9 ? 0 : 12);
}

TT_MAIN
{
	static const char *const name[] = {
		"ss_0", "ss_1", "ss_2", "ss_3", "ss_4", "ss_5", "ss_6"
	};
	char *const at[] = { ss_0, ss_1, ss_2, ss_3, ss_4, ss_5, ss_6 };
	int status, i, k, last = -1, n, bad = 0, pid_ok = 0, fork_ok = 0;
	char line[256];
	tt_regs_t r;
	pid_t pid;

	pid = tt_sys(fork());
	if (pid == 0)
		child();
	tt_wait_stop(pid, SIGSTOP);
	tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
	n = snprintf(line, sizeof(line), "stops:");
	for (i = 0; i < 10; i++) {
		for (k = 0; k < 7 && TT_R_IP(r) != (unsigned long)at[k]; k++)
			;
		n += snprintf(line + n, sizeof(line) - n, " %s",
			      k < 7 ? name[k] : "?");
		if (k == 7 || k <= last) {	/* off the stub, or back */
			bad++;
			break;
		}
		/* the first stop past each syscall: its result */
		if (last < 2 && k >= 2 && (long)TT_R_RET(r) == pid)
			pid_ok = 1;
		if (last < 4 && k >= 4 && (long)TT_R_RET(r) > 0)
			fork_ok = 1;
		last = k;
		if (k == 6)
			break;
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_sys(waitpid(pid, &status, 0));
		tt_check(WIFSTOPPED(status));
		if (WSTOPSIG(status) != SIGTRAP)
			bad++;
		tt_check(tt_regs(pid, PTRACE_GETREGSET, &r) == 0);
	}
	tt_say("parent: %s\n", line);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	while (tt_sys(waitpid(pid, &status, 0)) && WIFSTOPPED(status)) {
		bad++;
		tt_sys(ptrace(PTRACE_CONT, pid, NULL,
			      (void *)(long)WSTOPSIG(status)));
	}
	tt_say_end("parent: child", status);
	tt_say("parent: getpid's result the child's pid: %s, fork's the grandchild's: %s\n",
	       pid_ok ? "yes" : "no", fork_ok ? "yes" : "no");
	tt_check(!bad && last == 6 && pid_ok && fork_ok);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
