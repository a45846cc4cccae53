// SPDX-License-Identifier: GPL-2.0
/*
 * rseq_dbg_step: a debugger single-steps into a restartable
 * sequence. The child (PTRACE_TRACEME) runs an asm stub that stops
 * itself with kill(SIGSTOP) and then enters an rseq critical section
 * (glibc's area) that adds 1 to a counter. The parent reads the child's
 * registration with PTRACE_GET_RSEQ_CONFIGURATION (the same area and
 * signature as its own: fork copied them) and single-steps: after the
 * store of the descriptor the ip is at the section's start; every ptrace
 * stop puts the task to sleep, which counts as a preemption, so the
 * kernel moves it to the abort handler on the way out and the next stop
 * is inside that handler. The parent prints the stops by label, then
 * PTRACE_CONTs; the child retries on its own, commits once and exits 0.
 *
 * Catches: a tracer that keeps the kernel from the rseq fix-up after a
 * debugger's stop (the section then runs stepped to its commit), or
 * that makes a free-running section abort forever (a hang).
 */
#include "../tt_dbg.h"
#include "../tt_rseq.h"

__attribute__((used)) volatile long counter, aborts;
__attribute__((used)) volatile struct rseq *step_rs;	/* POWER's r8 */

#if defined(__x86_64__)
asm(TT_RSEQ_FUNC("rseq_step")		/* rdi = rseq area, rsi = own pid */
    "	movq %rdi, %r8\n"
    "	movq %rsi, %rdi\n"
    TT_ASM_KILL_STOP
    ".globl ps_0\nps_0:\n"
    "	leaq step_desc(%rip), %rax\n"
    ".globl ps_1\nps_1:\n"
    "	movq %rax, 8(%r8)\n"		/* rseq_cs */
    ".globl ps_start\nps_start:\n"
    "	movq counter(%rip), %rcx\n"
    "	incq %rcx\n"
    "	movq %rcx, counter(%rip)\n"	/* commit */
    ".globl ps_post\nps_post:\n"
    "	ret\n"
    TT_RSEQ_SIG_WORD
    ".globl ps_abort\nps_abort:\n"
    "	incq aborts(%rip)\n"
    "	jmp ps_0\n"
    ".globl ps_end\nps_end:\n"
    TT_RSEQ_END("rseq_step", "step_desc", "ps_start", "ps_post",
		"ps_abort"));
#elif defined(__powerpc64__)
asm(TT_RSEQ_FUNC("rseq_step")		/* r3 = rseq area, r4 = own pid */
    "	mr 3, 4\n"
    TT_ASM_KILL_STOP
    ".globl ps_0\nps_0:\n"
    "	addis 8, 2, step_rs@toc@ha\n"	/* sc may clobber r4-r12 */
    "	ld 8, step_rs@toc@l(8)\n"
    "	addis 9, 2, step_desc@toc@ha\n"
    ".globl ps_1\nps_1:\n"
    "	addi 9, 9, step_desc@toc@l\n"
    ".globl ps_2\nps_2:\n"
    "	std 9, 8(8)\n"			/* rseq_cs */
    ".globl ps_start\nps_start:\n"
    "	addis 11, 2, counter@toc@ha\n"
    "	ld 10, counter@toc@l(11)\n"
    "	addi 10, 10, 1\n"
    "	std 10, counter@toc@l(11)\n"	/* commit */
    ".globl ps_post\nps_post:\n"
    "	blr\n"
    TT_RSEQ_SIG_WORD
    ".globl ps_abort\nps_abort:\n"
    "	addis 11, 2, aborts@toc@ha\n"
    "	ld 10, aborts@toc@l(11)\n"
    "	addi 10, 10, 1\n"
    "	std 10, aborts@toc@l(11)\n"
    "	b ps_0\n"
    ".globl ps_end\nps_end:\n"
    TT_RSEQ_END("rseq_step", "step_desc", "ps_start", "ps_post",
		"ps_abort"));
#endif

void rseq_step(volatile struct rseq *rs, long pid);
extern char ps_0[], ps_1[], ps_start[], ps_post[], ps_abort[], ps_end[];

static const char *where(unsigned long ip)
{
	if (ip == (unsigned long)ps_0)
		return "ps_0";
	if (ip > (unsigned long)ps_0 && ip < (unsigned long)ps_start)
		return "descriptor";
	if (ip == (unsigned long)ps_start)
		return "start";
	if (ip > (unsigned long)ps_start && ip < (unsigned long)ps_post)
		return "inside";
	if (ip == (unsigned long)ps_post)
		return "post-commit";
	if (ip >= (unsigned long)ps_abort && ip < (unsigned long)ps_end)
		return "abort";
	return "elsewhere";
}

static void config(pid_t pid, volatile struct rseq *rs)
{
	struct __ptrace_rseq_configuration c;

	memset(&c, 0, sizeof(c));
	if (ptrace(PTRACE_GET_RSEQ_CONFIGURATION, pid, (void *)sizeof(c),
		   &c) < 0) {
		tt_say("parent: no PTRACE_GET_RSEQ_CONFIGURATION\n");
		return;
	}
	tt_say("parent: child's rseq area is the parent's address: %s, size %u, signature RSEQ_SIG: %s\n",
	       c.rseq_abi_pointer == (unsigned long)rs ? "yes" : "no",
	       c.rseq_abi_size, c.signature == RSEQ_SIG ? "yes" : "no");
}

TT_MAIN
{
	volatile struct rseq *rs;
	const char *w = "";
	char line[256];
	int status, i, n;
	pid_t pid;

	if (tt_rseq_none(1))
		return 0;
	rs = tt_rseq_area();
	pid = tt_sys(fork());
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(10);
		step_rs = rs;
		rseq_step(rs, getpid());
		rs->rseq_cs = 0;
		tt_say("child: committed %ld time(s), aborted: %s\n", counter,
		       aborts > 0 ? "yes" : "no");
		_exit(counter == 1 && aborts > 0 ? 0 : 11);
	}
	tt_wait_stop(pid, SIGSTOP);
	config(pid, rs);
	n = snprintf(line, sizeof(line), "parent: stops: %s",
		     where(tt_ip(pid)));
	for (i = 0; i < 10 && strcmp(w, "abort"); i++) {
		tt_sys(ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL));
		tt_wait_stop(pid, SIGTRAP);
		w = where(tt_ip(pid));
		n += snprintf(line + n, sizeof(line) - n, " %s", w);
	}
	tt_say("%s\n", line);
	tt_sys(ptrace(PTRACE_CONT, pid, NULL, NULL));
	tt_sys(waitpid(pid, &status, 0));
	tt_say_end("parent: child", status);
	tt_check(!strcmp(w, "abort"));
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	tt_ok();
	return 0;
}
