// SPDX-License-Identifier: GPL-2.0
/*
 * sec_strict: SECCOMP_MODE_STRICT, the original seccomp: only read,
 * write, exit and rt_sigreturn are allowed, anything else is SIGKILL.
 * Three forked children enter strict mode and write a line: child 1
 * then calls getppid and dies of SIGKILL; child 2 leaves with the exit
 * system call (exit 3; glibc's _exit is exit_group, not allowed);
 * child 3 stores to address 0: its SIGSEGV handler (installed before)
 * writes a line and moves the ucontext's ip past the store, and returns
 * through rt_sigreturn; the child exits 4. The parent prints each end
 * in turn.
 *
 * Catches: a tracer that makes a strict-mode task run any system call of
 * its own (the task would be killed), or whose single-stepping breaks
 * the rt_sigreturn strict mode allows or changes how the task dies.
 */
#include "../tt.h"
#include <linux/seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#if defined(__x86_64__)
#define NULL_STORE	"	xorl %eax, %eax\n"			\
			".globl ns_insn\nns_insn:	movl $1, (%rax)\n"
#elif defined(__powerpc64__)
#define NULL_STORE	"	li 9, 0\n"				\
			".globl ns_insn\nns_insn:	stw 9, 0(9)\n"
#endif
asm(TT_ASM_FUNC("null_store")
    NULL_STORE
    ".globl ns_after\nns_after:" TT_ASM_RET
    ".size null_store, . - null_store\n");

void null_store(void);
extern char ns_insn[], ns_after[];

static volatile int segv;

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	(void)sig;
	(void)si;
	tt_say("child 3: SIGSEGV handler in strict mode, at the store: %s\n",
	       (unsigned long)TT_UC_IP(uc) == (unsigned long)ns_insn ?
	       "yes" : "no");
	TT_UC_IP(uc) = (unsigned long)ns_after;
	segv++;
}

static void strict(int n)
{
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT, 0, 0, 0))
		syscall(SYS_exit, 10);
	tt_say("child %d: in strict mode\n", n);
}

static void end(int n, int status)
{
	char who[32];

	snprintf(who, sizeof(who), "parent: child %d", n);
	tt_say_end(who, status);
}

TT_MAIN
{
	int status;
	pid_t pid;

	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) {
		tt_say("seccomp: not in this kernel: skipped\n");
		tt_ok();
		return 0;
	}
	pid = tt_sys(fork());
	if (pid == 0) {
		strict(1);
		syscall(SYS_getppid);
		tt_say("child 1: getppid returned\n");
		syscall(SYS_exit, 11);
	}
	tt_sys(waitpid(pid, &status, 0));
	end(1, status);
	tt_check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

	pid = tt_sys(fork());
	if (pid == 0) {
		strict(2);
		syscall(SYS_exit, 3);
	}
	tt_sys(waitpid(pid, &status, 0));
	end(2, status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 3);

	pid = tt_sys(fork());
	if (pid == 0) {
		tt_handle(SIGSEGV, on_segv, 0);
		strict(3);
		null_store();
		syscall(SYS_exit, segv == 1 ? 4 : 12);
	}
	tt_sys(waitpid(pid, &status, 0));
	end(3, status);
	tt_check(WIFEXITED(status) && WEXITSTATUS(status) == 4);
	tt_ok();
	return 0;
}
